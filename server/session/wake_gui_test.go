// Tests that the debugpy wake patch keeps pydevd's GUI input hook running
// as before: a stopped main thread with gui_in_use calls the input hook on
// every 10 ms iteration of its wait loop, patched or not, never faster (a
// wake that made the loop spin would call it thousands of times a second).

package session

import (
	"fmt"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
)

// hookInstall sets a counting input hook (pydev_ipython's, which
// _call_input_hook runs) and turns gui_in_use on, as matplotlib/Qt
// integrations do; hookCount reads the count.
const (
	hookInstall = `(lambda c, ih, db: (ih.set_inputhook(lambda: c.__setitem__(0, c[0] + 1) or 0), setattr(db, 'gui_in_use', True), c[0])[2])` +
		`(__import__('builtins').__dict__.setdefault('_dapscope_hook_calls', [0]), __import__('pydev_ipython.inputhook', fromlist=['set_inputhook']), __import__('pydevd').get_global_debugger())`
	hookCount = `__import__('builtins')._dapscope_hook_calls[0]`
)

func TestWakeKeepsGUIInputHook(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "core", "loop.py")
	rel := "testdata/core/loop.py"
	for _, patched := range []bool{true, false} {
		t.Run(fmt.Sprintf("patched=%v", patched), func(t *testing.T) {
			m := newTestManager(t, ManagerOptions{DisableNoDelay: !patched})
			ctx := testCtx(t)
			s, err := m.Launch(ctx, LaunchSpec{Program: rel, Breakpoints: []Breakpoint{{File: rel, Line: lineOf(t, program, "line 14")}}})
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = s.Terminate(ctx) }()
			frame := waitStop(t, s).Location.FrameID
			count := func() int {
				t.Helper()
				r, err := s.Evaluate(ctx, hookCount, frame, "watch")
				if err != nil {
					t.Fatalf("hook count: %v", err)
				}
				n, err := strconv.Atoi(r.Result)
				if err != nil {
					t.Fatalf("hook count = %q", r.Result)
				}
				return n
			}
			want := map[bool]string{true: wakeInstalled(), false: "None"}[patched]
			if r, err := s.Evaluate(ctx, adapter.WakeMarkerExpr, frame, "watch"); err != nil || r.Result != want {
				t.Fatalf("wake marker = %q, %v; want %s", r.Result, err, want)
			}
			if _, err := s.Evaluate(ctx, hookInstall, frame, "repl"); err != nil {
				t.Fatal(err)
			}
			// The hook runs while the thread stays stopped (no request needed).
			deadline := time.Now().Add(30 * time.Second)
			for count() < 50 {
				if time.Now().After(deadline) {
					t.Fatalf("the input hook ran %d times in 30 s while stopped", count())
				}
				time.Sleep(100 * time.Millisecond)
			}
			// Cadence: ~100 calls/s (one per 10 ms iteration). Load only slows
			// it down, so the upper bound cannot flake; a spinning loop breaks it.
			t0, c0 := time.Now(), count()
			time.Sleep(time.Second)
			c1, el := count(), time.Since(t0).Seconds()
			rate := float64(c1-c0) / el
			t.Logf("input hook: %.0f calls/s while stopped (patched=%v)", rate, patched)
			if rate > 250 {
				t.Fatalf("input hook ran %.0f times a second: the wait loop no longer sleeps 10 ms", rate)
			}
			if rate == 0 {
				t.Fatal("input hook stopped running")
			}
			// Requests and steps still work with the hook on.
			if r, err := s.Evaluate(ctx, "total + 41", frame, "watch"); err != nil || r.Result != "41" {
				t.Fatalf("evaluate with the hook on = %q, %v", r.Result, err)
			}
			before := count()
			if err := s.Step(ctx, "over"); err != nil {
				t.Fatal(err)
			}
			frame = waitStop(t, s).Location.FrameID
			deadline = time.Now().Add(30 * time.Second)
			for count() < before+10 {
				if time.Now().After(deadline) {
					t.Fatal("the input hook did not run after a step")
				}
				time.Sleep(100 * time.Millisecond)
			}
		})
	}
}
