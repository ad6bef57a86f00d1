// cmd_inspect_dap_test.go drives an editor-like DAP client (daptest)
// through the sidecar proxy (Manager.ServeEditor over an in-memory pipe,
// real debugpy behind it) and sends the custom request dapscope/inspect:
// the sidecar answers it itself with an inspect.Result.

package main

import (
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

func TestDapscopeInspectRequestThroughProxy(t *testing.T) {
	root, _ := os.Getwd()
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Custom: customRequests(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer mgr.Close()
	editor, side := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- mgr.ServeEditor(t.Context(), side, session.ProxySpec{}) }()
	c := daptest.New(t, editor)

	// → initialize ← response
	// → launch ← initialized; → setBreakpoints(34) ← response
	// → configurationDone ← response, ← launch response, ← stopped
	program := filepath.Join(root, "testdata/python/example.py")
	c.Initialize(daptest.InitArgs("test", "python"))
	config := daptest.PythonLaunch(program)
	config["python"] = []string{testpython.Path()}
	c.LaunchTo(config, program, 34)

	// → dapscope/inspect ← response (an inspect.Result, from the sidecar)
	r := c.Response(c.Send("dapscope/inspect", map[string]any{"expression": "sales", "options": map[string]any{"max_preview_rows": 2}}))
	if !r.Success() {
		t.Fatalf("dapscope/inspect failed: %s", r.Env.Message)
	}
	var res inspect.Result
	if err := r.Unmarshal(&res); err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != inspect.TypeDataFrame || len(res.Preview.Head) != 2 || !strings.HasPrefix(res.Summary, "DataFrame 1,000 rows × 6 columns") {
		t.Fatalf("unexpected result: %s %q", res.DetectedType, res.Summary)
	}
	// → dapscope/inspect (a call) ← error response
	r = c.Response(c.Send("dapscope/inspect", map[string]any{"expression": "sales.head()"}))
	if r.Success() || !strings.Contains(r.Env.Message+string(r.Body), "INVALID_EXPRESSION") {
		t.Fatalf("want an INVALID_EXPRESSION error response, got success=%v %s %s", r.Success(), r.Env.Message, r.Body)
	}
	// → disconnect ← response
	c.Disconnect(true)
	c.Close()
	if f := c.Foreign(); len(f) > 0 {
		t.Fatalf("the editor received responses it did not cause: %v", f)
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ServeEditor did not return after disconnect")
	}
}
