// dap_inspect_test.go: an editor sends dapscope/inspect on its own debug
// session through the proxy (real debugpy): the sidecar answers it, the
// adapter never sees it, and errors come back as DAP error responses.
package main

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/session"
)

type rawEditor struct {
	t    *testing.T
	conn net.Conn
	r    *dap.Reader
	w    *dap.Writer
	seq  int
	held []map[string]any
}

func (e *rawEditor) send(cmd string, args any) int {
	e.seq++
	b, _ := json.Marshal(map[string]any{"seq": e.seq, "type": "request", "command": cmd, "arguments": args})
	if err := e.w.WriteFrame(b); err != nil {
		e.t.Fatal(err)
	}
	return e.seq
}

func (e *rawEditor) wait(pred func(map[string]any) bool) map[string]any {
	e.t.Helper()
	for i, m := range e.held {
		if pred(m) {
			e.held = append(e.held[:i], e.held[i+1:]...)
			return m
		}
	}
	for {
		_ = e.conn.SetReadDeadline(time.Now().Add(60 * time.Second))
		b, err := e.r.ReadFrame()
		if err != nil {
			e.t.Fatalf("editor read: %v", err)
		}
		var m map[string]any
		_ = json.Unmarshal(b, &m)
		if pred(m) {
			return m
		}
		e.held = append(e.held, m)
	}
}

func (e *rawEditor) resp(seq int) map[string]any {
	return e.wait(func(m map[string]any) bool { return m["type"] == "response" && m["request_seq"] == float64(seq) })
}

func (e *rawEditor) event(name string) map[string]any {
	return e.wait(func(m map[string]any) bool { return m["type"] == "event" && m["event"] == name })
}

func TestDAPInspectThroughProxy(t *testing.T) {
	root, _ := filepath.Abs(".")
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Custom: customHandlers})
	defer mgr.Close()
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- mgr.ServeEditor(context.Background(), muxSide, session.ProxySpec{}) }()
	e := &rawEditor{t: t, conn: edSide, r: dap.NewReader(edSide), w: dap.NewWriter(edSide)}
	program := filepath.Join(root, "testdata", "python", "example.py")
	// → initialize, launch, setBreakpoints(34), configurationDone ← stopped
	e.resp(e.send("initialize", map[string]any{"adapterID": "python"}))
	launch := e.send("launch", map[string]any{"type": "python", "request": "launch", "program": program, "console": "internalConsole"})
	e.event("initialized")
	e.resp(e.send("setBreakpoints", map[string]any{"source": map[string]any{"path": program}, "breakpoints": []map[string]any{{"line": 34}}}))
	e.resp(e.send("configurationDone", nil))
	e.resp(launch)
	e.event("stopped")

	// → dapscope/inspect sales ← the DataFrame's structured result
	r := e.resp(e.send("dapscope/inspect", map[string]any{"expression": "sales", "max_preview_rows": 3}))
	if r["success"] != true {
		t.Fatalf("inspect failed: %v", r["message"])
	}
	res := r["body"].(map[string]any)["result"].(map[string]any)
	if res["detected_type"] != "dataframe" || !strings.Contains(res["summary"].(string), "1,000 rows") {
		t.Fatalf("result = %v", res)
	}
	// → markdown rendering for hovers
	r = e.resp(e.send("dapscope/inspect", map[string]any{"expression": "config", "format": "markdown"}))
	if text, _ := r["body"].(map[string]any)["text"].(string); !strings.Contains(text, "dict") {
		t.Fatalf("markdown = %v", r["body"])
	}
	// → unknown name ← error response naming the code
	r = e.resp(e.send("dapscope/inspect", map[string]any{"expression": "no_such_name"}))
	if r["success"] != false || !strings.Contains(r["message"].(string), "VARIABLE_NOT_FOUND") {
		t.Fatalf("unknown name = %v", r)
	}
	// → bad arguments ← error response
	r = e.resp(e.send("dapscope/inspect", map[string]any{"expression": "sales", "bogus": 1}))
	if r["success"] != false || !strings.Contains(r["message"].(string), "bogus") {
		t.Fatalf("bad args = %v", r)
	}
	// The editor's own requests still work on the same session.
	st := e.resp(e.send("threads", nil))
	if st["success"] != true {
		t.Fatalf("threads = %v", st)
	}
	e.resp(e.send("disconnect", map[string]any{"terminateDebuggee": true}))
	_ = edSide.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
