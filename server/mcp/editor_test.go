// editor_test.go: an agent on the live session a scripted editor drives
// through the proxy (Manager.ListenEditor + a small DAP client over the
// socket). The editor gets exactly one response per request and none of the
// agent's; the agent's evaluations cause no stops; when the agent steps the
// editor sees the stop as usual, and when the editor continues the agent's
// watches are re-evaluated at the new stop.

package mcp

import (
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/session"
)

// editorClient is a scripted DAP client (the editor side of the proxy).
type editorClient struct {
	t    *testing.T
	conn net.Conn
	w    *dap.Writer

	mu        sync.Mutex
	seq       int
	sent      map[int]string // seq → command
	responses map[int]json.RawMessage
	stray     []string // responses to requests the editor never sent, or duplicates
	events    []string // event names, in order
	stops     []string // reasons of stopped events
	changed   chan struct{}
}

func newEditor(t *testing.T, addr string) *editorClient {
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	e := &editorClient{t: t, conn: conn, w: dap.NewWriter(conn), sent: map[int]string{}, responses: map[int]json.RawMessage{}, changed: make(chan struct{}, 1)}
	go e.read()
	return e
}

func (e *editorClient) read() {
	r := dap.NewReader(e.conn)
	for {
		body, err := r.ReadFrame()
		if err != nil {
			return
		}
		env, err := dap.Peek(body)
		if err != nil {
			continue
		}
		e.mu.Lock()
		switch env.Type {
		case "response":
			if _, ok := e.sent[env.RequestSeq]; !ok {
				e.stray = append(e.stray, fmt.Sprintf("response to unknown request_seq %d (%s)", env.RequestSeq, env.Command))
			} else if _, dup := e.responses[env.RequestSeq]; dup {
				e.stray = append(e.stray, fmt.Sprintf("second response to %d (%s)", env.RequestSeq, env.Command))
			} else {
				e.responses[env.RequestSeq] = body
			}
		case "event":
			e.events = append(e.events, env.Event)
			if env.Event == "stopped" {
				var ev struct {
					Body struct {
						Reason string `json:"reason"`
					} `json:"body"`
				}
				_ = json.Unmarshal(body, &ev)
				e.stops = append(e.stops, ev.Body.Reason)
			}
		case "request": // reverse requests (e.g. runInTerminal) are not expected here
			e.stray = append(e.stray, "reverse request "+env.Command)
		}
		e.mu.Unlock()
		select {
		case e.changed <- struct{}{}:
		default:
		}
	}
}

func (e *editorClient) send(command string, args any) int {
	e.mu.Lock()
	e.seq++
	seq := e.seq
	e.sent[seq] = command
	e.mu.Unlock()
	msg := map[string]any{"seq": seq, "type": "request", "command": command}
	if args != nil {
		msg["arguments"] = args
	}
	b, _ := json.Marshal(msg)
	if err := e.w.WriteFrame(b); err != nil {
		e.t.Fatalf("editor write: %v", err)
	}
	return seq
}

// waitFor waits until cond holds (checked on every message).
func (e *editorClient) waitFor(what string, cond func() bool) {
	e.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		e.mu.Lock()
		ok := cond()
		e.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-e.changed:
		case <-deadline:
			e.t.Fatalf("editor: timed out waiting for %s (events %v)", what, e.events)
		}
	}
}

// call sends a request and returns its response body.
func (e *editorClient) call(command string, args any) map[string]any {
	e.t.Helper()
	seq := e.send(command, args)
	var body json.RawMessage
	e.waitFor("response to "+command, func() bool { body = e.responses[seq]; return body != nil })
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	if m["success"] != true {
		e.t.Fatalf("editor %s failed: %s", command, body)
	}
	return m
}

func (e *editorClient) stopCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.stops)
}

