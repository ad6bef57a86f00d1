//go:build linux

// adapter_liveness_test.go: kernel sessions on bad input, against real
// kernels: a killed kernel restarted on its connection file in the middle
// of an evaluation (the evaluation fails with a typed error, the session
// stops in the new namespace, the probe is sent again), a kernel that dies
// for good (terminated, with the reason in the outcome), one that never
// answers (SIGSTOP: TIMEOUT in bounded time, then back), a cell that runs
// forever (busy at once; the user's interrupt is a stop), a non-Python
// kernel, a wrong key, stale and garbage connection files.

package kernel

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// fast makes liveness quick for these tests.
var fast = Options{HeartbeatInterval: 200 * time.Millisecond, HeartbeatTimeout: time.Second}

func wantCode(t *testing.T, what string, err error, code errcode.Code, text string) {
	t.Helper()
	e := errcode.As(err)
	if e == nil || e.Code != code || !strings.Contains(e.Message, text) {
		t.Errorf("%s: %v, want %s containing %q", what, err, code, text)
	}
}

func TestKernelSessionRestartedMidEvaluation(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 120*time.Second)
	if _, err := user.Execute(ctx, "old = list(range(5))", ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	_, at := kernelSession(t, k, AttachSpec{Options: fast, Adapter: AdapterOptions{DeadGrace: 30 * time.Second}})
	s := at.Session
	first := waitStop(t, s, 0)
	// A cell the session sees: the old process's last cell.
	if _, err := user.Execute(ctx, "seen = 1", ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s, first.Gen); st.Location.Description != "after In[2]" {
		t.Fatalf("stop after the seen cell = %+v", st.Location)
	}
	if _, err := inspect.Inspect(ctx, s, 0, "old", inspect.Options{}); err != nil {
		t.Fatal(err)
	}
	sub := at.Adapter.Client().Subscribe()
	defer sub.Close()
	inflight := make(chan error, 1)
	go func() {
		_, err := s.Evaluate(ctx, "__import__('time').sleep(60)", 0, "")
		inflight <- err
	}()
	waitEvent(t, ctx, sub, "the evaluation to start", func(e Event) bool {
		return e.Kind == EventMessage && e.Ours && statusOf(e.Msg) == "busy"
	})
	gen := s.StopCount()
	k.kill()
	wantCode(t, "an evaluation when the kernel died", <-inflight, errcode.DebuggeeExited, "kernel is dead")
	startKernelOn(t, k.file, k.dir)
	st := waitStop(t, s, gen)
	if st.Location.Reason != "restart" || st.Location.Function != "namespace" {
		t.Errorf("stop after the restart = %+v", st.Location)
	}
	_, err := inspect.Inspect(ctx, s, 0, "old", inspect.Options{})
	if e := errcode.As(err); e == nil || e.Code != errcode.VariableNotFound {
		t.Errorf("inspect of a name of the old namespace: %v, want VARIABLE_NOT_FOUND", err)
	}
	user2 := k.dial(t, Options{})
	gen = s.StopCount()
	if _, err := user2.Execute(ctx, "new = {'a': 1}", ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s, gen); st.Location.Description != "after In[1]" {
		t.Errorf("stop after the new kernel's first cell = %+v", st.Location)
	}
	if res, err := inspect.Inspect(ctx, s, 0, "new", inspect.Options{}); err != nil || res.DetectedType != "dict" {
		t.Errorf("inspect in the new namespace (the probe sent again) = %+v, %v", res, err)
	}
	// Four stops: attached, the seen cell, the restart, the new cell. The
	// old process's last cell is not announced again in the new one.
	if n := s.StopCount(); n != 4 {
		t.Errorf("%d stops, want 4", n)
	}
}

func TestKernelSessionOnADeadKernel(t *testing.T) {
	k := startKernel(t)
	k.dial(t, Options{})
	_, at := kernelSession(t, k, AttachSpec{Options: fast, Adapter: AdapterOptions{DeadGrace: time.Second}})
	s := at.Session
	waitStop(t, s, 0)
	k.kill()
	select {
	case <-s.Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the session of a dead kernel did not end (status %s)", s.Status())
	}
	o := s.Outcome()
	if s.Status() != session.StatusError || o == nil || o.ErrorType != "KernelDied" || !strings.Contains(o.ErrorMessage, "the kernel died") {
		t.Errorf("status %s, outcome %+v; want error, KernelDied with the reason", s.Status(), o)
	}
	out, _ := s.OutputOf("debugger", 0, 1000)
	if !strings.Contains(out.Data, "the kernel died") {
		t.Errorf("debugger output %q does not say the kernel died", out.Data)
	}
}

