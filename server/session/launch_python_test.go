// launch_python_test.go: what a headless debugpy launch prints of its own.

package session

import (
	"strings"
	"testing"
	"time"
)

// TestLaunchWithoutFrozenModulesWarning: debugpy (1.8 on every launch)
// warns that frozen standard-library modules may make it miss breakpoints
// unless Python runs with -Xfrozen_modules=off, which the launch passes:
// the program's output has its own lines and no such warning.
func TestLaunchWithoutFrozenModulesWarning(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/loop.py"})
	if err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, time.Minute)
	if err != nil || !end.Exited {
		t.Fatalf("the program did not end: %+v %v", end, err)
	}
	out := s.Output(0, 1<<20).Data
	if !strings.Contains(out, "done on stderr") {
		t.Fatalf("the program's own output is missing:\n%s", out)
	}
	if strings.Contains(out, "frozen") {
		t.Fatalf("debugpy warned about frozen modules:\n%s", out)
	}
}
