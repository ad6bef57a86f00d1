//go:build linux

// liveness_test.go: a wrong key both ways, a killed kernel (heartbeat and
// sockets) and the same kernel restarted on its connection file, a request
// in flight when the kernel dies, and a kernel that never answers
// (SIGSTOP): every failure is a clear typed error in bounded time.

package kernel

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withKey writes a copy of a connection file with another key.
func withKey(t *testing.T, file, key string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m["key"] = key
	b, _ = json.Marshal(m)
	p := filepath.Join(t.TempDir(), "kernel-wrongkey.json")
	if err := os.WriteFile(p, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestWrongKey(t *testing.T) {
	k := startKernel(t)
	good := k.dial(t, Options{})
	wrong := withKey(t, k.file, randomKey(t))

	// Our messages, signed with the wrong key, are dropped by the kernel:
	// nothing answers but the (unsigned) heartbeat.
	ctx := testCtx(t, 3*time.Second)
	_, err := DialFile(ctx, wrong, Options{Logger: testLogger()})
	if err == nil || !strings.Contains(err.Error(), "wrong key in the connection file?") {
		t.Fatalf("dial with a wrong key, idle kernel: %v, want an error naming the key", err)
	}

	// The kernel's messages, signed with its key, fail our check: while it
	// publishes, the error is the signature mismatch itself.
	busy := make(chan error, 1)
	bctx := testCtx(t, 60*time.Second)
	go func() {
		_, err := good.Execute(bctx, "import time\nfor i in range(60):\n    print(i, flush=True)\n    time.sleep(0.05)\n", ExecOptions{Visible: true})
		busy <- err
	}()
	ctx = testCtx(t, 10*time.Second)
	_, err = DialFile(ctx, wrong, Options{Logger: testLogger()})
	if !errors.Is(err, ErrSignature) || !strings.Contains(err.Error(), "signature mismatch: wrong key in the connection file?") {
		t.Errorf("dial with a wrong key, publishing kernel: %v, want ErrSignature", err)
	}
	if err := <-busy; err != nil {
		t.Fatal(err)
	}
	// The right client never noticed.
	if v, err := good.Evaluate(testCtx(t, 10*time.Second), "'fine'", CallOptions{}); err != nil || v != "fine" {
		t.Errorf("the good client after: %q, %v", v, err)
	}
}

// TestRefusedMessagesAreDropped feeds the client frames signed with
// another key through the same path the sockets use: they become
// EventRefused, never messages, and a waiting request fails at once.
func TestRefusedMessagesAreDropped(t *testing.T) {
	k := startKernel(t)
	c := k.dial(t, Options{})
	sub := c.Subscribe()
	defer sub.Close()
	other, _ := newSigner("hmac-sha256", []byte("not the key"))
	m, _ := newRequest("someone", "status", map[string]string{"execution_state": "busy"})
	m.Parent = Header{MsgID: "p1", Session: c.Session(), MsgType: "execute_request"}
	frames, _ := encodeFrames(other, m)
	c.deliver(decodeFrames(c.tr.(*zmqTransport).sign, ChannelIOPub, append([][]byte{[]byte("kernel.x.status")}, frames...)))
	ctx := testCtx(t, 10*time.Second)
	e := waitEvent(t, ctx, sub, "the refusal", func(e Event) bool {
		if e.Kind == EventMessage && e.Msg.Parent.MsgID == "p1" {
			t.Errorf("the forged message was delivered: %+v", e.Msg)
		}
		return e.Kind == EventRefused
	})
	if !errors.Is(e.Err, ErrSignature) {
		t.Errorf("refusal = %+v, want ErrSignature", e)
	}
	if st := c.State(); st.Execution != StateIdle {
		t.Errorf("a refused busy status changed the state: %+v", st)
	}
}

func TestDeadAndRestartedKernel(t *testing.T) {
	k := startKernel(t)
	c := k.dial(t, Options{HeartbeatInterval: 200 * time.Millisecond, HeartbeatTimeout: 2 * time.Second})
	ctx := testCtx(t, 120*time.Second)
	sub := c.Subscribe()
	defer sub.Close()
	if _, err := c.Execute(ctx, "x = 1", ExecOptions{}); err != nil {
		t.Fatal(err)
	}
	// A request in flight when the kernel dies fails at once with ErrDead
	// (its context is far from over).
	inflight := make(chan error, 1)
	go func() {
		_, err := c.Evaluate(ctx, "__import__('time').sleep(60) or 'x'", CallOptions{})
		inflight <- err
	}()
	waitEvent(t, ctx, sub, "the evaluation to start", func(e Event) bool {
		return e.Kind == EventMessage && e.Ours && statusOf(e.Msg) == "busy"
	})
	k.kill()
	if err := <-inflight; !errors.Is(err, ErrDead) {
		t.Fatalf("request in flight when the kernel died: %v, want ErrDead", err)
	}
	e := waitEvent(t, ctx, sub, "death", func(e Event) bool { return e.Kind == EventLiveness })
	if e.Liveness != LiveDead || !errors.Is(e.Err, ErrDead) {
		t.Errorf("liveness event = %+v", e)
	}
	if _, err := c.Evaluate(ctx, "'x'", CallOptions{}); !errors.Is(err, ErrDead) {
		t.Errorf("Evaluate on a dead kernel: %v, want ErrDead", err)
	}
	if err := c.Ping(ctx); !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "stale") {
		t.Errorf("heartbeat of a dead kernel: %v, want ErrDead naming a stale file", err)
	}

	// The kernel restarts on the same connection file (same ports and
	// key, as jupyter_client restarts do): the client comes back to it.
	startKernelOn(t, k.file, k.dir)
	e = waitEvent(t, ctx, sub, "the restart", func(e Event) bool { return e.Kind == EventLiveness && e.Liveness == LiveAlive })
	if !e.Restarted {
		t.Errorf("liveness event = %+v, want Restarted", e)
	}
	if v, err := c.EvaluateRepr(ctx, "'x' in globals()", CallOptions{}); err != nil || v != "False" {
		t.Errorf("after the restart: %q, %v; want a fresh namespace", v, err)
	}
	if st := c.State(); st.Liveness != LiveAlive || st.Execution != StateIdle {
		t.Errorf("state after the restart = %+v", st)
	}
}

func TestKernelThatNeverAnswers(t *testing.T) {
	k := startKernel(t)
	c := k.dial(t, Options{HeartbeatInterval: 200 * time.Millisecond, HeartbeatTimeout: time.Second})
	ctx := testCtx(t, 120*time.Second)
	sub := c.Subscribe()
	defer sub.Close()
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
	// A call's own context is far away: the heartbeat ends it.
	_, err := c.Evaluate(ctx, "'x'", CallOptions{})
	if !errors.Is(err, ErrNotAnswering) {
		t.Fatalf("Evaluate on a stopped kernel: %v, want ErrNotAnswering", err)
	}
	if !strings.Contains(err.Error(), "stopped or hung") {
		t.Errorf("message %q does not say why", err)
	}
	// A new client cannot attach: its dial is bounded by its context.
	dctx := testCtx(t, 3*time.Second)
	if _, err := DialFile(dctx, k.file, Options{}); !errors.Is(err, ErrNotAnswering) {
		t.Errorf("dial of a stopped kernel: %v, want ErrNotAnswering", err)
	}
	if err := syscall.Kill(pid, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	stopped = false
	waitEvent(t, ctx, sub, "the kernel to answer again", func(e Event) bool { return e.Kind == EventLiveness && e.Liveness == LiveAlive })
	if v, err := c.Evaluate(ctx, "'back'", CallOptions{}); err != nil || v != "back" {
		t.Errorf("after SIGCONT: %q, %v", v, err)
	}
}
