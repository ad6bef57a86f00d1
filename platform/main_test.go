// main_test.go: the test binary doubles as the helper processes the tests
// start (a sleeper, a tree root with a child of its own, a tree's owner, a
// parent watcher), chosen by DAPSCOPE_PLATFORM_HELPER; and the goroutine
// leak check.

package platform

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

const helperEnv = "DAPSCOPE_PLATFORM_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		os.Exit(runHelper(h))
	}
	// go-winio's one I/O completion goroutine (Windows) lives as long as
	// the process.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/Microsoft/go-winio.ioCompletionProcessor"))
}

// helper is a command running this binary as helper h.
func helper(h string, env ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(append(os.Environ(), helperEnv+"="+h), env...)
	return cmd
}

func runHelper(h string) int {
	switch h {
	case "sleep":
		time.Sleep(10 * time.Minute)
	case "root": // a child of its own, then sleep (or exit: ROOT_EXIT)
		c := helper("sleep")
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println(c.Process.Pid)
		if os.Getenv("ROOT_EXIT") != "" {
			return 0
		}
		time.Sleep(10 * time.Minute)
	case "owner": // a tree of its own, then sleep until killed
		c := helper("sleep")
		if _, err := StartTree(c); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println(c.Process.Pid)
		time.Sleep(10 * time.Minute)
	case "watch": // report the parent's exit
		pp := WatchParent(context.Background(), func(int) {
			fmt.Println("exited")
			os.Exit(0)
		})
		fmt.Println("watching", pp)
		time.Sleep(2 * time.Minute)
		return 3
	case "spawn-watch": // a watcher whose output goes to WATCH_OUT
		f, err := os.Create(os.Getenv("WATCH_OUT"))
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		c := helper("watch")
		c.Stdout = f
		if err := c.Start(); err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println(c.Process.Pid)
		time.Sleep(10 * time.Minute)
	default:
		return 2
	}
	return 0
}

// firstLine reads a pid a helper prints on stdout.
func readPID(t *testing.T, r io.Reader) int {
	t.Helper()
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil {
		t.Fatalf("helper printed nothing: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatalf("helper: %q", line)
	}
	return pid
}

// running reports whether pid runs (a zombie does not).
func running(pid int) bool {
	_, ok := ProcessStart(pid)
	return ok
}

// waitGone waits (bounded, so a failure cannot hang) for pid to be gone.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for running(pid) {
		if time.Now().After(deadline) {
			_ = KillProcess(pid)
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
