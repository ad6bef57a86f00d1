// session_test.go: the headless API against real debugpy — breakpoints with
// conditions and hit counts, stepping, evaluate, set variable, wait
// timeout, output, outcomes.

package session

import (
	"os"
	"strings"
	"testing"
	"time"
)

func TestLaunchBreakpointStepContinue(t *testing.T) {
	m := newTestManager(t, ManagerOptions{DisableNoDelay: os.Getenv("NODELAY_OFF") != ""})
	ctx := testCtx(t)
	// → initialize, launch, setBreakpoints(loop.py:14 if i == 2), configurationDone
	s, err := m.Launch(ctx, LaunchSpec{
		Program:     "testdata/core/loop.py",
		Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 14, Condition: "i == 2"}},
	})
	if err != nil {
		t.Fatalf("Launch: %v", err)
	}
	// ← stopped (breakpoint) at loop.py:14 with i == 2
	st := waitStop(t, s)
	if st.Location.Line != 14 || st.Location.File != "testdata/core/loop.py" || st.Location.Reason != "breakpoint" {
		t.Fatalf("stop location = %+v", st.Location)
	}
	ev, err := s.Evaluate(ctx, "i", 0, "")
	if err != nil || ev.Result != "2" {
		t.Fatalf("evaluate i = %q, %v; want 2", ev.Result, err)
	}
	info := s.Info()
	if info.Status != StatusPaused || len(info.Breakpoints) != 1 || info.Breakpoints[0].HitCount != 1 || !info.Breakpoints[0].Verified {
		t.Fatalf("info after first hit: %+v", info)
	}
	if info.LastBreakpoint == nil || info.LastBreakpoint.Line != 14 {
		t.Fatalf("last breakpoint = %+v", info.LastBreakpoint)
	}
	// setVariable total = 100, visible in the frame afterwards
	old, updated, err := s.SetVariable(ctx, 0, "total", "100")
	if err != nil || old != "1" || updated != "100" {
		t.Fatalf("SetVariable = %q→%q, %v; want 1→100", old, updated, err)
	}
	// → stepIn ← stopped (step) in square()
	if err := s.Step(ctx, "in"); err != nil {
		t.Fatalf("step in: %v", err)
	}
	st = waitStop(t, s)
	if st.Location.Function != "square" || st.Location.Line != 7 {
		t.Fatalf("after step in: %+v", st.Location)
	}
	// → stepOut, → next: back in main
	if err := s.Step(ctx, "out"); err != nil {
		t.Fatalf("step out: %v", err)
	}
	st = waitStop(t, s)
	if st.Location.Function != "main" {
		t.Fatalf("after step out: %+v", st.Location)
	}
	// Remove the breakpoint; continue to the end.
	if _, err := s.SetBreakpoints(ctx, "testdata/core/loop.py", nil); err != nil {
		t.Fatalf("clear breakpoints: %v\noutput: %s", err, s.Output(0, 1<<20).Data)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatalf("continue: %v", err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("wait for end = %+v, %v", end, err)
	}
	out := s.Output(0, 1<<20)
	// stdout and stderr reach debugpy through separate pipes, so their
	// chunks may interleave: take the stderr line out before reading stdout.
	stdout := strings.Replace(out.Data, "done on stderr\n", "", 1)
	// total was set to 100 at i == 2, so the rest of the loop adds 4 + 9 + 16.
	if !strings.Contains(stdout, "step 2 104") || !strings.Contains(stdout, "step 4 129") || !strings.Contains(out.Data, "done on stderr") {
		t.Fatalf("output = %q", out.Data)
	}
	o := s.Outcome()
	if o == nil || o.Ended != EndedExited || o.ExitCode == nil || *o.ExitCode != 0 || !o.Reached {
		t.Fatalf("outcome = %+v", o)
	}
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	if got := s.Status(); got != StatusCompleted {
		t.Fatalf("status = %s", got)
	}
}
