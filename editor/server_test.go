// Tests of the editor channel with the fake editor (editortest: the
// extension's side) and VS Code's DAP client on the proxy (daptest)
// against real debugpy: initialize, startProxy, hover on a paused
// DataFrame, null when nothing is paused or running, dapscope/inspect,
// dapscope/sessions, session notifications, and shutdown/exit leaving no
// processes. Also: a panicking handler becomes a JSON-RPC error and the
// channel lives on.

package editor_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

func TestEditorChannelWithDebugpy(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	bpLine := lineWith(t, src, "total = ") // 0-based
	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})

	init := ed.Initialize()
	if init.Capabilities.HoverProvider != true || init.ServerInfo == nil || init.ServerInfo.Name != "dapscope" {
		t.Fatalf("initialize: %+v", init)
	}
	ed.DidOpen(fixture, "python", string(src))

	// Nothing paused: hover answers null.
	if h := hoverAt(t, ed, fixture, lines[bpLine], bpLine, "df"); h != nil {
		t.Fatalf("hover with no session = %+v, want null", h)
	}

	// startProxy: a loopback address that a (scripted) VS Code uses as its adapter.
	proxy := ed.StartProxy(editor.StartProxyParams{VSCodeSessionID: "vs-1", Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "debugpy", "program": fixture}})
	if !strings.HasPrefix(proxy.Address, "unix:/") || proxy.Adapter != "debugpy" {
		t.Fatalf("startProxy = %+v", proxy)
	}
	vs := ed.DialProxy(proxy.Address)
	// → initialize ← response
	// → launch ← initialized; → setBreakpoints ← response
	// → configurationDone ← response, ← launch response, ← stopped
	vs.Initialize(daptest.InitArgs("vscode", "dapscope"))
	// The proxy takes one connection: its listener is gone once the editor
	// is in, and the socket's directory is this user's only.
	if c2, err := session.DialProxy(proxy.Address); err == nil {
		c2.Close()
		t.Fatal("a second connection to the editor's proxy was accepted")
	}
	if st, err := os.Stat(filepath.Dir(strings.TrimPrefix(proxy.Address, "unix:"))); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v, want 0700", st, err)
	}
	vs.LaunchTo(map[string]any{"program": fixture, "console": "internalConsole", "cwd": filepath.Dir(fixture), "justMyCode": true}, fixture, bpLine+1)
	stopped := ed.SessionEvent("stopped")
	if stopped.VSCodeSessionID != "vs-1" || stopped.SessionID == "" {
		t.Fatalf("stopped notification = %+v, want the proxy's VS Code session paired", stopped)
	}

	// Hover df on the paused line: the markdown smart summary.
	h := hoverAt(t, ed, fixture, lines[bpLine], bpLine, "df")
	if h == nil {
		t.Fatal("hover on a paused DataFrame returned null")
	}
	md := h.Contents.Value
	for _, want := range []string{"**df**", "DataFrame", "4 rows", "price", "city", "float64"} {
		if !strings.Contains(md, want) {
			t.Errorf("hover markdown lacks %q:\n%s", want, md)
		}
	}
	// Issue 11: the richer hover links to the webview for this expression.
	if !strings.HasSuffix(md, `[Open in dapscope](command:dapscope.inspectExpression?%5B%22df%22%5D "Open the dapscope view of df")`) {
		t.Errorf("hover markdown lacks the link to the webview:\n%s", md)
	}
	if h.Range == nil || h.Range.Start.Character != uint32(strings.Index(lines[bpLine], "df")) {
		t.Errorf("hover range = %+v", h.Range)
	}
	if len(md) > 2000 {
		t.Errorf("hover markdown is %d bytes; should be short", len(md))
	}
	// A name not yet in scope (assigned on this very line): null. A keyword: null.
	if h := hoverAt(t, ed, fixture, lines[bpLine], bpLine, "total"); h != nil {
		t.Errorf("hover on a name not in scope = %+v, want null", h)
	}
	importLine := 5 // "import pandas as pd" → hovering "import" is a keyword
	if !strings.HasPrefix(lines[importLine], "import pandas") {
		t.Fatalf("fixture changed: line %d = %q", importLine, lines[importLine])
	}
	if h := hoverAt(t, ed, fixture, lines[importLine], importLine, "import"); h != nil {
		t.Errorf("hover on a keyword = %+v, want null", h)
	}

	// dapscope/inspect by VS Code session id (the webview's data).
	res := ed.Inspect(editor.InspectParams{VSCodeSessionID: "vs-1", Expression: "df"})
	if res.DetectedType != "dataframe" || res.Structure == nil || len(res.Structure.Columns) != 2 || res.Structure.Shape[0] != 4 {
		t.Fatalf("inspect df = %+v", res)
	}
	if res.Structure.Columns[0].NullCount == nil || *res.Structure.Columns[0].NullCount != 1 {
		t.Errorf("price nulls = %v, want 1", res.Structure.Columns[0].NullCount)
	}
	missing := ed.Inspect(editor.InspectParams{VSCodeSessionID: "vs-1", Expression: "missing_name"})
	if missing.Error == nil || missing.Error.Code != errcode.VariableNotFound {
		t.Fatalf("inspect missing = %+v", missing)
	}
	pidRes := ed.Inspect(editor.InspectParams{VSCodeSessionID: "vs-1", Expression: "pid"})
	pidF, ok := pidRes.Structure.Value.(float64)
	if !ok || pidF <= 0 {
		t.Fatalf("pid = %#v", pidRes.Structure.Value)
	}
	pid := int(pidF)

	sess := ed.Sessions()
	if len(sess.Sessions) != 1 || sess.Sessions[0].Origin != session.OriginEditor || sess.Sessions[0].Status != session.StatusPaused {
		t.Fatalf("sessions = %+v", sess)
	}

	// Continue: the program sleeps, so the session is running; hover is null.
	// → continue ← response
	vs.Continue(stopped.Stop.ThreadID)
	ed.SessionEvent("continued")
	if h := hoverAt(t, ed, fixture, lines[bpLine], bpLine, "df"); h != nil {
		t.Fatalf("hover while running = %+v, want null", h)
	}

	// mcpEndpoint without an MCP HTTP transport: a clear error.
	if _, err := ed.MCPEndpoint(); err == nil || !strings.Contains(err.Error(), "MCP") {
		t.Errorf("mcpEndpoint error = %v", err)
	}

	// shutdown + exit: every session and child process ends.
	if err := ed.Shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("debuggee %d still alive after shutdown", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// No child process of ours is left either (the debugpy adapter).
	for kids := children(); len(kids) > 0; kids = children() {
		if time.Now().After(deadline) {
			t.Fatalf("child processes left after shutdown: %v", kids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestPanicBecomesErrorAndChannelLives(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	srv := editor.New(editor.Options{Manager: mgr, Logger: testLogger(t)})
	srv.HandleCall("test/panic", func(context.Context, json.RawMessage) (any, error) { panic("boom") })
	ed := editortest.Connect(t, srv, editortest.Options{})
	ed.Timeout = 10 * time.Second
	if err := ed.Call("test/panic", nil, nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panic → %v", err)
	}
	if err := ed.Call("no/such", nil, nil); err == nil || !strings.Contains(err.Error(), "method not found") {
		t.Fatalf("unknown method → %v", err)
	}
	if err := ed.Call("dapscope/inspect", map[string]any{"expression": 5}, nil); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Fatalf("bad params → %v", err)
	}
	if s := ed.Sessions(); len(s.Sessions) != 0 {
		t.Fatalf("sessions after panic: %+v", s)
	}
	// The stream ending (editor gone) also ends Serve cleanly.
	ed.Close()
	if err := ed.Wait(); err != nil {
		t.Fatalf("Serve after EOF: %v", err)
	}
}
