// attach_test.go: attaching to a debugpy that listens on host:port, and
// the concurrent-session limit.

package session

import (
	"bufio"
	"errors"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testports"
	"github.com/dapscope/dapscope/internal/testpython"
)

// freePort is a loopback port free now for a process to bind
// (testports.Free: not from the ephemeral range).
func freePort(t *testing.T) int {
	return testports.Free(t, 1)[0]
}

func TestAttachToListeningDebugpy(t *testing.T) {
	port := freePort(t)
	prog := filepath.Join(repoRoot(t), "testdata", "core", "listen.py")
	cmd := exec.Command(testpython.Path(), "-Xfrozen_modules=off", prog, strconv.Itoa(port))
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.Contains(line, "listening") {
		t.Fatalf("debuggee did not start listening: %q %v", line, err)
	}
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	s, err := m.Attach(ctx, AttachSpec{Host: "127.0.0.1", Port: port,
		Breakpoints: []Breakpoint{{File: "testdata/core/listen.py", Line: 12, Condition: "i == 100"}}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	ev, err := s.Evaluate(ctx, "i", st.Location.FrameID, "")
	if err != nil || ev.Result != "100" {
		t.Fatalf("i = %q, %v", ev.Result, err)
	}
	if _, err := s.SetBreakpoints(ctx, "testdata/core/listen.py", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	// Detaching must not kill a process we did not start: it runs to its end.
	_ = s.Terminate(ctx)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("attached debuggee exited with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("attached debuggee did not finish")
	}
}

func TestAttachValidationAndSessionLimit(t *testing.T) {
	m := newTestManager(t, ManagerOptions{MaxSessions: 1})
	ctx := testCtx(t)
	var se *errcode.Error
	if _, err := m.Attach(ctx, AttachSpec{Port: 0}); !errors.As(err, &se) || se.Field != "port" {
		t.Fatalf("port 0: %v", err)
	}
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/spin.py"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/spin.py"}); !errors.As(err, &se) || se.Code != errcode.LimitExceeded {
		t.Fatalf("second session: %v", err)
	}
	_ = s.Terminate(ctx)
	// An ended session no longer counts.
	s2, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/spin.py"})
	if err != nil {
		t.Fatalf("after ending the first: %v", err)
	}
	_ = s2.Terminate(ctx)
}
