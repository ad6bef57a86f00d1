// breakpoints_test.go: the breakpoint record after a setBreakpoints that
// outlives its caller (issue 28.9), against real node (V8 takes seconds
// for a thousand breakpoints on one file): the new set is listed as
// pending at once, never the old one, then as the adapter confirmed it, and
// the program stops at the new lines; an absurd count is refused.

package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestBreakpointRecordFollowsALateAnswer(t *testing.T) {
	dir := t.TempDir()
	var src strings.Builder
	src.WriteString("let n = 0;\ndebugger;\n")
	for i := 0; i < 1000; i++ {
		src.WriteString("n += 1;\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "lines.js"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestManager(t, ManagerOptions{Workspace: dir})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: "lines.js"})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	// The old set: one breakpoint near the end.
	if _, err := s.SetBreakpoints(ctx, "lines.js", []Breakpoint{{File: "lines.js", Line: 1000}}); err != nil {
		t.Fatal(err)
	}
	// The new set, 400 lines from line 3, asked with a wait far shorter
	// than V8 takes.
	var bps []Breakpoint
	for i := 0; i < 400; i++ {
		bps = append(bps, Breakpoint{File: "lines.js", Line: 3 + i})
	}
	short, cancel := context.WithTimeout(ctx, time.Millisecond)
	_, err = s.SetBreakpoints(short, "lines.js", bps)
	cancel()
	if !errcode.Is(err, errcode.Timeout) {
		t.Fatalf("a set that outlives its wait: %v, want TIMEOUT", err)
	}
	list := s.Info().Breakpoints
	if len(list) != 400 || list[0].Line != 3 {
		t.Fatalf("right after the timeout the record lists %d breakpoints (first %+v): want the new 400, never the old set", len(list), list[0])
	}
	if list[0].State != BreakpointPending && list[0].State != "" {
		t.Fatalf("state %q", list[0].State)
	}
	// The adapter's answer is recorded when it comes.
	deadline := time.Now().Add(60 * time.Second)
	for s.Info().Breakpoints[0].State == BreakpointPending && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	list = s.Info().Breakpoints
	if len(list) != 400 || list[0].State != "" || !list[0].Verified || !list[399].Verified || list[399].Line != 402 {
		t.Fatalf("after the answer: %d breakpoints, first %+v last %+v", len(list), list[0], list[len(list)-1])
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s); st.Location.Line != 3 || s.Info().LastBreakpoint == nil || s.Info().LastBreakpoint.Line != 3 {
		t.Fatalf("stop %+v, last breakpoint %+v", st.Location, s.Info().LastBreakpoint)
	}
	// An absurd count is refused with the limit, the record unchanged.
	var many []Breakpoint
	for i := 0; i <= MaxBreakpoints; i++ {
		many = append(many, Breakpoint{File: "lines.js", Line: 3})
	}
	if _, err := s.SetBreakpoints(ctx, "lines.js", many); !errcode.Is(err, errcode.LimitExceeded) || !strings.Contains(err.Error(), "at most 1000") {
		t.Fatalf("%d breakpoints: %v", len(many), err)
	}
	if n := len(s.Info().Breakpoints); n != 400 {
		t.Fatalf("after a refused set: %d breakpoints", n)
	}
}
