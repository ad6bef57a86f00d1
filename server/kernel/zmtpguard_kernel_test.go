//go:build linux

package kernel

import (
	"errors"
	"testing"
	"time"
)

// TestOversizedReplyFailsThatCallAlone: a reply over the frame cap fails
// the call it answers at once, with ErrFrameTooLarge, and the session
// stays usable (#37.10).
func TestOversizedReplyFailsThatCallAlone(t *testing.T) {
	old := frameCap
	frameCap = 1 << 20
	t.Cleanup(func() { frameCap = old })
	k := startKernel(t)
	c := k.dial(t, Options{})
	ctx := testCtx(t, 60*time.Second)
	if _, err := c.Evaluate(ctx, "'x' * (3 << 20)", CallOptions{}); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("a 3 MB value over a 1 MiB cap: err = %v, want ErrFrameTooLarge", err)
	}
	if v, err := c.Evaluate(ctx, "'still ' + 'here'", CallOptions{Wait: 10 * time.Second}); err != nil || v != "still here" {
		t.Errorf("the next call: %q, %v", v, err)
	}
	if st := c.State(); st.Liveness != LiveAlive {
		t.Errorf("state after = %+v, want alive", st)
	}
}
