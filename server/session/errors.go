// errors.go: wrap, which turns mux and adapter errors into the typed errors
// of errcode (the one vocabulary of codes), and the deadline error.

package session

import (
	"errors"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/mux"
)

// wrap turns mux and adapter errors into typed errors.
func wrap(err error) error {
	if err == nil || errcode.As(err) != nil {
		return err
	}
	var np *mux.NotPausedError
	switch {
	case errors.As(err, &np):
		return &errcode.Error{Code: errcode.NotPaused, Message: np.Error()}
	case errors.Is(err, mux.ErrAdapterExited):
		return &errcode.Error{Code: errcode.AdapterExited, Message: err.Error()}
	case errors.Is(err, errDeadline):
		return &errcode.Error{Code: errcode.Timeout, Message: err.Error()}
	}
	var re *dap.ResponseError
	if errors.As(err, &re) {
		if ce := re.Coded(); ce != nil { // an adapter of ours (a kernel session's) said what it is
			return ce
		}
		return &errcode.Error{Code: errcode.AdapterError, Message: re.Error()}
	}
	return err
}

var errDeadline = errors.New("operation timed out")
