// editor_test.go: an agent on the live session a scripted editor drives
// through the proxy (Manager.ListenEditor + the daptest DAP client over the
// socket). The editor gets exactly one response per request and none of
// the agent's; the agent's evaluations cause no stops; when the agent steps
// the editor sees the stop as usual, and when the editor continues the
// agent's watches are re-evaluated at the new stop.

package mcp

import (
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

// dialEditor connects a scripted editor to the proxy's address.
func dialEditor(t *testing.T, addr string) *daptest.Client {
	conn, err := session.DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	return daptest.New(t, conn)
}

func isStopped(m daptest.Msg) bool { return m.IsEvent("stopped") }

func TestAgentBesideEditor(t *testing.T) {
	t.Parallel()
	mgr, srv := newServer(t, Options{})
	ctx := testCtx(t)
	addr, err := mgr.ListenEditor(ctx, session.ProxySpec{})
	if err != nil {
		t.Fatal(err)
	}
	ed := dialEditor(t, addr)
	defer ed.Close()

	// The editor starts the session as VS Code would.
	// → initialize ← response; → launch ← initialized
	// → setBreakpoints(33, 35) ← response
	// → configurationDone ← response, ← launch response, ← stopped
	prog := filepath.Join(repoRoot(t), agentPy)
	ed.Initialize(daptest.InitArgs("vscode", "python"))
	config := daptest.PythonLaunch(prog)
	config["justMyCode"] = true
	config["cwd"] = repoRoot(t)
	launchSeq := ed.StartLaunch(config)
	ed.Event("initialized")
	ed.SetBreakpoints(prog, 33, 35)
	ed.ConfigurationDone()
	ed.OK(launchSeq)
	ed.Stopped()

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
	// → stackTrace ← response; 10 × (→ evaluate ← response, → threads ← response)
	frameID := ed.StackTrace(stop.Location.ThreadID, 1)[0].Id
	for i := 0; i < 10; i++ {
		if got := ed.Evaluate(fmt.Sprintf("%d + n", 2000+i), frameID, "repl").Result; got != fmt.Sprint(2050+i) {
			t.Errorf("editor evaluate %d = %v", i, got)
		}
		ed.Threads()
	}
	wg.Wait()
	if n := ed.Count(isStopped); n != 1 {
		t.Fatalf("the agent's work caused stops in the editor: %d", n)
	}

	// The agent steps: the editor sees the stop as usual.
	a.call("debug_step", nil, &stop)
	if stop.Location.Line != 34 {
		t.Fatalf("agent step = %+v", stop.Location)
	}
	// ← stopped(step)
	if st := ed.Stopped(); st.Body.Reason != "step" {
		t.Fatalf("the editor's second stop = %+v, want step", st.Body)
	}

	// The editor continues: the agent sees the next stop, with its watch re-evaluated.
	// → continue ← response, ← stopped(breakpoint)
	ed.Continue(stop.Location.ThreadID)
	ed.Stopped()
	a.call("debug_wait", nil, &stop)
	if stop.Location.Line != 35 || len(stop.Watches) != 1 || stop.Watches[0].Value != "0" || !stop.Watches[0].Changed {
		t.Fatalf("agent after the editor's continue = %+v / %+v", stop.Location, stop.Watches)
	}

	// The editor ends the session.
	// → disconnect ← response
	ed.Disconnect(true)
	if f := ed.Foreign(); len(f) > 0 {
		t.Fatalf("misrouted traffic reached the editor: %v", f)
	}
	if n := ed.Count(func(m daptest.Msg) bool { return m.Env.Type == "request" }); n > 0 {
		t.Fatalf("the editor got %d reverse requests (e.g. runInTerminal); none expected", n)
	}
	if u := ed.Unanswered(); len(u) > 0 {
		t.Errorf("editor requests got no response: %v", u)
	}
	var reasons []string
	for _, m := range ed.Transcript() {
		if st, ok := m.Decoded.(*godap.StoppedEvent); ok {
			reasons = append(reasons, st.Body.Reason)
		}
	}
	if len(reasons) != 3 || reasons[1] != "step" {
		t.Fatalf("editor saw stops %v; want exactly breakpoint, step, breakpoint", reasons)
	}
}
