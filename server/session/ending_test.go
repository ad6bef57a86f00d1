// ending_test.go: how a session ends, against real debugpy. A finished
// program's adapter is ended at once (20 launches in a row leave no child
// process); a killed debuggee is reported as killed, and a request racing
// the kill gets DEBUGGEE_EXITED; a user's Terminate reads "terminated".

package session

import (
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
)

// children lists the live (non-zombie) child processes of this test.
func children(t *testing.T) []int {
	t.Helper()
	me := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		i := strings.LastIndexByte(s, ')')
		f := strings.Fields(s[i+1:])
		if len(f) > 1 && f[1] == me && f[0] != "Z" {
			out = append(out, pid)
		}
	}
	return out
}

// waitNoChildren polls until no child process is left (a bound, not a
// timing claim).
func waitNoChildren(t *testing.T, limit time.Duration) []int {
	var left []int
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if left = children(t); len(left) == 0 {
			return nil
		}
	}
	return left
}

func TestFinishedSessionsLeaveNoAdapter(t *testing.T) {
	if left := waitNoChildren(t, 20*time.Second); len(left) > 0 {
		t.Fatalf("child processes before the test: %v", left)
	}
	m := newTestManager(t, ManagerOptions{})
	var ids []string
	for i := 0; i < 20; i++ {
		s, err := m.Launch(testCtx(t), LaunchSpec{Program: "testdata/core/loop.py"})
		if err != nil {
			t.Fatal(err)
		}
		st, err := s.Wait(testCtx(t), 60*time.Second)
		if err != nil || !st.Exited {
			t.Fatalf("launch %d: %+v %v", i, st, err)
		}
		select {
		case <-s.Done(): // the adapter is gone without debug_terminate
		case <-time.After(30 * time.Second):
			t.Fatalf("launch %d: the finished session still holds its adapter", i)
		}
		ids = append(ids, s.ID())
	}
	if left := waitNoChildren(t, 20*time.Second); len(left) > 0 {
		t.Fatalf("child processes left after 20 finished sessions: %v", left)
	}
	// The records stay: status, outcome and output of each run, except those
	// forgotten as later sessions started: when the last one started, 19
	// had ended and KeepEnded (16) are kept, so the first 3 are gone.
	gone := len(ids) - 1 - m.Options().KeepEnded
	for _, id := range ids[:gone] {
		if _, err := m.Get(id); err == nil {
			t.Fatalf("session %s is still listed past the %d ended kept", id, m.Options().KeepEnded)
		}
	}
	for _, id := range ids[gone:] {
		s, err := m.Get(id)
		if err != nil {
			t.Fatal(err)
		}
		in := s.Info()
		if in.Status != StatusCompleted || in.Outcome == nil || in.Outcome.ExitCode == nil || *in.Outcome.ExitCode != 0 {
			t.Fatalf("record of %s: %+v", id, in)
		}
	}
}

func TestKilledDebuggeeAndTerminate(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	s, err := m.Launch(testCtx(t), LaunchSpec{Program: "testdata/core/loop.py", Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 14}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	pids := s.ad.TrackedPIDs()
	if len(pids) == 0 {
		t.Fatal("no debuggee pid (process event)")
	}
	// An evaluate is running in the program when it is killed from outside.
	errc := make(chan error, 1)
	go func() {
		_, err := s.Evaluate(context.Background(), "__import__('time').sleep(30)", 0, "repl")
		errc <- err
	}()
	time.Sleep(500 * time.Millisecond)                    // let the evaluate start (either order is checked below)
	if err := platform.KillProcess(pids[0]); err != nil { // SIGKILL
		t.Fatal(err)
	}
	var se *errcode.Error
	select {
	case err := <-errc:
		if !errors.As(err, &se) || se.Code != errcode.DebuggeeExited || !strings.Contains(se.Message, "killed by SIGKILL") {
			t.Fatalf("the evaluate racing the kill: %v; want DEBUGGEE_EXITED naming the signal", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the evaluate did not end with the program")
	}
	st, err := s.Wait(testCtx(t), 60*time.Second)
	if err != nil || !st.Exited {
		t.Fatalf("after the kill: %+v %v", st, err)
	}
	o := s.Outcome()
	if o == nil || o.Signal != 9 || o.SignalName != "SIGKILL" || s.Status() != StatusError {
		t.Fatalf("a killed program must be reported as killed: status %s outcome %+v", s.Status(), o)
	}

	// A user's Terminate: status terminated, no signal blamed on the program.
	s2, err := m.Launch(testCtx(t), LaunchSpec{Program: "testdata/core/spin.py"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s2.Terminate(testCtx(t)); err != nil {
		t.Fatal(err)
	}
	if o := s2.Outcome(); s2.Status() != StatusTerminated || o == nil || !o.Terminated || o.Signal != 0 {
		t.Fatalf("after Terminate: status %s outcome %+v", s2.Status(), o)
	}
}

func TestDebuggeeErrMapping(t *testing.T) {
	py, _ := adapter.DriverFor(adapter.Debugpy)
	dlv, _ := adapter.DriverFor(adapter.Dlv)
	for code, want := range map[int]string{247: "SIGKILL", 241: "SIGTERM", 245: "SIGSEGV", 255: "", 254: "", 3: "", 0: ""} {
		if _, name := py.ExitSignal(code); name != want {
			t.Errorf("exit code %d: %q, want %q", code, name, want)
		}
	}
	if sig, _ := dlv.ExitSignal(247); sig != 0 {
		t.Error("only debugpy encodes signals in exit codes")
	}
	code := 3
	if got := describeEnd(&Outcome{ExitCode: &code}); got != "exited with code 3" {
		t.Error(got)
	}
}
