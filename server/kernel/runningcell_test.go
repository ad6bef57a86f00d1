//go:build linux

// runningcell_test.go: a fresh attach to a kernel busy with a cell that
// another client started (as a new `dapscope kernel …` call does) knows
// the cell's code and number from the kernel's input history, instead of
// "a cell (its code is unknown)".

package kernel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

const sleepCell = "import time\ntime.sleep(30)  # the user's long cell"

// waitBusy waits until c sees a user's cell running.
func waitBusy(t *testing.T, ctx context.Context, c *Client) {
	t.Helper()
	for c.State().Execution != StateBusy {
		select {
		case <-ctx.Done():
			t.Fatal("the cell never ran")
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestFreshAttachKnowsTheRunningCell(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 90*time.Second)
	if _, err := userExecute(ctx, user, "x = 1"); err != nil {
		t.Fatal(err)
	}
	observer := k.dial(t, Options{})
	go func() { _, _ = user.Execute(ctx, sleepCell, ExecOptions{Visible: true}) }()
	waitBusy(t, ctx, observer)
	defer func() { _ = user.Interrupt(context.Background()) }()

	c := k.dial(t, Options{}) // the fresh attach
	st := c.State()
	if st.Execution != StateBusy || st.Cell == nil || !st.Cell.Known || !st.Cell.FromHistory ||
		st.Cell.Code != sleepCell || st.Cell.ExecutionCount != 2 {
		t.Fatalf("fresh attach: state %s, cell %+v; want busy with In[2], its code from the history", st.Execution, st.Cell)
	}
	_, err := c.EvaluateRepr(ctx, "x", CallOptions{})
	var be *BusyError
	if !errors.As(err, &be) || !strings.Contains(be.Summary(), "cell [2] (import time …)") ||
		!strings.Contains(be.Summary(), "its code is the kernel's latest input") {
		t.Errorf("busy answer: %v", err)
	}
}