func TestKernelSessionOnAKernelThatNeverAnswers(t *testing.T) {
	k := startKernel(t)
	k.dial(t, Options{})
	_, at := kernelSession(t, k, AttachSpec{Options: fast})
	s := at.Session
	ctx := testCtx(t, 120*time.Second)
	waitStop(t, s, 0)
	pid := k.cmd.Process.Pid
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	stopped := true
	defer func() {
		if stopped {
			_ = syscall.Kill(pid, syscall.SIGCONT)
		}
	}()
	_, err := inspect.Inspect(ctx, s, 0, "x", inspect.Options{Timeout: 10, RequestTimeout: 60})
	wantCode(t, "inspect on a stopped kernel", err, errcode.Timeout, "stopped or hung")
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	for {
		v, err := s.Evaluate(ctx, "'back'", 0, "")
		if err == nil {
			if v.Result != "'back'" {
				t.Errorf("after SIGCONT: %+v", v)
			}
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("the kernel never came back: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestKernelSessionWithACellThatRunsForever(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	_, at := kernelSession(t, k, AttachSpec{})
	s := at.Session
	ctx := testCtx(t, 120*time.Second)
	waitStop(t, s, 0)
	gen := s.StopCount()
	done := runForever(ctx, user)
	for s.Status() != session.StatusRunning {
		select {
		case <-ctx.Done():
			t.Fatal("the session never saw the cell run")
		case <-time.After(20 * time.Millisecond):
		}
	}
	_, err := s.Evaluate(ctx, "1", 0, "")
	wantCode(t, "evaluate while a cell runs forever", err, errcode.NotPaused, "cell [1]")
	_, err = inspect.SummariesWith(ctx, s, 0, nil, inspect.SummaryOptions{Timeout: time.Second})
	wantCode(t, "the listing while a cell runs forever", err, errcode.NotPaused, "has been running for")
	if err := user.Interrupt(ctx); err != nil {
		t.Fatal(err)
	}
	<-done
	st := waitStop(t, s, gen)
	if !strings.Contains(st.Location.Description, "raised KeyboardInterrupt") {
		t.Errorf("stop after the interrupted cell = %+v", st.Location)
	}
}

func TestKernelSessionRefusedKernels(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Workspace: t.TempDir(), Logger: testLogger()})
	t.Cleanup(func() { _ = mgr.Close() })
	ctx := testCtx(t, 120*time.Second)
	attach := func(spec AttachSpec) error {
		spec.Options.Logger = testLogger()
		_, err := AttachSession(ctx, mgr, spec)
		return err
	}
	// A kernel of another language.
	dir := t.TempDir()
	echo := startKernelScript(t, writeConnFile(t, dir, "kernel-echo.json", randomKey(t)), dir, "testdata/echokernel.py")
	echo.dial(t, Options{})
	wantCode(t, "a non-Python kernel", attach(AttachSpec{ConnectionFile: echo.file}), errcode.NotSupported, "runs echo")
	wantCode(t, "a non-Python kernel", attach(AttachSpec{ConnectionFile: echo.file}), errcode.NotSupported, SupportedLanguages)
	// A wrong key: the idle kernel drops our messages, the attach ends
	// within its context saying why.
	k := startKernel(t)
	k.dial(t, Options{})
	wrong := withKey(t, k.file, randomKey(t))
	wctx := testCtx(t, 5*time.Second)
	_, err := AttachSession(wctx, mgr, AttachSpec{ConnectionFile: wrong, Options: Options{Logger: testLogger()}})
	code := errcode.Timeout
	if errcode.Is(err, errcode.InvalidArgument) {
		// A message the kernel published (another client's request's
		// status) failed its check first: said as a signature mismatch.
		code = errcode.InvalidArgument
	}
	wantCode(t, "a wrong key", err, code, "wrong key in the connection file?")
	// A stale file (nothing listens) and garbage.
	stale := writeConnFile(t, t.TempDir(), "kernel-stale.json", randomKey(t))
	wantCode(t, "a stale connection file", attach(AttachSpec{ConnectionFile: stale}), errcode.NotFound, "stale")
	garbage := filepath.Join(t.TempDir(), "kernel-garbage.json")
	if err := os.WriteFile(garbage, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "a garbage connection file", attach(AttachSpec{ConnectionFile: garbage}), errcode.InvalidArgument, "not a Jupyter connection file")
	open := writeConnFile(t, t.TempDir(), "kernel-open.json", randomKey(t))
	if err := os.Chmod(open, 0o644); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "a connection file others may read", attach(AttachSpec{ConnectionFile: open}), errcode.InvalidArgument, "chmod 600")
	wantCode(t, "no such kernel", attach(AttachSpec{Kernel: "no-such-kernel", List: ListOptions{RuntimeDir: dir, NoProcesses: true}}),
		errcode.NotFound, `no kernel "no-such-kernel"`)
	if n := len(mgr.List()); n != 0 {
		t.Errorf("%d sessions registered by refused attaches", n)
	}
}
