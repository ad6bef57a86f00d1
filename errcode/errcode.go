// Package errcode is dapscope's one vocabulary of errors, as delve keeps its
// DAP error ids in one file: every code any layer returns (the inspector,
// the session API, code context, the MCP server, the editor channel and the
// DAP proxy) is declared here once, with its id in DAP error responses and
// the hint an agent gets when the error carries none of its own; Error is
// the one typed error, and From the one way to turn any error into it.
package errcode

import (
	"context"
	"errors"
	"fmt"
)

// Code is a stable error code: what a client matches on.
type Code string

// The codes.
const (
	// InvalidArgument: an argument or option is missing, of the wrong type
	// or out of range (Field names it).
	InvalidArgument Code = "INVALID_ARGUMENT"
	// InvalidExpression: not a plain path (names, attributes, subscripts
	// with int or string literals), or a selection's filter is refused.
	InvalidExpression Code = "INVALID_EXPRESSION"
	// InvalidPath: a file path outside the workspace, or malformed.
	InvalidPath Code = "INVALID_PATH"
	// VariableNotFound: the first name of a path, an attribute, a key or an
	// index does not exist; AvailableVariables lists what does.
	VariableNotFound Code = "VARIABLE_NOT_FOUND"
	// NotFound: no such session, snapshot, watch, symbol or file.
	NotFound Code = "NOT_FOUND"
	// Ambiguous: a name matches several things (Matches lists them).
	Ambiguous Code = "AMBIGUOUS"
	// FrameNotFound: a frame id that is not one of the current stop's
	// (stale after a resume, or never handed out).
	FrameNotFound Code = "FRAME_NOT_FOUND"
	// NotPaused: the request needs a stopped thread (State says what the
	// session is doing).
	NotPaused Code = "NOT_PAUSED"
	// NotSupported: the request is not offered on this kind of session.
	NotSupported Code = "NOT_SUPPORTED"
	// UnknownCommand: a DAP request the sidecar does not know.
	UnknownCommand Code = "UNKNOWN_COMMAND"
	// AdapterExited: the debug adapter is gone (the session has ended).
	AdapterExited Code = "ADAPTER_EXITED"
	// DebuggeeExited: the program is gone (exited, or killed by a signal).
	DebuggeeExited Code = "DEBUGGEE_EXITED"
	// AdapterError: the debug adapter refused the request.
	AdapterError Code = "ADAPTER_ERROR"
	// EvaluationError: the expression raised in the debuggee (or did not
	// resolve); the message starts with the exception type.
	EvaluationError Code = "EVALUATION_ERROR"
	// LaunchFailed: the program could not be started.
	LaunchFailed Code = "LAUNCH_FAILED"
	// Timeout: the adapter did not answer in time.
	Timeout Code = "TIMEOUT"
	// InspectionTimeout: an inspection did not finish in time; the session
	// stays usable (no cancel is ever sent to the adapter).
	InspectionTimeout Code = "INSPECTION_TIMEOUT"
	// InspectionMemory: an inspection was stopped because it took more of
	// the debuggee's heap than its share (the JavaScript probe's heap
	// watch); nothing of the program's changed, the session stays usable.
	InspectionMemory Code = "INSPECTION_MEMORY"
	// LimitExceeded: a bound was hit (sessions, snapshots, a frame's size).
	LimitExceeded Code = "LIMIT_EXCEEDED"
	// Cancelled: the caller went away or cancelled.
	Cancelled Code = "CANCELLED"
	// IndexError: the code-context index could not be built or read.
	IndexError Code = "INDEX_ERROR"
	// IndexNotReady: the code-context index is still being built.
	IndexNotReady Code = "CODE_INDEX_NOT_READY"
	// IndexUnavailable: the workspace could not be indexed.
	IndexUnavailable Code = "CODE_INDEX_UNAVAILABLE"
	// Internal: anything unexpected (a bug, or an adapter or probe that
	// answered nonsense).
	Internal Code = "INTERNAL"
)

// DAP error ids of the responses the sidecar writes itself (Message.id).
const (
	dapUnknownCommand = 3000 + iota
	dapBadArguments
	dapNotPaused
	dapAdapterExited
	dapInternal
	dapTimeout
	dapTooLarge
)

type entry struct {
	dapID int
	hint  string // for agents, when the error carries no hint of its own
}

