//go:build unix

// process_unix_test.go: staged shutdown escalates to SIGKILL, a flood of
// stderr never blocks the child, tracked processes die with the adapter
// (shell children; the process tree itself is tested on every system in
// platform).

package adapter

import (
	"log/slog"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapscope/dapscope/platform"
)

func alive(pid int) bool {
	_, ok := platform.ProcessStart(pid)
	return ok
}

// A child that ignores stdin EOF and SIGTERM and floods stderr: Close
// still ends it (and its group), and the stderr flood never blocks it.
func TestCloseEscalatesAndDrains(t *testing.T) {
	StdinGrace, TermGrace = 200*time.Millisecond, 200*time.Millisecond
	defer func() { StdinGrace, TermGrace = 2*time.Second, 2*time.Second }()
	cmd := exec.Command("sh", "-c", `trap '' TERM; head -c 4000000 /dev/zero | tr '\0' x >&2; echo flooded >&2; sleep 600 & wait`)
	a, err := startProcess(cmd, nil2log(), false)
	if err != nil {
		t.Fatal(err)
	}
	pid := a.PID()
	// The child must get past the 4 MB stderr write (the drain keeps reading).
	time.Sleep(500 * time.Millisecond)
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if alive(pid) {
		t.Fatal("child still alive after Close")
	}
	// Killed group members are reparented to init and may take a moment to
	// be reaped: wait for them to be gone (zombies don't count).
	out, _ := exec.Command("pgrep", "-g", itoa(pid)).Output()
	for _, f := range strings.Fields(string(out)) {
		p, _ := strconv.Atoi(f)
		deadline := time.Now().Add(10 * time.Second)
		for alive(p) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(p) {
			t.Fatalf("process %d left in the adapter's group", p)
		}
	}
}

func TestTrackedProcessEndsWithAdapter(t *testing.T) {
	a, err := startProcess(exec.Command("sleep", "600"), nil2log(), false)
	if err != nil {
		t.Fatal(err)
	}
	// A "debuggee" in a process group of its own, as debugpy's launcher does.
	other := exec.Command("sleep", "600")
	other.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := other.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan struct{})
	go func() { _ = other.Wait(); close(waited) }()
	a.TrackProcess(other.Process.Pid)
	a.Kill() // the adapter crashes
	_ = a.Close()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		_ = other.Process.Kill()
		t.Fatal("tracked process survived the adapter")
	}
}

func nil2log() *slog.Logger { return slog.New(slog.DiscardHandler) }

func itoa(i int) string { return strconv.Itoa(i) }
