// Unit tests of the bridged session's DAP link, with a fake extension that
// answers dapscope/dapRequest from a script: requests become calls with the
// command and arguments as they are and responses carry the request's seq,
// the extension's errors become failed responses with the adapter's message,
// forwarded events drive the session, and what a bridged session must not
// do (start-up requests, disconnect, setBreakpoints, terminate) never
// reaches the extension. Also: the command list shared with the extension.

package editor

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"

	"github.com/dapscope/dapscope/server/session"
)

var updateBridgeCommands = flag.Bool("update-bridge-commands", false, "rewrite testdata/bridge_commands.json")

// The extension reads the same list (vscode-extension/test/bridge.test.ts).
func TestBridgeCommandsFile(t *testing.T) {
	want, _ := json.MarshalIndent(session.BridgeCommands(), "", "  ")
	want = append(want, '\n')
	if *updateBridgeCommands {
		if err := os.WriteFile("testdata/bridge_commands.json", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/bridge_commands.json")
	if err != nil || string(got) != string(want) {
		t.Fatalf("testdata/bridge_commands.json = %s, want %s (rerun with -update-bridge-commands)", got, want)
	}
}

// scriptedExtension answers dapRequest from a table and records the calls.
type scriptedExtension struct {
	mu    sync.Mutex
	calls []DapRequestParamsForTest
	// answer returns the body or an error message for a call.
	answer func(p DapRequestParamsForTest) (any, string)
	// beforeReply runs before a call is answered (the tracker's events
	// overtaking customRequest's promise).
	beforeReply func(p DapRequestParamsForTest)
}

func (x *scriptedExtension) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() != "dapscope/dapRequest" {
		return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
	}
	var p DapRequestParamsForTest
	_ = json.Unmarshal(req.Params(), &p)
	x.mu.Lock()
	x.calls = append(x.calls, p)
	x.mu.Unlock()
	body, msg := x.answer(p)
	x.mu.Lock()
	before := x.beforeReply
	x.mu.Unlock()
	if before != nil {
		before(p)
	}
	if msg != "" {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.Code(-32603), msg))
	}
	return reply(ctx, body, nil)
}

func (x *scriptedExtension) commands() []string {
	x.mu.Lock()
	defer x.mu.Unlock()
	var out []string
	for _, c := range x.calls {
		out = append(out, c.Command)
	}
	return out
}

