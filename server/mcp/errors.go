// errors.go: failed tool calls — any error as the structured errcode.Error
// (code, field, message, hint, …) with its code's default hint, and the
// isError result.

package mcp

import (
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

// toolError is err as the structured error of a failed tool call (the
// one typed error, errcode.Error), with its code's default hint when it
// carries none of its own.
func toolError(err error) errcode.Error {
	te := *errcode.From(err)
	if te.Message == "" {
		te.Message = err.Error()
	}
	switch {
	case te.Hint == kernel.HintBusyKernel:
		te.Hint = "a cell runs in the kernel: debug_wait returns when it finishes, or interrupt it in your notebook"
	case te.Hint != "":
	case te.Code == errcode.NotFound:
		if te.Field == "session_id" {
			te.Hint = "list sessions with debug_sessions, or start one with debug_launch"
		}
	case te.Code == errcode.NotPaused && (strings.HasSuffix(te.Message, session.StatusCompleted) || strings.HasSuffix(te.Message, session.StatusError) || strings.HasSuffix(te.Message, session.StatusTerminated)):
		te.Hint = "the program has ended: see debug_outcome and debug_output, or start it again with debug_launch"
	default:
		te.Hint = te.Code.Hint()
	}
	if len(te.Matches) > 0 {
		if te.Hint == "" {
			te.Hint = "close matches: " + strings.Join(te.Matches, ", ")
		}
		te.Matches = nil
	}
	return te
}

// errorResult turns a failed operation into an isError tool result.
func (s *Server) errorResult(err error) *mcpgo.CallToolResult {
	te := boundError(toolError(err))
	var b strings.Builder
	fmt.Fprintf(&b, "ERROR %s", te.Code)
	if te.Field != "" {
		fmt.Fprintf(&b, " (%s)", te.Field)
	}
	fmt.Fprintf(&b, ": %s", te.Message)
	if te.State != "" {
		fmt.Fprintf(&b, " [state: %s]", te.State)
	}
	if te.Hint != "" {
		fmt.Fprintf(&b, "\nhint: %s", te.Hint)
	}
	if len(te.AvailableVariables) > 0 {
		fmt.Fprintf(&b, "\navailable: %s", strings.Join(te.AvailableVariables, ", "))
	}
	r := &mcpgo.CallToolResult{
		Content:           []mcpgo.Content{mcpgo.NewTextContent(capText(b.String(), maxTextBytes))},
		StructuredContent: map[string]any{"error": te},
		IsError:           true,
	}
	return r
}
