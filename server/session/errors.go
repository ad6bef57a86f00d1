// errors.go: the typed errors (a code, the offending field, a message).

package session

import (
	"errors"
	"fmt"

	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/mux"
)

// Error codes.
const (
	CodeInvalidArgument = "INVALID_ARGUMENT"
	CodeNotFound        = "NOT_FOUND"
	CodeNotPaused       = "NOT_PAUSED"
	CodeAdapterExited   = "ADAPTER_EXITED"
	CodeAdapterError    = "ADAPTER_ERROR"
	CodeTimeout         = "TIMEOUT"
	CodeLimit           = "LIMIT_EXCEEDED"
	CodeLaunchFailed    = "LAUNCH_FAILED"
	// CodeEvaluationError: the expression raised in the debuggee (or did
	// not resolve); the message starts with the exception type.
	CodeEvaluationError = "EVALUATION_ERROR"
	// CodeDebuggeeExited: the program is gone (exited, or killed by a
	// signal); the message says how it ended.
	CodeDebuggeeExited = "DEBUGGEE_EXITED"
)

// Error is a typed session error.
type Error struct {
	Code    string `json:"code"`
	Field   string `json:"field,omitempty"`
	Message string `json:"message"`
}

func (e *Error) Error() string {
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", e.Code, e.Field, e.Message)
	}
	return e.Code + ": " + e.Message
}

// ErrorCode is the code, for packages that see the error through an
// interface (the inspector keeps NOT_PAUSED and DEBUGGEE_EXITED as they are).
func (e *Error) ErrorCode() string { return e.Code }

// DAPErrorID maps the code to the sidecar's numbered DAP error ids.
func (e *Error) DAPErrorID() int {
	switch e.Code {
	case CodeNotPaused:
		return dap.ErrIDNotPaused
	case CodeAdapterExited, CodeDebuggeeExited:
		return dap.ErrIDAdapterExited
	case CodeTimeout:
		return dap.ErrIDTimeout
	}
	return dap.ErrIDBadArguments
}

func invalid(field, format string, args ...any) *Error {
	return &Error{Code: CodeInvalidArgument, Field: field, Message: fmt.Sprintf(format, args...)}
}

// wrap turns mux and adapter errors into typed errors.
func wrap(err error) error {
	if err == nil {
		return nil
	}
	var se *Error
	if errors.As(err, &se) {
		return err
	}
	var np *mux.NotPausedError
	switch {
	case errors.As(err, &np):
		return &Error{Code: CodeNotPaused, Message: np.Error()}
	case errors.Is(err, mux.ErrAdapterExited):
		return &Error{Code: CodeAdapterExited, Message: err.Error()}
	case errors.Is(err, errDeadline):
		return &Error{Code: CodeTimeout, Message: err.Error()}
	}
	var re *dap.ResponseError
	if errors.As(err, &re) {
		return &Error{Code: CodeAdapterError, Message: re.Error()}
	}
	return err
}

var errDeadline = errors.New("operation timed out")