func TestBridgedSessionLink(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	a, b := newPipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t)})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	var topLine atomic.Int64
	topLine.Store(12)
	x := &scriptedExtension{answer: func(p DapRequestParamsForTest) (any, string) {
		switch p.Command {
		case "stackTrace":
			return map[string]any{"stackFrames": []any{map[string]any{"id": 0, "name": "main", "line": topLine.Load(), "column": 3, "source": map[string]any{"path": "vscode-remote://127.0.0.1:8080/w/app.js"}}}}, ""
		case "evaluate":
			var e struct {
				Expression string `json:"expression"`
			}
			_ = json.Unmarshal(p.Arguments, &e)
			if e.Expression == "nope" {
				return nil, "ReferenceError: nope is not defined"
			}
			return map[string]any{"result": "42", "variablesReference": 0}, ""
		case "continue", "next":
			return nil, "" // VS Code's customRequest: an empty body
		}
		return nil, "dapscope bridge: command " + p.Command + " is not allowed"
	}}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(context.Background(), x.handle)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := conn.Call(ctx, "initialize", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	ev := BridgeEvent{VSCodeSessionID: "js-1", DebugType: "pwa-node", Name: "app.js", Adapter: "node"}
	send := func(kind string, mod func(*BridgeEvent)) {
		e := ev
		e.Kind = kind
		if mod != nil {
			mod(&e)
		}
		if err := conn.Notify(ctx, "dapscope/bridgeEvent", e); err != nil {
			t.Fatal(err)
		}
	}
	send("started", nil)
	var s *session.Session
	for s == nil || s.Status() != session.StatusRunning {
		if ss := mgr.List(); len(ss) == 1 {
			s = ss[0]
		}
		select {
		case <-ctx.Done():
			t.Fatalf("no running bridged session: %v", mgr.List())
		case <-time.After(5 * time.Millisecond):
		}
	}
	info := s.Info()
	if info.Origin != session.OriginBridged || info.Adapter != "node" || info.Name != "app.js" || info.DebugType != "pwa-node" || !s.Bridged() {
		t.Fatalf("info = %+v", info)
	}
	// While running: NOT_PAUSED at once, nothing sent.
	if _, err := s.Evaluate(ctx, "x", 0, ""); err == nil || !strings.Contains(err.Error(), session.CodeNotPaused) {
		t.Fatalf("evaluate while running: %v", err)
	}
	send("event", func(e *BridgeEvent) {
		e.Event, e.Body = "output", json.RawMessage(`{"category":"stdout","output":"hello\n"}`)
	})
	send("stopped", func(e *BridgeEvent) {
		e.Reason, e.Body = "breakpoint", json.RawMessage(`{"reason":"breakpoint","threadId":0,"description":"Paused on breakpoint"}`)
	})
	stop, err := s.Wait(ctx, 30*time.Second)
	if err != nil || stop.Location == nil || stop.Location.Line != 12 || stop.Location.Function != "main" || stop.Location.FrameID != 0 || stop.Location.Description != "Paused on breakpoint" ||
		stop.Location.Path != "/w/app.js" { // a remote window's URI, as a path
		t.Fatalf("wait = %+v %v", stop.Location, err)
	}
	if p := s.Output(0, 100); p.Data != "hello\n" {
		t.Fatalf("output = %q", p.Data)
	}
	// A request: its command and arguments reach the extension; js-debug's
	// top frame id 0 is sent (not dropped as go-dap's omitempty would).
	res, err := s.Evaluate(ctx, "answer", 0, "watch")
	if err != nil || res.Result != "42" {
		t.Fatalf("evaluate = %+v %v", res, err)
	}
	x.mu.Lock()
	last := x.calls[len(x.calls)-1]
	x.mu.Unlock()
	if last.VSCodeSessionID != "js-1" || last.Command != "evaluate" || !strings.Contains(string(last.Arguments), `"frameId":0`) || !strings.Contains(string(last.Arguments), `"context":"watch"`) {
		t.Fatalf("bridged evaluate = %+v %s", last, last.Arguments)
	}
	// The editor's error: a failed response with the adapter's message.
	if _, err := s.Evaluate(ctx, "nope", 0, ""); err == nil || !strings.Contains(err.Error(), "ReferenceError: nope is not defined") {
		t.Fatalf("evaluate nope: %v", err)
	}
	// Concurrent requests each get their own response.
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if r, err := s.Evaluate(ctx, "answer", 0, "hover"); err != nil || r.Result != "42" {
				t.Errorf("concurrent evaluate = %+v %v", r, err)
			}
		}()
	}
	wg.Wait()
	// Refused without a word to the extension.
	n := len(x.commands())
	if _, err := s.SetBreakpoints(ctx, "app.js", []session.Breakpoint{{Line: 3}}); err == nil || !strings.Contains(err.Error(), session.CodeNotSupported) || !strings.Contains(err.Error(), "VS Code owns") {
		t.Fatalf("setBreakpoints: %v", err)
	}
	if _, _, err := s.SetVariable(ctx, 0, "x", "1"); err == nil || !strings.Contains(err.Error(), session.CodeNotSupported) {
		t.Fatalf("setVariable: %v", err)
	}
	if err := s.Request(ctx, "disconnect", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), session.CodeNotSupported) {
		t.Fatalf("disconnect: %v", err)
	}
	if err := s.Terminate(ctx); err == nil || !strings.Contains(err.Error(), "stop it in the editor") {
		t.Fatalf("terminate: %v", err)
	}
	if got := x.commands(); len(got) != n {
		t.Fatalf("refused requests reached the extension: %v", got[n:])
	}
	// A step whose stop reaches the sidecar before the step's own response
	// (in VS Code the tracker's notification can overtake customRequest's
	// promise): the session still ends up paused on the new line.
	x.mu.Lock()
	x.beforeReply = func(p DapRequestParamsForTest) {
		if p.Command != "next" {
			return
		}
		topLine.Store(13)
		send("continued", func(e *BridgeEvent) { e.Body = json.RawMessage(`{"threadId":0}`) })
		send("stopped", func(e *BridgeEvent) { e.Reason, e.Body = "step", json.RawMessage(`{"reason":"step","threadId":0}`) })
	}
	x.mu.Unlock()
	if err := s.Step(ctx, "over"); err != nil {
		t.Fatal(err)
	}
	if stop, err := s.Wait(ctx, 30*time.Second); err != nil || stop.Location == nil || stop.Location.Line != 13 || stop.Location.Reason != "step" {
		t.Fatalf("after a step whose stop came first: %+v %v (status %s)", stop, err, s.Status())
	}
	// Moving: continue runs on the editor's session; VS Code's continued
	// event follows.
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if st := s.Status(); st != session.StatusRunning {
		t.Fatalf("after continue: %s", st)
	}
	send("continued", func(e *BridgeEvent) { e.Body = json.RawMessage(`{"threadId":0,"allThreadsContinued":true}`) })
	send("event", func(e *BridgeEvent) { e.Event, e.Body = "exited", json.RawMessage(`{"exitCode":3}`) })
	send("terminated", nil)
	select {
	case <-s.Done():
	case <-ctx.Done():
		t.Fatal("the bridged session did not end with the editor's")
	}
	o := s.Outcome()
	if o == nil || o.ExitCode == nil || *o.ExitCode != 3 || s.Status() != session.StatusCompleted {
		t.Fatalf("outcome = %+v, status %s", o, s.Status())
	}
	for _, c := range x.commands() {
		if !slices.Contains(session.BridgeCommands(), c) {
			t.Errorf("%s reached the extension", c)
		}
	}
	if _, err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = conn.Notify(ctx, "exit", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	<-conn.Done()
}

