package kernel

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

// TestKernelHintsSpeakOfKernels: every typed error of a kernel session
// that carries a hint names kernels, never debug_launch or debug_pause
// (a dead kernel said "run it again with debug_launch").
func TestKernelHintsSpeakOfKernels(t *testing.T) {
	for _, err := range []error{
		&ConnError{Kernel: "k", Err: ErrDead},
		fmt.Errorf("x: %w", ErrFrameTooLarge),
		fmt.Errorf("x: %w", ErrNotKernelReply),
		context.DeadlineExceeded,
		ErrClosed,
	} {
		for _, e := range []error{typed(err), attachError(err)} {
			c := errcode.As(e)
			if c == nil || c.Hint == "" || strings.Contains(c.Hint, "debug_launch") || strings.Contains(c.Hint, "debug_pause") {
				t.Errorf("%v: %+v (its own hint must speak of kernels)", err, c)
			}
		}
	}
}

// TestBusyHintNamesNoTool: the busy hint reaches the editor as is; it
// named the MCP tool debug_wait.
func TestBusyHintNamesNoTool(t *testing.T) {
	e := busyCode(&BusyError{Cell: Cell{Known: true, Code: "sleep(9)"}})
	if strings.Contains(e.Hint, "debug_") || e.Hint != HintBusyKernel {
		t.Errorf("busy hint %q", e.Hint)
	}
}
