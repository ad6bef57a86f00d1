//go:build linux

package kernel

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

// TestKernelSessionSeesTheProcessExit: a local kernel whose process is
// known dies; its session ends without waiting for DeadGrace (an hour
// here: the heartbeat path would wait it out), its outcome says why.
func TestKernelSessionSeesTheProcessExit(t *testing.T) {
	k := startKernel(t)
	k.dial(t, Options{})
	_, at := kernelSession(t, k, AttachSpec{Adapter: AdapterOptions{DeadGrace: time.Hour}})
	if at.Kernel.PID == 0 {
		t.Fatalf("the process scan did not find the kernel's pid: %+v", at.Kernel)
	}
	s := at.Session
	waitStop(t, s, 0)
	k.kill()
	select {
	case <-s.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the session of a kernel whose process exited did not end (status %s)", s.Status())
	}
	o := s.Outcome()
	if s.Status() != session.StatusError || o == nil || !strings.Contains(o.ErrorMessage, "process exited") {
		t.Errorf("status %s, outcome %+v; want error, the process exited", s.Status(), o)
	}
	if !errors.Is(ErrProcessExited, ErrDead) {
		t.Error("ErrProcessExited is not ErrDead")
	}
}

// TestServerKernelShutDownIsFinal: a kernel the server shut down (404 no
// such kernel) ends its session at once, without DeadGrace (an hour here).
func TestServerKernelShutDownIsFinal(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "gone.ipynb")
	mgr := session.NewManager(session.ManagerOptions{Workspace: js.dir, Logger: testLogger()})
	t.Cleanup(func() { _ = mgr.Close() })
	at, err := AttachSession(testCtx(t, 60*time.Second), mgr, AttachSpec{ServerURL: js.url, KernelID: id, Token: js.token,
		Options: Options{Logger: testLogger(), HeartbeatInterval: 200 * time.Millisecond}, Adapter: AdapterOptions{DeadGrace: time.Hour}})
	if err != nil {
		t.Fatal(err)
	}
	s := at.Session
	waitStop(t, s, 0)
	if err := js.api("DELETE", "api/kernels/"+id, nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the session of a kernel the server shut down did not end (status %s)", s.Status())
	}
	if o := s.Outcome(); o == nil || !strings.Contains(o.ErrorMessage, "no such kernel") {
		t.Errorf("outcome %+v; want the server's no such kernel", o)
	}
}
