// Tests of the bridge with a session shaped like one of VS Code's
// JavaScript debugger (js-debug): adapter kind "node", its one thread
// numbered 0 and its frames numbered from 0. The scripted extension runs
// each bridged request on a real headless Node session (V8 through
// dapscope's Node adapter, a separate manager) and renumbers thread and
// frame ids the way js-debug does, so hover and dapscope/inspect are checked
// against real JavaScript values with js-debug's ids.

package editor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// jsDebugIDs renumbers a real adapter's thread and frame ids as js-debug
// does: thread 0, frames 0, 1, 2… in the order they are first seen.
type jsDebugIDs struct {
	realThread int
	mu         sync.Mutex
	toReal     map[int]int // js-debug frame id → real frame id
	fromReal   map[int]int
}

func (m *jsDebugIDs) frame(real int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.fromReal[real]; ok {
		return id
	}
	id := len(m.toReal)
	m.toReal[id], m.fromReal[real] = real, id
	return id
}

// args rewrites a request's threadId/frameId to the real adapter's.
func (m *jsDebugIDs) args(raw json.RawMessage) (map[string]any, error) {
	var a map[string]any
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	if _, ok := a["threadId"]; ok {
		m.mu.Lock()
		a["threadId"] = m.realThread
		m.mu.Unlock()
	}
	if f, ok := a["frameId"].(float64); ok {
		m.mu.Lock()
		a["frameId"] = m.toReal[int(f)]
		m.mu.Unlock()
	}
	return a, nil
}

// body rewrites a stackTrace response's frame ids to js-debug's.
func (m *jsDebugIDs) body(command string, raw json.RawMessage) json.RawMessage {
	if command != "stackTrace" {
		return raw
	}
	var b map[string]any
	if json.Unmarshal(raw, &b) != nil {
		return raw
	}
	frames, _ := b["stackFrames"].([]any)
	for _, f := range frames {
		if fm, ok := f.(map[string]any); ok {
			if id, ok := fm["id"].(float64); ok {
				fm["id"] = m.frame(int(id))
			}
		}
	}
	out, _ := json.Marshal(b)
	return out
}

func TestBridgeJSDebugSession(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/records.js")
	src, _ := os.ReadFile(fixture)
	lines := strings.Split(string(src), "\n")
	bpLine := -1
	for i, l := range lines {
		if strings.Contains(l, "// BREAKPOINT") {
			bpLine = i
		}
	}
	// The "js-debug" session: a real Node program driven by another manager.
	other := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	js, err := other.Launch(ctx, session.LaunchSpec{Adapter: "node", Program: "records.js", Breakpoints: []session.Breakpoint{{File: "records.js", Line: bpLine + 1}}})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := js.Wait(ctx, 60*time.Second)
	if err != nil || stop.Location == nil || stop.Location.Line != bpLine+1 {
		t.Fatalf("wait: %+v %v", stop, err)
	}
	ids := &jsDebugIDs{realThread: stop.Location.ThreadID, toReal: map[int]int{}, fromReal: map[int]int{}}

	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	defer mgr.Close()
	a, b := newPipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t)})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	var (
		mu       sync.Mutex
		contexts []string // evaluate contexts seen by the "extension"
		threads  []any    // threadIds asked for
	)
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() != "dapscope/dapRequest" {
			return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
		}
		var p struct {
			VSCodeSessionID string          `json:"vscodeSessionId"`
			Command         string          `json:"command"`
			Arguments       json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		go func() {
			args, err := ids.args(p.Arguments)
			if err != nil {
				_ = reply(ctx, nil, err)
				return
			}
			mu.Lock()
			if c, ok := args["context"].(string); ok && p.Command == "evaluate" {
				contexts = append(contexts, c)
			}
			if p.Command == "stackTrace" {
				var orig map[string]any
				_ = json.Unmarshal(p.Arguments, &orig)
				threads = append(threads, orig["threadId"])
			}
			mu.Unlock()
			var body json.RawMessage
			err = js.Request(ctx, p.Command, args, &body)
			_ = reply(ctx, ids.body(p.Command, body), err)
		}()
		return nil
	})
	defer func() { _ = conn.Close(); <-conn.Done() }()
	call := func(method string, params, out any) error {
		cctx, ccancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer ccancel()
		_, err := conn.Call(cctx, method, params, out)
		return err
	}
	if err := call("initialize", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	// What the extension reports for js-debug's child session of a "node" launch.
	ev := BridgeEvent{VSCodeSessionID: "js-child", DebugType: "pwa-node", Name: "records.js [4242]", Adapter: "node"}
	ev.Kind = "started"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)
	ev.Kind, ev.ThreadID, ev.Reason = "stopped", 0, "breakpoint"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)

	var sess SessionsResult
	for i := 0; i < 100; i++ { // notifications are handled in order but asynchronously
		if err := call("dapscope/sessions", nil, &sess); err != nil {
			t.Fatal(err)
		}
		if len(sess.Bridged) == 1 && sess.Bridged[0].Status == "paused" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(sess.Bridged) != 1 || sess.Bridged[0].Adapter != "node" || sess.Bridged[0].Status != "paused" {
		t.Fatalf("sessions = %+v", sess)
	}

	// dapscope/inspect on the top frame (frame id 0, which js-debug uses).
	var res inspect.Result
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "js-child", Expression: "records"}, &res); err != nil {
		t.Fatal(err)
	}
	// The same assertions hold for the DAP-variables fallback and the JS
	// probe: three rows whose values are the program's.
	js1, _ := json.Marshal(res)
	if res.Error != nil || res.Name != "records" || !strings.Contains(res.Summary, "3") || !strings.Contains(string(js1), "Nice") {
		t.Fatalf("bridged inspect of records = %s", js1)
	}
	var row inspect.Result
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "js-child", FrameID: 0, Expression: "records[1].city"}, &row); err != nil {
		t.Fatal(err)
	}
	if js2, _ := json.Marshal(row); row.Error != nil || !strings.Contains(string(js2), "Lyon") {
		t.Fatalf("records[1].city = %s", js2)
	}
	var missing inspect.Result
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "js-child", Expression: "nope"}, &missing); err != nil {
		t.Fatal(err)
	}
	if missing.Error == nil || missing.Error.Code != inspect.CodeVariableNotFound {
		t.Fatalf("inspect of an unknown name = %+v", missing.Error)
	}

	// Hover on records in the file the top frame (id 0) is in.
	var raw json.RawMessage
	col := strings.Index(lines[bpLine], "records") + 2
	if err := call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": string(uri.File(fixture))}, "position": map[string]any{"line": bpLine, "character": col}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "records") || !strings.Contains(string(raw), "3") {
		t.Fatalf("hover on records in frame 0 = %s", raw)
	}
	mu.Lock()
	for _, th := range threads {
		if th != float64(0) {
			t.Errorf("stackTrace asked for thread %v, want js-debug's thread 0", th)
		}
	}
	if len(threads) == 0 || len(contexts) == 0 {
		t.Errorf("bridge traffic: stackTrace threads %v, evaluate contexts %v", threads, contexts)
	}
	mu.Unlock()

	ev.Kind = "terminated"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)
	if err := call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = conn.Notify(context.Background(), "exit", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
