// This file holds the inspector's typed error: a stable code, a message, a
// hint for the person or agent asking, and (for VARIABLE_NOT_FOUND) the names
// that do exist in the frame.

package inspect

import "fmt"

// Error codes returned by Inspect.
const (
	// CodeVariableNotFound: the first name of the path, an attribute, a key or
	// an index does not exist. AvailableVariables lists what does.
	CodeVariableNotFound = "VARIABLE_NOT_FOUND"
	// CodeNotPaused: the session is not paused, or its stopped thread has no
	// frame (State says what it is). The same code as server/session's
	// NOT_PAUSED, so every layer reports "not paused" alike.
	CodeNotPaused = "NOT_PAUSED"
	// CodeInvalidExpression: the expression is not a plain path
	// (names, attributes, subscripts with int or string literals).
	CodeInvalidExpression = "INVALID_EXPRESSION"
	// CodeInspectionTimeout: the whole request did not finish in time. The
	// session stays usable; the adapter is never sent a cancel request.
	CodeInspectionTimeout = "INSPECTION_TIMEOUT"
	// CodeInvalidArgument: an option is out of range.
	CodeInvalidArgument = "INVALID_ARGUMENT"
	// CodeInternal: the adapter or the probe failed in an unexpected way.
	CodeInternal = "INTERNAL"
)

// Error is the error type returned by Inspect (always as *Error).
type Error struct {
	Code               string   `json:"code"`
	Message            string   `json:"message"`
	Hint               string   `json:"hint,omitempty"`
	AvailableVariables []string `json:"available_variables,omitempty"`
	// State is the session status for NOT_PAUSED ("running", ...).
	State string `json:"state,omitempty"`
}

func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func errorf(code, hint, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...), Hint: hint}
}

const expressionHint = "use a name or a path of attributes and subscripts with int or string literals, " +
	"e.g. df, self.cache, data['train'], arr[0], obj.items[-1]"
