// evalerror.go: an evaluate the adapter refused because the expression
// raised in the debuggee (debugpy: a Python traceback) or did not resolve
// (Delve: "could not find symbol") is the program's error, not the
// adapter's: EVALUATION_ERROR with the exception type and message, and
// whether the failure only means a name is not in scope here.

package session

import (
	"errors"
	"regexp"
	"strings"

	"github.com/dapscope/dapscope/errcode"
)

// EvalError details an EVALUATION_ERROR.
type EvalError struct {
	Type       string // the exception type (NameError, ZeroDivisionError; Go: "")
	Message    string // its message
	NotInScope bool   // a name does not resolve in this frame
}

// excLine is the last line of a Python traceback: "Type: message".
var excLine = regexp.MustCompile(`^([A-Za-z_][\w.]*)(?::\s?(.*))?$`)

// evaluationError turns an adapter's refusal of an evaluate into
// EVALUATION_ERROR; other errors pass unchanged.
func evaluationError(err error) error {
	var se *errcode.Error
	if err == nil || !errors.As(err, &se) || se.Code != errcode.AdapterError {
		return err
	}
	d := ParseEvalError(strings.TrimPrefix(se.Message, "evaluate: "))
	msg := d.Message
	if d.Type != "" {
		msg = d.Type + ": " + d.Message
	}
	return &errcode.Error{Code: errcode.EvaluationError, Field: "expression", Message: msg}
}

// ParseEvalError reads an adapter's evaluate error message.
func ParseEvalError(msg string) EvalError {
	lines := strings.Split(strings.TrimSpace(msg), "\n")
	last := strings.TrimSpace(lines[len(lines)-1])
	var d EvalError
	if m := excLine.FindStringSubmatch(last); m != nil {
		d.Type, d.Message = m[1], m[2]
	} else {
		d.Message = last
	}
	lower := strings.ToLower(last)
	d.NotInScope = d.Type == "NameError" || d.Type == "UnboundLocalError" ||
		strings.Contains(lower, "could not find symbol") || strings.Contains(lower, "undefined")
	return d
}
