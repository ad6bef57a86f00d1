// dap_test.go: the bridged session's DAP link, with a scripted extension
// (bridgetest.Extension) as the bridge's Editor: requests reach the editor
// with their command and arguments as they are and responses carry the
// request's seq, the editor's errors become failed responses with the
// adapter's message, the tracker's events drive the session, and what a
// bridged session must not do (start-up requests, disconnect,
// setBreakpoints, terminate) never reaches the editor.

package bridge_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/session"
)

func TestBridgedSessionLink(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	var topLine atomic.Int64
	topLine.Store(12)
	x := &bridgetest.Extension{Answer: func(_ context.Context, p bridgetest.Request) (json.RawMessage, error) {
		switch p.Command {
		case "stackTrace":
			return bridgetest.Body(map[string]any{"stackFrames": []any{map[string]any{"id": 0, "name": "main", "line": topLine.Load(), "column": 3, "source": map[string]any{"path": "vscode-remote://127.0.0.1:8080/w/app.js"}}}})
		case "evaluate":
			if p.Args()["expression"] == "nope" {
				return nil, errors.New("ReferenceError: nope is not defined")
			}
			return bridgetest.Body(map[string]any{"result": "42", "variablesReference": 0})
		case "continue", "next":
			return nil, nil // VS Code's customRequest: an empty body
		}
		return nil, errors.New("dapscope bridge: command " + p.Command + " is not allowed")
	}}
	br := bridge.New(bridge.Options{Manager: mgr, Editor: x, Logger: testLogger(t)})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ev := bridge.Event{VSCodeSessionID: "js-1", DebugType: "pwa-node", Name: "app.js", Adapter: "node"}
	send := func(kind string, mod func(*bridge.Event)) {
		e := ev
		e.Kind = kind
		if mod != nil {
			mod(&e)
		}
		br.Handle(e)
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
	if _, err := s.Evaluate(ctx, "x", 0, ""); err == nil || !strings.Contains(err.Error(), string(errcode.NotPaused)) {
		t.Fatalf("evaluate while running: %v", err)
	}
	send("event", func(e *bridge.Event) {
		e.Event, e.Body = "output", json.RawMessage(`{"category":"stdout","output":"hello\n"}`)
	})
	send("stopped", func(e *bridge.Event) {
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
	calls := x.Calls()
	last := calls[len(calls)-1]
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
	n := len(x.Commands())
	if _, err := s.SetBreakpoints(ctx, "app.js", []session.Breakpoint{{Line: 3}}); err == nil || !strings.Contains(err.Error(), string(errcode.NotSupported)) || !strings.Contains(err.Error(), "VS Code owns") {
		t.Fatalf("setBreakpoints: %v", err)
	}
	if _, _, err := s.SetVariable(ctx, 0, "x", "1"); err == nil || !strings.Contains(err.Error(), string(errcode.NotSupported)) {
		t.Fatalf("setVariable: %v", err)
	}
	if err := s.Request(ctx, "disconnect", map[string]any{}, nil); err == nil || !strings.Contains(err.Error(), string(errcode.NotSupported)) {
		t.Fatalf("disconnect: %v", err)
	}
	if err := s.Terminate(ctx); err == nil || !strings.Contains(err.Error(), "stop it in the editor") {
		t.Fatalf("terminate: %v", err)
	}
	if got := x.Commands(); len(got) != n {
		t.Fatalf("refused requests reached the extension: %v", got[n:])
	}
	// A step whose stop reaches the sidecar before the step's own response
	// (in VS Code the tracker's notification can overtake customRequest's
	// promise): the session still ends up paused on the new line.
	x.BeforeReply(func(p bridgetest.Request) {
		if p.Command != "next" {
			return
		}
		topLine.Store(13)
		send("continued", func(e *bridge.Event) { e.Body = json.RawMessage(`{"threadId":0}`) })
		send("stopped", func(e *bridge.Event) { e.Reason, e.Body = "step", json.RawMessage(`{"reason":"step","threadId":0}`) })
	})
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
	send("continued", func(e *bridge.Event) { e.Body = json.RawMessage(`{"threadId":0,"allThreadsContinued":true}`) })
	send("event", func(e *bridge.Event) { e.Event, e.Body = "exited", json.RawMessage(`{"exitCode":3}`) })
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
	for _, c := range x.Commands() {
		if !slices.Contains(session.BridgeCommands(), c) {
			t.Errorf("%s reached the extension", c)
		}
	}
	if err := mgr.Close(); err != nil {
		t.Fatal(err)
	}
	br.Close()
}
