// errors.go: the package's typed errors: busy, dead, not answering,
// signature mismatch, evaluation errors, and the sentinels they match.

package kernel

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Sentinels; the typed errors below match them with errors.Is.
var (
	// ErrBusy: the kernel's shell is running a cell (see *BusyError).
	ErrBusy = errors.New("kernel is busy")
	// ErrDead: the kernel process is gone (its sockets closed or refuse
	// connections).
	ErrDead = errors.New("kernel is dead")
	// ErrNotAnswering: the kernel does not answer its heartbeat (stopped,
	// or hung).
	ErrNotAnswering = errors.New("kernel is not answering")
	// ErrSignature: a message from the kernel failed HMAC verification.
	ErrSignature = errors.New("signature mismatch: wrong key in the connection file?")
	// ErrRestarted: the kernel restarted while the request was in flight.
	ErrRestarted = errors.New("kernel restarted")
	// ErrNotKernelReply: what came back is not a Jupyter message (content
	// that is not JSON): not a kernel, or a broken one.
	ErrNotKernelReply = errors.New("not a kernel reply")
	// ErrClosed: the client was closed.
	ErrClosed = errors.New("kernel client closed")
	// ErrUnsupported: the kernel does not implement what was asked.
	ErrUnsupported = errors.New("not supported by this kernel")
	// ErrAborted: the kernel answered "aborted" and did not run the code:
	// ipykernel drops execute requests that arrive right after a cell
	// failed (stop_on_error); sending it again runs it.
	ErrAborted = errors.New("the kernel aborted it without running it (it drops what arrives right after a failed cell)")
)

// BusyError says that a call would have queued behind a running cell.
type BusyError struct {
	// Cell is the running cell; Cell.Known is false when dapscope attached
	// while it was already running (its code is then unknown).
	Cell Cell
	// For is how long it has been running (since it was seen, or since
	// dapscope attached when the start is unknown).
	For time.Duration
	// Paused: the cell is stopped in the kernel's debugger; inspect it in
	// the paused frame (Client.EvaluateInFrame) instead.
	Paused bool
	// Queued: the request was already sent and is waiting behind the cell;
	// dapscope asked the kernel to drop it.
	Queued bool
}

func (e *BusyError) Error() string {
	return e.Summary() + "; pass a wait to queue behind it, or interrupt it"
}

// Summary says which cell holds the kernel and for how long (Error
// without the advice to Go callers).
func (e *BusyError) Summary() string {
	var b strings.Builder
	b.WriteString("kernel is busy: ")
	b.WriteString(e.Cell.describe())
	fmt.Fprintf(&b, " has been running for %s", e.For.Round(100*time.Millisecond))
	if !e.Cell.Known || e.Cell.FromHistory {
		if !e.Cell.StartedBy.IsZero() {
			fmt.Fprintf(&b, " (at least: it was already running at %s, the Jupyter Server's last_activity for the kernel",
				e.Cell.StartedBy.Local().Format("15:04:05"))
		} else {
			b.WriteString(" (at least: it was already running when dapscope attached")
		}
		if e.Cell.FromHistory {
			b.WriteString("; its code is the kernel's latest input")
		}
		if !e.Cell.Submitted.IsZero() {
			fmt.Fprintf(&b, "; its request is dated %s", e.Cell.Submitted.Format(time.RFC3339))
		}
		b.WriteString(")")
	}
	if e.Paused {
		b.WriteString("; it is paused in the debugger: evaluate in its frame instead")
	}
	return b.String()
}

// Is makes errors.Is(err, ErrBusy) true.
func (e *BusyError) Is(target error) bool { return target == ErrBusy }

// EvalError is an exception raised by evaluated code in the kernel.
type EvalError struct {
	Name      string   // the exception's type, e.g. NameError
	Value     string   // its message
	Traceback []string // as the kernel formatted it (may hold ANSI colours)
}

func (e *EvalError) Error() string {
	if e.Value == "" {
		return e.Name
	}
	return e.Name + ": " + e.Value
}

// ConnError wraps a liveness sentinel (ErrDead, ErrNotAnswering,
// ErrSignature, ErrRestarted) with what was seen and where.
type ConnError struct {
	Kernel string // the connection file or server kernel it concerns
	Err    error  // the sentinel
	Detail string // what was seen
}

func (e *ConnError) Error() string {
	s := e.Err.Error()
	if e.Kernel != "" {
		s = e.Kernel + ": " + s
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

func (e *ConnError) Unwrap() error { return e.Err }
