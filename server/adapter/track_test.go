// track_test.go: telling a tracked debuggee that runs from one that has
// ended: a zombie, and a process in its exit (PF_EXITING), whose sockets
// close before it is a zombie (an adapter then answers "No more messages"
// while the state still reads R).

package adapter

import (
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		state      byte
		ended      bool
	}{
		// A debuggee killed by SIGKILL, read the moment debugpy answered an
		// evaluate with "No more messages" (TestKilledDebuggeeAndTerminate
		// under load): state R, flags 0x40040c (PF_EXITING), no memory left.
		{"exiting", "22439 (python3) R 22423 22439 31398 0 -1 4195340 12346 77 0 0 17 5 0 0 20 0 1 0 783816 0 0 18446744073709551615 0 0 0 0 0 0 0 16781312 2 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 9", 'R', true},
		{"running", "22954 (cat) R 22948 22948 31398 0 -1 4194304 97 0 0 0 0 0 0 0 20 0 1 0 785781 3133440 414 18446744073709551615 94864091230208 94864091250089 140722507564000 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 94864091266096 94864091267712 94864863719424 140722507565553 140722507565573 140722507565573 140722507567083 0", 'R', false},
		{"zombie", "4242 (sleep) Z 1 4242 4242 0 -1 4228108 88 0 0 0 0 0 0 0 20 0 1 0 785999 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 9", 'Z', true},
		{"odd command", "77 (a) b (c) S 1 77 77 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0", 'S', false},
	} {
		st, ok := parseStat(tc.line)
		if !ok || st.state != tc.state || st.ended() != tc.ended {
			t.Errorf("%s: %+v %v, want state %c ended %v", tc.name, st, ok, tc.state, tc.ended)
		}
	}
	if _, ok := parseStat("12 (truncated) R 1 2"); ok {
		t.Error("a truncated line parsed")
	}
	st, ok := readStat(os.Getpid())
	if !ok || st.ended() || st.start == "" {
		t.Errorf("this test's own process: %+v %v", st, ok)
	}
}

// A tracked process that runs is alive; killed, it is not, before anyone
// reaps it.
func TestDebuggeeAliveUntilKilled(t *testing.T) {
	cmd := exec.Command("sleep", "600")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	var a Adapter
	a.TrackProcess(pid)
	if !a.DebuggeeAlive() {
		t.Fatal("a sleeping debuggee reads as ended")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// Not reaped (no Wait yet): it is exiting, then a zombie.
	deadline := time.Now().Add(10 * time.Second)
	for a.DebuggeeAlive() && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if a.DebuggeeAlive() {
		t.Error("a killed debuggee still reads as alive")
	}
	if st, ok := readStat(pid); !ok || !st.ended() {
		t.Errorf("the killed, unreaped process: %+v %v", st, ok)
	}
	_ = cmd.Wait()
}
