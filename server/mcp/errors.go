// errors.go: failed tool calls — the structured ToolError (code, field,
// message, hint, …), the mapping from session, context and other packages'
// typed errors to it, the hints by code, and the isError result.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/server/session"
)

// ToolError is the structured error of a failed tool call.
type ToolError struct {
	Code               string   `json:"code"`
	Field              string   `json:"field,omitempty"`
	Message            string   `json:"message"`
	Hint               string   `json:"hint,omitempty"`
	AvailableVariables []string `json:"available_variables,omitempty"`
	State              string   `json:"state,omitempty"`
	// StillRunning: the operation timed out but goes on in the debuggee.
	StillRunning bool `json:"still_running,omitempty"`
}

// Error codes beyond the session and inspect ones.
const (
	CodeCancelled = "CANCELLED"
	CodeInternal  = "INTERNAL"
)

var hintsByCode = map[string]string{
	session.CodeNotPaused:       "the debuggee is not paused: call debug_wait to wait for a stop, or debug_pause",
	session.CodeNotFound:        "list sessions with debug_sessions, or start one with debug_launch",
	session.CodeAdapterExited:   "the session has ended: see debug_outcome and debug_output",
	session.CodeDebuggeeExited:  "the program has ended (exit code or signal in debug_outcome): see debug_output, or run it again with debug_launch",
	session.CodeAdapterError:    "the debug adapter refused the request: check the expression or arguments",
	session.CodeEvaluationError: "the expression raised in the debuggee (type and message above): fix the expression, or check the names in scope with debug_variables",
	session.CodeTimeout:         "the adapter did not answer in time: retry with a larger timeout, or debug_pause first",
	session.CodeLaunchFailed:    "check that program/module exists relative to the workspace; see debug_output of the session if one was created",
	session.CodeInvalidArgument: "see the tool's input schema (tools/list)",
	session.CodeLimit:           "free resources (debug_snapshot action=delete, debug_terminate) and retry",
	CodeCancelled:               "the request was cancelled",
}

func toolError(err error) ToolError {
	var se *session.Error
	switch {
	case errors.As(err, &se):
		te := ToolError{Code: se.Code, Field: se.Field, Message: se.Message, Hint: hintsByCode[se.Code]}
		if se.Code == session.CodeNotFound && se.Field != "session_id" {
			te.Hint = ""
		}
		if se.Code == session.CodeNotPaused && (strings.HasSuffix(se.Message, session.StatusCompleted) || strings.HasSuffix(se.Message, session.StatusError) || strings.HasSuffix(se.Message, session.StatusTerminated)) {
			te.Hint = "the program has ended: see debug_outcome and debug_output, or start it again with debug_launch"
		}
		return te
	case errors.Is(err, context.Canceled):
		return ToolError{Code: CodeCancelled, Message: "cancelled", Hint: hintsByCode[CodeCancelled]}
	case errors.Is(err, context.DeadlineExceeded):
		return ToolError{Code: session.CodeTimeout, Message: "timed out", Hint: hintsByCode[session.CodeTimeout]}
	}
	// Typed errors of other packages (inspect.Error, code errors) marshal to
	// {code, message, hint, …}.
	var te ToolError
	if b, jerr := json.Marshal(err); jerr == nil && json.Unmarshal(b, &te) == nil && te.Code != "" && te.Message != "" {
		if te.Hint == "" {
			te.Hint = hintsByCode[te.Code]
		}
		return te
	}
	return ToolError{Code: CodeInternal, Message: err.Error()}
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
