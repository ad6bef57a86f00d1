// procinfo_linux_test.go: /proc/PID/stat read right: a process in its exit
// (PF_EXITING; its sockets close before it is a zombie, so an adapter can
// answer "No more messages" while the state still reads R) and a zombie
// are not running; a command with spaces and parentheses is read whole.

package platform

import (
	"os"
	"testing"
)

func TestParseStat(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		running    bool
	}{
		// A debuggee killed by SIGKILL, read the moment debugpy answered an
		// evaluate with "No more messages" (TestKilledDebuggeeAndTerminate
		// under load): state R, flags 0x40040c (PF_EXITING), no memory left.
		{"exiting", "22439 (python3) R 22423 22439 31398 0 -1 4195340 12346 77 0 0 17 5 0 0 20 0 1 0 783816 0 0 18446744073709551615 0 0 0 0 0 0 0 16781312 2 0 0 0 17 1 0 0 0 0 0 0 0 0 0 0 0 0 9", false},
		{"running", "22954 (cat) R 22948 22948 31398 0 -1 4194304 97 0 0 0 0 0 0 0 20 0 1 0 785781 3133440 414 18446744073709551615 94864091230208 94864091250089 140722507564000 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0 94864091266096 94864091267712 94864863719424 140722507565553 140722507565573 140722507565573 140722507567083 0", true},
		{"zombie", "4242 (sleep) Z 1 4242 4242 0 -1 4228108 88 0 0 0 0 0 0 0 20 0 1 0 785999 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 9", false},
		{"odd command", "77 (a) b (c) S 1 77 77 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 123 0 0 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0 0 0 0 0 0 0 0 0", true},
		{"truncated", "12 (truncated) R 1 2", false},
	} {
		if _, running := parseStat(tc.line); running != tc.running {
			t.Errorf("%s: running %v, want %v", tc.name, running, tc.running)
		}
	}
	if start, running := processStart(os.Getpid()); !running || start == "" {
		t.Errorf("this test's own process: %q %v", start, running)
	}
}
