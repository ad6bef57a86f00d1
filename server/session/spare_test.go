//go:build linux

// spare_test.go: headless launches run in a spare debuggee (spare.go),
// against real debugpy: the program sees what a fresh launch gives it,
// its output, stop and exit code reach the session, terminate ends it,
// and launches a spare cannot run the same way are run as usual.

package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const spareProbe, spareProbeLine = "testdata/core/spare_probe.py", 16

// spareManager is a manager with a spare adapter and debuggee ready.
func spareManager(t *testing.T) *Manager {
	m := newTestManager(t, ManagerOptions{WarmAdapters: true})
	for deadline := time.Now().Add(time.Minute); m.warm.Ready() < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("spares ready: %d of 2", m.warm.Ready())
		}
	}
	return m
}

func TestSpareRunsTheLaunchAsAFreshOne(t *testing.T) {
	m := spareManager(t)
	ctx := testCtx(t)
	root := repoRoot(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: spareProbe, Args: []string{"a b", "--c"}, Cwd: "testdata",
		Env:         map[string]string{"SPARE_TEST_VALUE": "v1", "SPARE_TEST_EXIT": "3"},
		Breakpoints: []Breakpoint{{File: spareProbe, Line: spareProbeLine}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.spare == nil {
		t.Fatal("the launch did not run in the spare debuggee")
	}
	st := waitStop(t, s)
	if st.Location.Line != spareProbeLine {
		t.Fatalf("stopped at %+v", st.Location)
	}
	res, err := s.Evaluate(ctx, "__import__('json').dumps(seen)", st.Location.FrameID, "")
	if err != nil {
		t.Fatal(err)
	}
	var raw string
	if err := json.Unmarshal([]byte(res.Result), &raw); err != nil {
		raw = res.Result
	}
	var seen struct {
		Argv                               []string
		Name, File, Path0, Cwd, Env, Stdin string
	}
	if err := json.Unmarshal([]byte(strings.Trim(raw, "'")), &seen); err != nil {
		t.Fatalf("seen %q: %v", res.Result, err)
	}
	prog := filepath.Join(root, spareProbe)
	want := []string{prog, "a b", "--c"}
	if strings.Join(seen.Argv, "|") != strings.Join(want, "|") || seen.Name != "__main__" || seen.File != prog ||
		seen.Path0 != filepath.Dir(prog) || seen.Cwd != filepath.Join(root, "testdata") || seen.Env != "v1" || seen.Stdin != "" {
		t.Fatalf("the program saw %+v", seen)
	}
	// sys.exit(3) stops as an uncaught SystemExit, as in a plain launch.
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s); st.Location.Reason != "exception" || st.Location.Line != spareProbeLine+1 {
		t.Fatalf("second stop %+v, want the SystemExit", st.Location)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if end, err := s.Wait(ctx, 60*time.Second); err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	if o := s.Outcome(); o == nil || o.ExitCode == nil || *o.ExitCode != 3 {
		t.Fatalf("outcome %+v, want exit code 3", o)
	}
	if out := s.Output(0, 1<<20).Data; !strings.Contains(out, "spare probe running") {
		t.Fatalf("output %q", out)
	}
	pid := s.PID()
	if pid <= 0 || alive(pid) {
		t.Fatalf("the spare (pid %d) is still running after the program ended", pid)
	}
}

func TestSpareTerminateEndsTheProgram(t *testing.T) {
	m := spareManager(t)
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: spareProbe, Breakpoints: []Breakpoint{{File: spareProbe, Line: spareProbeLine}}})
	if err != nil {
		t.Fatal(err)
	}
	if s.spare == nil {
		t.Fatal("the launch did not run in the spare debuggee")
	}
	waitStop(t, s)
	pid := s.PID()
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d outlived terminate", pid)
		}
	}
}

// TestSpareNotForWhatItCannotRun: an interpreter-level variable, stop on
// entry: these launches run the usual way, and still work.
func TestSpareNotForWhatItCannotRun(t *testing.T) {
	m := spareManager(t)
	ctx := testCtx(t)
	for name, spec := range map[string]LaunchSpec{
		"PYTHONPATH":    {Env: map[string]string{"PYTHONPATH": os.TempDir()}},
		"stop on entry": {StopOnEntry: true},
	} {
		spec.Program = spareProbe
		spec.Breakpoints = []Breakpoint{{File: spareProbe, Line: spareProbeLine}}
		s, err := m.Launch(ctx, spec)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if s.spare != nil {
			t.Errorf("%s: ran in the spare", name)
		}
		waitStop(t, s)
		_ = s.Terminate(ctx)
	}
}

// TestSpareErrorsAsPlain: a program that does not compile ends with exit
// code 1 and its traceback, and an uncaught error stops in the program,
// in a spare as in a plain launch (the spare's own frame is never shown).
func TestSpareErrorsAsPlain(t *testing.T) {
	dir := t.TempDir()
	for name, src := range map[string]string{"bad.py": "print('hi'\n", "raises.py": "raise ValueError('boom')\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, spare := range []bool{false, true} {
		m := newTestManager(t, ManagerOptions{Workspace: dir, WarmAdapters: spare, NoSpareDebuggee: !spare})
		for _, name := range []string{"bad.py", "raises.py"} {
			for deadline := time.Now().Add(time.Minute); spare && m.warm.Ready() < 2; time.Sleep(20 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("no spare")
				}
			}
			ctx := testCtx(t)
			s, err := m.Launch(ctx, LaunchSpec{Program: name})
			if err != nil {
				t.Fatalf("spare=%v %s: %v", spare, name, err)
			}
			if (s.spare != nil) != spare {
				t.Fatalf("spare=%v %s: ran in a spare: %v", spare, name, s.spare != nil)
			}
			st, err := s.Wait(ctx, 60*time.Second)
			switch {
			case err != nil:
				t.Fatalf("spare=%v %s: %v", spare, name, err)
			case name == "bad.py":
				o := s.Outcome()
				if !st.Exited || o == nil || o.ExitCode == nil || *o.ExitCode != 1 || !strings.Contains(s.Output(0, 1<<20).Data, "SyntaxError") {
					t.Errorf("spare=%v %s: %+v, outcome %+v", spare, name, st, o)
				}
			default:
				if st.Location == nil || st.Location.Reason != "exception" || st.Location.Path != filepath.Join(dir, name) {
					t.Errorf("spare=%v %s: stop %+v", spare, name, st.Location)
				}
			}
			_ = s.Terminate(ctx)
		}
	}
}
