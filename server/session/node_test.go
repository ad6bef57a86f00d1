// node_test.go: a headless Node session through the Manager — the adapter
// chosen from the .js extension, a conditional breakpoint, the stop
// located, evaluate, stepping, the output and the outcome with the exit
// code; and an uncaught exception reported in the outcome.

package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNodeSession(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	prog := "testdata/node/basic.js"
	sq := markerLine(t, prog, "square")
	// → initialize, launch, setBreakpoints(@square if x === 2), setExceptionBreakpoints, configurationDone
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "node", Program: prog,
		Breakpoints: []Breakpoint{{File: prog, Line: sq, Condition: "x === 2"}}})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	st := waitStop(t, s)
	if st.Location.Reason != "breakpoint" || st.Location.File != prog || st.Location.Line != sq || st.Location.Function != "square" {
		t.Fatalf("stop = %+v", st.Location)
	}
	if ev, err := s.Evaluate(ctx, "x * 10", 0, ""); err != nil || ev.Result != "20" {
		t.Fatalf("evaluate = %+v, %v", ev, err)
	}
	info := s.Info()
	if info.Adapter != "node" || len(info.Breakpoints) != 1 || !info.Breakpoints[0].Verified || info.Breakpoints[0].HitCount != 1 {
		t.Fatalf("info = %+v", info)
	}
	// → stepOut ← stopped back in main
	if err := s.Step(ctx, "out"); err != nil {
		t.Fatal(err)
	}
	if st = waitStop(t, s); st.Location.Function != "main" {
		t.Fatalf("after step out: %+v", st.Location)
	}
	// → continue: the debugger statement, then the end
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if st = waitStop(t, s); st.Location.Line != markerLine(t, prog, "debugger") {
		t.Fatalf("debugger statement: %+v", st.Location)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("wait for end = %+v, %v", end, err)
	}
	if out := s.Output(0, 1<<20).Data; !strings.Contains(out, "start 2\n") || !strings.Contains(out, "total on stderr 14\n") || !strings.Contains(out, "done\n") {
		t.Errorf("output = %q", out)
	}
	if o := s.Outcome(); o == nil || o.Ended != EndedExited || o.ExitCode == nil || *o.ExitCode != 3 || o.Signal != 0 {
		t.Fatalf("outcome = %+v", o)
	}
}

func TestNodeSessionUncaught(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	// The adapter comes from the extension; the driver's "uncaught" filter
	// stops at the uncaught throw only.
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/node/throws.js", Adapter: "js"})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	st := waitStop(t, s)
	if st.Location.Reason != "exception" || st.Location.Line != markerLine(t, "testdata/node/throws.js", "throw") {
		t.Fatalf("stop = %+v", st.Location)
	}
	o := s.Outcome()
	if o == nil || o.ErrorType != "TypeError" || o.ErrorMessage != "too big: 7" || !strings.Contains(o.Traceback, "at risky") {
		t.Fatalf("outcome = %+v", o)
	}
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
}

// markerLine is the line of the "// @marker" comment of a workspace file.
func markerLine(t testing.TB, rel, marker string) int {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// @"+marker) {
			return i + 1
		}
	}
	t.Fatalf("no marker @%s in %s", marker, rel)
	return 0
}

// TestNodeWorkerThreadRuns: a program with a worker thread: a breakpoint
// in the worker's code stops the worker's thread (evaluate runs in its
// frame), then one in the main thread where the worker's answer arrives;
// the program runs to its end.
func TestNodeWorkerThreadRuns(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	prog := "testdata/node/workers.js"
	work, line := markerLine(t, prog, "work"), markerLine(t, prog, "answer")
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "node", Program: prog, Breakpoints: []Breakpoint{{File: prog, Line: work}, {File: prog, Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	st, err := s.Wait(ctx, 30*time.Second)
	if err != nil || st.Location == nil || st.Location.Line != work || st.Location.ThreadID == 1 || st.Location.Function != "work" {
		t.Fatalf("stop in the worker = %+v, %v", st.Location, err)
	}
	if ev, err := s.Evaluate(ctx, "n + ':' + where", 0, ""); err != nil || ev.Result != "'20:worker'" {
		t.Fatalf("evaluate in the worker = %+v, %v", ev, err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st, err = s.Wait(ctx, 30*time.Second)
	if err != nil || st.Location == nil || st.Location.Line != line || st.Location.ThreadID != 1 {
		t.Fatalf("stop where the worker's answer arrives = %+v, %v", st, err)
	}
	if ev, err := s.Evaluate(ctx, "answer", 0, ""); err != nil || ev.Result != "41" {
		t.Fatalf("answer = %+v, %v", ev, err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 30*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("the program did not end: %+v, %v", end, err)
	}
	if out := s.Output(0, 1<<20).Data; !strings.Contains(out, "worker answered 41\n") || !strings.Contains(out, "worker exited 0\n") {
		t.Errorf("output = %q", out)
	}
}

// TestNodeSetBreakpointsWhilePaused: breakpoints replaced on a paused Node
// session (the session API's SetBreakpoints, as MCP's debug_set_breakpoints
// calls it) take effect at the next stop; on Windows too, where the file's
// path has a drive (run under Wine).
func TestNodeSetBreakpointsWhilePaused(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	prog := "testdata/node/basic.js"
	s, err := m.Launch(ctx, LaunchSpec{Program: prog, Breakpoints: []Breakpoint{{File: prog, Line: markerLine(t, prog, "square")}}})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	if st := waitStop(t, s); st.Location.Function != "square" {
		t.Fatalf("first stop = %+v", st.Location)
	}
	// → setBreakpoints(@loop if i === 3): replaces @square
	states, err := s.SetBreakpoints(ctx, prog, []Breakpoint{{Line: markerLine(t, prog, "loop"), Condition: "i === 3"}})
	if err != nil || len(states) != 1 || !states[0].Verified {
		t.Fatalf("SetBreakpoints = %+v, %v", states, err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Line != markerLine(t, prog, "loop") || st.Location.File != prog {
		t.Fatalf("after SetBreakpoints: stop = %+v, want %s:%d", st.Location, prog, markerLine(t, prog, "loop"))
	}
	if ev, err := s.Evaluate(ctx, "i", 0, ""); err != nil || ev.Result != "3" {
		t.Fatalf("evaluate i = %+v, %v (the square breakpoint must be gone, the condition honoured)", ev, err)
	}
}
