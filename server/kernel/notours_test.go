//go:build linux

// notours_test.go: a kernel whose replies name a parent msg_id that no
// client sent (a real ipykernel made hostile, testdata/wrongparent.py):
// attach fails at once with ErrNotKernelReply, and kernel_attach says
// "not a kernel", instead of "a cell is running" and calls that ran to
// their 10–20 s timeouts.

package kernel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// dialWhenUp dials file until its kernel listens; the first error that is
// not "nothing listens" is returned.
func dialWhenUp(t *testing.T, ctx context.Context, k *testKernel) (*Client, error) {
	t.Helper()
	for {
		c, err := DialFile(ctx, k.file, Options{Logger: testLogger()})
		if err == nil || !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "nothing is listening") {
			return c, err
		}
		select {
		case <-k.done:
			t.Fatalf("kernel exited: %v\n%s", err, k.log())
		case <-ctx.Done():
			t.Fatalf("the kernel never listened: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}

func TestWrongParentIsNotAKernelReply(t *testing.T) {
	dir := t.TempDir()
	k := startKernelScript(t, writeConnFile(t, dir, "kernel-wrongparent.json", randomKey(t)), dir, "testdata/wrongparent.py")
	ctx := testCtx(t, 60*time.Second)
	c, err := dialWhenUp(t, ctx, k)
	if err == nil {
		st := c.State()
		c.Close()
		t.Fatalf("attached to a kernel whose replies answer nothing we sent (state %s)", st.Execution)
	}
	if !errors.Is(err, ErrNotKernelReply) || !strings.Contains(err.Error(), "never sent") {
		t.Fatalf("dial: %v, want ErrNotKernelReply (a request dapscope never sent)", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("the dial ran to its deadline: %v", err)
	}
	// The session API says "not a kernel".
	mgr := session.NewManager(session.ManagerOptions{Workspace: dir, Logger: testLogger()})
	t.Cleanup(func() { _ = mgr.Close() })
	_, err = AttachSession(ctx, mgr, AttachSpec{ConnectionFile: k.file})
	if e := errcode.As(err); e == nil || e.Code != errcode.NotFound || e.Hint != hintNotKernel {
		t.Errorf("AttachSession: %v, want NOT_FOUND with the not-a-kernel hint", err)
	}
}
