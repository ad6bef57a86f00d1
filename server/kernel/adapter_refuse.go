// adapter_refuse.go: what a kernel session refuses, and how the kernel's
// errors reach the session as typed errors. Refusals are NOT_SUPPORTED and
// say what to do instead (breakpoints belong to the notebook, a kernel runs
// cells); a busy kernel is NOT_PAUSED with state "busy", the cell and how
// long it has run; a dead, hung or restarted kernel has its own code; an
// exception raised by an evaluated expression is an adapter error whose
// message starts with its type, which the session reports as
// EVALUATION_ERROR.

package kernel

import (
	"context"
	"errors"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
)

// The adapter's modes: what the session sees.
const (
	modeIdle    = "idle"    // the namespace is a stopped thread
	modeRunning = "running" // a user's cell runs
	modePaused  = "paused"  // a cell is paused in the kernel's debugger
	modeEnded   = "ended"   // the kernel died, or the session ended
)

// StateBusyCode is the State of the NOT_PAUSED error a busy kernel answers.
const StateBusyCode = "busy"

// Refusal is the NOT_SUPPORTED error of a command a kernel session does not
// send now, nil for one it sends (session.KernelSpec.Refuses).
func (a *Adapter) Refusal(command string) *errcode.Error { return a.refusal(command) }

func (a *Adapter) refusal(command string) *errcode.Error {
	no := func(msg string) *errcode.Error { return &errcode.Error{Code: errcode.NotSupported, Message: msg} }
	a.mu.Lock()
	mode := a.mode
	a.mu.Unlock()
	switch command {
	case "threads", "stackTrace", "scopes", "variables", "evaluate", "initialize", "disconnect":
		return nil
	case "setBreakpoints", "setFunctionBreakpoints", "setExceptionBreakpoints", "setDataBreakpoints",
		"setInstructionBreakpoints", "dataBreakpointInfo":
		return no(command + " is not sent to a kernel: its breakpoints belong to the notebook. " +
			"Debug the cell in your notebook (VS Code, JupyterLab); dapscope follows its stops")
	case "setVariable", "setExpression":
		return no(command + " is not sent to a kernel: a kernel session changes no value. Assign it in a cell of your notebook")
	case "pause":
		return no("dapscope does not interrupt a user's cell: interrupt the kernel in your notebook, or wait for the cell to finish (each execution is a stop)")
	case "continue", "next", "stepIn", "stepOut":
		switch mode {
		case modePaused:
			return nil
		case modeRunning:
			return no(command + ": a cell is running in the kernel; wait for it to finish (each execution is a stop)")
		}
		return no(command + ": a kernel runs cells, it does not step: run the next cell in your notebook (each execution is a stop)")
	case "exceptionInfo", "source", "loadedSources", "modules", "stepInTargets", "completions", "gotoTargets":
		if mode == modePaused {
			return nil
		}
		return no(command + " is answered only while a cell is paused in the kernel's debugger")
	case "launch", "attach", "configurationDone", "restart", "terminate", "restartFrame", "goto", "stepBack", "reverseContinue":
		return no(command + ": a kernel session is attached to a running kernel; run cells in your notebook")
	}
	return no(command + " is not supported on a kernel session")
}

// Busy is the NOT_PAUSED error while a user's cell holds the kernel (which
// cell, for how long), nil when none does (session.KernelSpec.Busy).
func (a *Adapter) Busy() *errcode.Error {
	st := a.c.State()
	if st.Execution != StateBusy || st.Cell == nil {
		return nil
	}
	return busyCode(&BusyError{Cell: *st.Cell, For: time.Since(st.Since), Paused: st.Paused})
}

// HintBusyKernel is the busy hint, naming no client's tools (the editor
// shows it as is; MCP names its debug_wait).
const HintBusyKernel = "a cell runs in the kernel: wait for it to finish (each execution ends in a stop), or interrupt it in your notebook"

func busyCode(be *BusyError) *errcode.Error {
	e := &errcode.Error{Code: errcode.NotPaused, State: StateBusyCode, Message: be.Summary(),
		Hint: HintBusyKernel}
	if be.Paused {
		e.Hint = "the cell is paused in the kernel's debugger: read its frames (debug_stack) and inspect there"
	}
	return e
}

// Ended says why the session ended on its own ("" when it did not):
// session.KernelSpec.Ended.
func (a *Adapter) Ended() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ended
}

// typed is err as the session's typed error; nil for an exception raised
// by the evaluated code (an adapter error, which the session turns into
// EVALUATION_ERROR).
func typed(err error) *errcode.Error {
	var (
		be *BusyError
		ee *EvalError
	)
	switch {
	case errors.As(err, &ee):
		return nil
	case errors.As(err, &be):
		return busyCode(be)
	case errcode.As(err) != nil:
		return errcode.As(err)
	case errors.Is(err, ErrDead):
		return &errcode.Error{Code: errcode.DebuggeeExited, Message: err.Error(), Hint: hintKernelDead}
	case errors.Is(err, ErrFrameTooLarge):
		return &errcode.Error{Code: errcode.LimitExceeded, Message: err.Error(),
			Hint: "the value is too large to send whole: inspect it (debug_inspect_variable) or evaluate a slice of it"}
	case errors.Is(err, ErrNotKernelReply):
		return &errcode.Error{Code: errcode.AdapterError, Message: err.Error(), Hint: hintNotKernel}
	case errors.Is(err, ErrNotAnswering):
		return &errcode.Error{Code: errcode.Timeout, Message: err.Error(),
			Hint: "the kernel process is stopped or hung (its heartbeat does not answer): check it in your notebook"}
	case errors.Is(err, ErrRestarted):
		return &errcode.Error{Code: errcode.NotPaused, State: "restarted", Message: err.Error() + ": its namespace is new",
			Hint: "the kernel restarted: its variables are gone; run your cells again, then retry"}
	case errors.Is(err, ErrClosed):
		return &errcode.Error{Code: errcode.AdapterExited, Message: "the kernel session has ended", Hint: "attach to the kernel again with kernel_attach"}
	case errors.Is(err, ErrAborted):
		return &errcode.Error{Code: errcode.AdapterError, Message: err.Error(),
			Hint: "a cell failed just before: retry"}
	case errors.Is(err, ErrUnsupported):
		return &errcode.Error{Code: errcode.NotSupported, Message: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &errcode.Error{Code: errcode.Timeout, Message: "the kernel did not answer in time", Hint: hintKernelTimeout}
	}
	return &errcode.Error{Code: errcode.Internal, Message: err.Error()}
}

// Hints of a kernel session: they speak of kernels, never of launching a
// program or pausing it.
const (
	hintKernelDead    = "the kernel has died (or was shut down): restart it in your notebook, then kernel_attach again"
	hintKernelTimeout = "the kernel did not answer in time: it is stopped, hung or busy; check it in your notebook (kernel_list shows its state), then retry"
	hintNotKernel     = "what answers on the kernel's ports is not a Jupyter kernel: a stale connection file? kernel_list shows the live ones"
)

// errorFrame is the error response to env for err.
func (a *Adapter) errorFrame(env dap.Envelope, err error) []byte {
	var de *DebugError
	if errors.As(err, &de) { // the kernel debugger's own refusal, as it said it
		return dap.ErrorResponse(a.nextSeq(), env, errcode.AdapterError, de.Message)
	}
	if e := typed(err); e != nil {
		return dap.CodedErrorResponse(a.nextSeq(), env, e)
	}
	return dap.ErrorResponse(a.nextSeq(), env, errcode.AdapterError, err.Error())
}