// table is every code's DAP id and default hint.
var table = map[Code]entry{
	InvalidArgument:   {dapBadArguments, "see the tool's input schema (tools/list)"},
	InvalidExpression: {dapBadArguments, ""},
	InvalidPath:       {dapBadArguments, "give a path relative to the workspace"},
	VariableNotFound:  {dapBadArguments, ""},
	NotFound:          {dapBadArguments, ""},
	Ambiguous:         {dapBadArguments, "name one of the matches"},
	FrameNotFound:     {dapBadArguments, "frame ids last until the debuggee resumes: debug_stack lists the current ones, or leave frame_id out for the top frame"},
	NotPaused:         {dapNotPaused, "the debuggee is not paused: call debug_wait to wait for a stop, or debug_pause"},
	NotSupported:      {dapBadArguments, ""},
	UnknownCommand:    {dapUnknownCommand, ""},
	AdapterExited:     {dapAdapterExited, "the session has ended: see debug_outcome and debug_output"},
	DebuggeeExited:    {dapAdapterExited, "the program has ended (exit code or signal in debug_outcome): see debug_output, or run it again with debug_launch"},
	AdapterError:      {dapBadArguments, "the debug adapter refused the request: check the expression or arguments"},
	EvaluationError:   {dapBadArguments, "the expression raised in the debuggee (type and message above): fix the expression, or check the names in scope with debug_variables"},
	LaunchFailed:      {dapBadArguments, "check that program/module exists relative to the workspace; see debug_output of the session if one was created"},
	Timeout:           {dapTimeout, "the adapter did not answer in time: retry with a larger timeout, or debug_pause first"},
	InspectionTimeout: {dapTimeout, ""},
	InspectionMemory:  {dapTooLarge, "the session stays usable: inspect a part of the value (a path below it, fewer columns, no sort), or give the program a bigger heap (node --max-old-space-size)"},
	LimitExceeded:     {dapTooLarge, "free resources (debug_snapshot action=delete, debug_terminate) and retry"},
	Cancelled:         {dapBadArguments, "the request was cancelled"},
	IndexError:        {dapInternal, ""},
	IndexNotReady:     {dapInternal, "retry in a few seconds"},
	IndexUnavailable:  {dapInternal, "see the server log"},
	Internal:          {dapInternal, ""},
}

// DAPID is the code's id in a DAP error response.
func (c Code) DAPID() int {
	if e, ok := table[c]; ok {
		return e.dapID
	}
	return dapInternal
}

// Hint is the code's default hint ("" for none).
func (c Code) Hint() string { return table[c].hint }

// Codes lists every code (for tests and docs).
func Codes() []Code {
	out := make([]Code, 0, len(table))
	for c := range table {
		out = append(out, c)
	}
	return out
}

// Error is the typed error of every layer. Only Code and Message are always
// set; the JSON form is what clients see (MCP tool results, the editor
// channel, CLI json).
type Error struct {
	Code    Code   `json:"code"`
	Field   string `json:"field,omitempty"` // the argument at fault
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
	// AvailableVariables: for VARIABLE_NOT_FOUND, the names that exist.
	AvailableVariables []string `json:"available_variables,omitempty"`
	// State: for NOT_PAUSED, what the session is doing.
	State string `json:"state,omitempty"`
	// Matches: close symbols or paths (NOT_FOUND), or the candidates
	// (AMBIGUOUS), in code context.
	Matches []string `json:"matches,omitempty"`
	// StillRunning: the operation timed out but goes on in the debuggee.
	StillRunning bool `json:"still_running,omitempty"`
}

func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", e.Code, e.Field, e.Message)
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

// New is an error with a formatted message.
func New(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid is an INVALID_ARGUMENT naming its field.
func Invalid(field, format string, args ...any) *Error {
	return &Error{Code: InvalidArgument, Field: field, Message: fmt.Sprintf(format, args...)}
}

// As is the typed error in err's chain, or nil.
func As(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	return nil
}

// Is reports whether err's chain holds a typed error with the code.
func Is(err error, code Code) bool {
	e := As(err)
	return e != nil && e.Code == code
}

// From is err as a typed error: the one in its chain, CANCELLED or TIMEOUT
// for a context's end, else INTERNAL with err's text. nil stays nil.
func From(err error) *Error {
	switch {
	case err == nil:
		return nil
	case As(err) != nil:
		return As(err)
	case errors.Is(err, context.Canceled):
		return &Error{Code: Cancelled, Message: "cancelled"}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: Timeout, Message: "timed out"}
	}
	return &Error{Code: Internal, Message: err.Error()}
}
