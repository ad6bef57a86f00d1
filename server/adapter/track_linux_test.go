//go:build linux

// track_linux_test.go: a tracked debuggee that runs is alive; killed, it is
// not, before anyone reaps it (platform's /proc reading: a zombie, and a
// process in its exit, whose sockets close before it is a zombie).

package adapter

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
)

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
	_ = cmd.Wait()
}