func TestAgentBesideEditor(t *testing.T) {
	t.Parallel()
	mgr, srv := newServer(t, Options{})
	ctx := testCtx(t)
	addr, err := mgr.ListenEditor(ctx, session.ProxySpec{})
	if err != nil {
		t.Fatal(err)
	}
	ed := newEditor(t, addr)
	defer ed.conn.Close()

	// The editor starts the session as VS Code would.
	prog := filepath.Join(repoRoot(t), agentPy)
	ed.call("initialize", map[string]any{"clientID": "vscode", "adapterID": "python", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"})
	launchSeq := ed.send("launch", map[string]any{"type": "python", "request": "launch", "program": prog, "console": "internalConsole", "justMyCode": true, "cwd": repoRoot(t)})
	ed.waitFor("initialized", func() bool {
		for _, ev := range ed.events {
			if ev == "initialized" {
				return true
			}
		}
		return false
	})
	ed.call("setBreakpoints", map[string]any{"source": map[string]any{"path": prog}, "breakpoints": []map[string]any{{"line": 33}, {"line": 35}}})
	ed.call("configurationDone", nil)
	ed.waitFor("launch response and first stop", func() bool { return ed.responses[launchSeq] != nil && len(ed.stops) == 1 })

	// The agent finds the editor's session and works on it.
	ep, err := srv.ServeHTTP(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := httpAgent(t, ep)
	var stop StopReport
	a.call("debug_wait", nil, &stop)
	if stop.Status != "paused" || stop.Location.Line != 33 {
		t.Fatalf("agent wait = %+v", stop)
	}
	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
	if len(ss.Sessions) != 1 || ss.Sessions[0].Origin != session.OriginEditor || !ss.Sessions[0].Active || ss.Sessions[0].Stop == nil || ss.Sessions[0].Stop.Line != 33 {
		t.Fatalf("sessions = %+v", ss)
	}
	var w WatchResult
	a.call("debug_watch", map[string]any{"action": "add", "expression": "int(df['b'].isna().sum())"}, &w)

	// Both sides at once: the editor's requests and the agent's tools.
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; i < 10; i++ {
			r, err := a.callCtx(ctx, "debug_evaluate", map[string]any{"expression": fmt.Sprintf("%d + n", 1000+i)}, false)
			if err != nil || r.IsError {
				t.Errorf("agent evaluate %d: %v %s", i, err, textOf(r))
				continue
			}
			var ev EvaluateResult
			decodeStructured(t, r, &ev)
			if ev.Result != fmt.Sprint(1050+i) {
				t.Errorf("agent evaluate %d = %s", i, ev.Result)
			}
		}
		r, err := a.callCtx(ctx, "debug_inspect_variable", map[string]any{"expression": "df"}, false)
		if err != nil || r.IsError {
			t.Errorf("agent inspect: %v %s", err, textOf(r))
		}
	}()
	st := ed.call("stackTrace", map[string]any{"threadId": stop.Location.ThreadID, "levels": 1})
	frameID := int(st["body"].(map[string]any)["stackFrames"].([]any)[0].(map[string]any)["id"].(float64))
	for i := 0; i < 10; i++ {
		r := ed.call("evaluate", map[string]any{"expression": fmt.Sprintf("%d + n", 2000+i), "frameId": frameID, "context": "repl"})
		if got := r["body"].(map[string]any)["result"]; got != fmt.Sprint(2050+i) {
			t.Errorf("editor evaluate %d = %v", i, got)
		}
		ed.call("threads", nil)
	}
	wg.Wait()
	if n := ed.stopCount(); n != 1 {
		t.Fatalf("the agent's work caused stops in the editor: %d", n)
	}

	// The agent steps: the editor sees the stop as usual.
	a.call("debug_step", nil, &stop)
	if stop.Location.Line != 34 {
		t.Fatalf("agent step = %+v", stop.Location)
	}
	ed.waitFor("the step's stop", func() bool { return len(ed.stops) == 2 && ed.stops[1] == "step" })

	// The editor continues: the agent sees the next stop, with its watch re-evaluated.
	ed.call("continue", map[string]any{"threadId": stop.Location.ThreadID})
	ed.waitFor("the second breakpoint", func() bool { return len(ed.stops) == 3 })
	a.call("debug_wait", nil, &stop)
	if stop.Location.Line != 35 || len(stop.Watches) != 1 || stop.Watches[0].Value != "0" || !stop.Watches[0].Changed {
		t.Fatalf("agent after the editor's continue = %+v / %+v", stop.Location, stop.Watches)
	}

	// The editor ends the session.
	ed.call("disconnect", map[string]any{"terminateDebuggee": true})
	ed.mu.Lock()
	defer ed.mu.Unlock()
	if len(ed.stray) > 0 {
		t.Fatalf("misrouted traffic reached the editor: %v", ed.stray)
	}
	for seq, cmd := range ed.sent {
		if ed.responses[seq] == nil {
			t.Errorf("editor request %d (%s) got no response", seq, cmd)
		}
	}
	if len(ed.stops) != 3 {
		t.Fatalf("editor saw stops %v; want exactly breakpoint, step, breakpoint", ed.stops)
	}
}