// The sidecar's shutdown forgets a live bridged session: nothing is sent
// to the editor's session (no disconnect), and its record says how it was
// left.
func TestBridgedSessionForgottenAtShutdown(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	a, b := newPipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t)})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	x := &scriptedExtension{answer: func(p DapRequestParamsForTest) (any, string) {
		return map[string]any{"stackFrames": []any{}}, ""
	}}
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(context.Background(), x.handle)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := conn.Call(ctx, "initialize", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	ev := BridgeEvent{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python", Adapter: "debugpy", Kind: "started"}
	_ = conn.Notify(ctx, "dapscope/bridgeEvent", ev)
	ev.Kind, ev.ThreadID = "stopped", 1
	_ = conn.Notify(ctx, "dapscope/bridgeEvent", ev)
	for len(mgr.List()) == 0 || mgr.List()[0].Status() != session.StatusPaused {
		select {
		case <-ctx.Done():
			t.Fatal("no paused bridged session")
		case <-time.After(5 * time.Millisecond):
		}
	}
	s := mgr.List()[0]
	// An unknown debug type stays an editor-only bridged session.
	_ = conn.Notify(ctx, "dapscope/bridgeEvent", BridgeEvent{VSCodeSessionID: "cpp-1", DebugType: "cppdbg", Name: "C++", Adapter: "cppdbg", Kind: "started"})
	var sess SessionsResult
	if _, err := conn.Call(ctx, "dapscope/sessions", nil, &sess); err != nil {
		t.Fatal(err)
	}
	if len(sess.Sessions) != 1 || len(sess.Bridged) != 2 {
		t.Fatalf("sessions = %+v", sess)
	}
	if _, err := conn.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	for _, c := range x.commands() {
		if c != "stackTrace" {
			t.Errorf("%s was sent at shutdown", c)
		}
	}
	_ = conn.Notify(ctx, "exit", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	_ = conn.Close()
	<-conn.Done()
}
