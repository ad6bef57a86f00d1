//go:build linux

// Tests of a headless debugpy session's tree of processes (children.go):
// without following, the workers run (they used to wait inside debugpy for
// a client forever); with it, each worker is a child session with its
// parent's id and breakpoints, and ending the root ends every process.

package session

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testpython"
)

const treeProgram = "testdata/python/mp_tree.py"

// TestSubprocessesOffRuns: a multiprocessing program launched with
// subprocesses false runs to the end, whatever the start method.
func TestSubprocessesOffRuns(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	off := false
	for _, kind := range []string{"pool-fork", "pool-spawn", "pool-forkserver", "executor", "popen"} {
		t.Run(kind, func(t *testing.T) {
			s, err := m.Launch(testCtx(t), LaunchSpec{Program: treeProgram, Args: []string{kind}, Subprocesses: &off})
			if err != nil {
				t.Fatal(err)
			}
			st, err := s.Wait(testCtx(t), 90*time.Second)
			if err != nil || !st.Exited {
				t.Fatalf("the program did not end: %+v %v\n%s", st, err, s.Output(0, 1<<16).Data)
			}
			if out := s.Output(0, 1<<16).Data; !strings.Contains(out, "parent done") {
				t.Fatalf("output %q", out)
			}
			if kids := s.Children(); len(kids) != 0 {
				t.Fatalf("%d child sessions with subprocesses off", len(kids))
			}
		})
	}
}

// TestSubprocessTree: each worker stops at the parent's breakpoint in a
// child session of its own, with the parent's id, its pid and the launch's
// env; continuing them lets the program end.
func TestSubprocessTree(t *testing.T) {
	file := filepath.Join(repoRoot(t), treeProgram)
	line := lineOf(t, file, "WORKER BREAKPOINT")
	// The last two run the program in a spare debuggee (spare.go).
	for _, kind := range []string{"pool-fork", "pool-spawn", "pool-forkserver", "executor", "popen", "spare/pool-spawn", "spare/popen"} {
		t.Run(kind, func(t *testing.T) {
			m := newTestManager(t, ManagerOptions{})
			if k, ok := strings.CutPrefix(kind, "spare/"); ok {
				kind, m = k, spareManager(t)
			}
			s, err := m.Launch(testCtx(t), LaunchSpec{Program: treeProgram, Args: []string{kind},
				Env: map[string]string{"TREE_TAG": "from-launch"}, Breakpoints: []Breakpoint{{File: treeProgram, Line: line}}})
			if err != nil {
				t.Fatal(err)
			}
			if (s.spare != nil) != (m.warm != nil) {
				t.Fatalf("ran in a spare: %v", s.spare != nil)
			}
			kids := waitPaused(t, s, 2)
			for _, c := range kids {
				st := waitStop(t, c)
				// forkserver's workers are children of the forkserver's session.
				if c.ParentID() == "" || c.Root() != s {
					t.Errorf("child parent = %q, root %q, want under %q", c.ParentID(), c.Root().ID(), s.ID())
				}
				if st.Location.Line != line {
					t.Errorf("child stopped at %d, want %d", st.Location.Line, line)
				}
				if c.PID() == 0 || c.PID() == s.PID() {
					t.Errorf("child pid %d, parent's %d", c.PID(), s.PID())
				}
				ev, err := c.Evaluate(testCtx(t), "data['tag']", st.Location.FrameID, "watch")
				if err != nil || ev.Result != "'from-launch'" {
					t.Errorf("env in the child: %+v %v", ev, err)
				}
			}
			for _, c := range s.Tree()[1:] {
				for c.Status() == StatusPaused {
					if err := c.Continue(testCtx(t)); err != nil {
						break
					}
					if _, err := c.Wait(testCtx(t), 30*time.Second); err != nil {
						t.Fatal(err)
					}
				}
			}
			st, err := s.Wait(testCtx(t), 90*time.Second)
			if err != nil || !st.Exited {
				t.Fatalf("the program did not end: %+v %v\n%s", st, err, s.Output(0, 1<<16).Data)
			}
		})
	}
}

// TestTerminateTree: ending the root ends every process of the run.
func TestTerminateTree(t *testing.T) {
	file := filepath.Join(repoRoot(t), treeProgram)
	line := lineOf(t, file, "WORKER BREAKPOINT")
	m := newTestManager(t, ManagerOptions{})
	s, err := m.Launch(testCtx(t), LaunchSpec{Program: treeProgram, Args: []string{"pool-spawn"},
		Breakpoints: []Breakpoint{{File: treeProgram, Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	var pids []int
	for _, c := range waitPaused(t, s, 2) {
		pids = append(pids, c.PID())
	}
	pids = append(pids, s.PID())
	if err := s.Terminate(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Tree() {
		if !c.gone() {
			t.Errorf("session %s not ended", c.ID())
		}
	}
	for _, pid := range pids {
		if pid == 0 {
			t.Fatalf("a pid is unknown: %v", pids)
		}
		for deadline := time.Now().Add(10 * time.Second); alive(pid); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("process %d of the run is left behind", pid)
				break
			}
		}
	}
}

// waitPaused waits for n paused sessions below s (a pool's helpers, the
// resource tracker or the forkserver, are children too, never paused).
func waitPaused(t *testing.T, s *Session, n int) []*Session {
	t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for {
		var paused []*Session
		for _, c := range s.Tree()[1:] {
			if c.Status() == StatusPaused {
				paused = append(paused, c)
			}
		}
		if len(paused) >= n {
			return paused
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d paused child sessions of %d, want %d\n%s", len(paused), len(s.Tree())-1, n, s.Output(0, 1<<16).Data)
		}
		select {
		case <-s.Done():
			t.Fatalf("the session ended with %d children", len(s.Children()))
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestDataLoaderWorkers: torch's DataLoader(num_workers=2) workers stop at
// the parent's breakpoint in child sessions (Debian's leg has torch).
func TestDataLoaderWorkers(t *testing.T) {
	testpython.Require(t, "torch")
	prog := "testdata/python/torch_loader.py"
	line := lineOf(t, filepath.Join(repoRoot(t), prog), "ITEM BREAKPOINT")
	m := newTestManager(t, ManagerOptions{})
	s, err := m.Launch(testCtx(t), LaunchSpec{Program: prog, Breakpoints: []Breakpoint{{File: prog, Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range waitPaused(t, s, 2) {
		if st := waitStop(t, c); st.Location.Line != line || c.Root() != s {
			t.Errorf("worker %s stopped at %+v", c.ID(), st.Location)
		}
	}
	if err := s.Terminate(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	for _, c := range s.Tree() {
		if !c.gone() {
			t.Errorf("session %s not ended", c.ID())
		}
	}
}
