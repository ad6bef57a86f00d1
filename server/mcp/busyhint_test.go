package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/kernel"
)

// TestBusyKernelHintNamesDebugWait: MCP names its own tool in the kernel's
// neutral busy hint.
func TestBusyKernelHintNamesDebugWait(t *testing.T) {
	te := toolError(&errcode.Error{Code: errcode.NotPaused, State: kernel.StateBusyCode, Message: "busy", Hint: kernel.HintBusyKernel})
	if !strings.Contains(te.Hint, "debug_wait") {
		t.Errorf("hint %q", te.Hint)
	}
}
