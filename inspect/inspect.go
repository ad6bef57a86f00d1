// This file holds Inspect, the engine's entry point: it validates the
// request, resolves the frame, dispatches to the Python probe (debugpy), the
// JavaScript probe (node) or the DAP-variables fallback (Delve and others),
// then summarizes and caps the result.

package inspect

import (
	"context"
	"errors"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

// Inspect answers "what is this value?" for expression in the frame frameID
// (0: the top frame of the stopped thread). On failure the error is an *errcode.Error.
func Inspect(ctx context.Context, t Target, frameID int, expression string, opts Options) (*Result, error) {
	start := time.Now()
	if err := opts.Normalize(); err != nil {
		return nil, err
	}
	path, err := ParsePathFor(t.Language(), expression)
	if err != nil {
		return nil, err
	}
	threadID, ok := t.Paused()
	if !ok {
		return nil, notPaused(t, "inspection needs a stopped thread: wait for a breakpoint or pause the program")
	}
	rctx, cancel := context.WithTimeout(ctx, seconds(opts.RequestTimeout))
	defer cancel()
	if frameID == 0 {
		frameID, err = topFrame(rctx, t, threadID)
		if err != nil {
			return nil, requestError(ctx, rctx, err, "stackTrace")
		}
	}
	var res *Result
	if p := probeFor(t.Language()); p != nil {
		res, err = inspectProbe(rctx, t, p, frameID, path, opts)
	} else {
		res, err = inspectVariables(rctx, t, frameID, path, opts)
	}
	if err != nil {
		if errcode.As(err) == nil || errcode.Is(err, errcode.NotPaused) {
			if ne := resumedError(t); ne != nil {
				return nil, ne // the thread resumed while the inspection was on its way
			}
		}
		return nil, requestError(ctx, rctx, err, "inspection")
	}
	if res.Summary == "" {
		res.Summary = Summarize(res)
	}
	res.ElapsedMs = float64(time.Since(start).Microseconds()) / 1000
	Cap(res, MaxResultBytes)
	return res, nil
}

// pauseExplainer is a Target that says better than its status why it is
// not paused (a Jupyter kernel busy with a user's cell: which cell, for how
// long); nil when it has nothing to add.
type pauseExplainer interface {
	NotPaused() *errcode.Error
}

// notPaused is the NOT_PAUSED error of a request that needs a stopped
// thread, with hint unless the target's own explanation has one.
func notPaused(t Target, hint string) *errcode.Error {
	if pe, ok := t.(pauseExplainer); ok {
		if e := pe.NotPaused(); e != nil {
			if e.Hint == "" {
				e.Hint = hint
			}
			return e
		}
	}
	st := t.Status()
	return &errcode.Error{Code: errcode.NotPaused, State: st, Message: "the session is not paused (status: " + st + ")", Hint: hint}
}

// resumedError is the not-paused error when the session is no longer
// paused (a request failed because a step or continue raced it), nil if it
// still is.
func resumedError(t Target) *errcode.Error {
	if _, ok := t.Paused(); ok {
		return nil
	}
	if pe, ok := t.(pauseExplainer); ok {
		if e := pe.NotPaused(); e != nil {
			return e
		}
	}
	st := t.Status()
	return &errcode.Error{Code: errcode.NotPaused, State: st, Message: "the debuggee resumed while the inspection was on its way (status: " + st + ")",
		Hint: "inspection needs a stopped thread: wait for the next stop and inspect again"}
}

// requestError turns a transport or context error into an *errcode.Error.
func requestError(parent, rctx context.Context, err error, what string) *errcode.Error {
	if parent.Err() != nil {
		return &errcode.Error{Code: errcode.InspectionTimeout, Message: what + " cancelled: " + parent.Err().Error()}
	}
	if rctx.Err() != nil || errors.Is(err, context.DeadlineExceeded) {
		return &errcode.Error{Code: errcode.InspectionTimeout, Message: what + " did not finish within the request timeout",
			Hint: "the debuggee may still be computing; the session stays usable and later requests run once it returns. " +
				"Lower the work with include_statistics=false or raise timeout/request_timeout"}
	}
	// The target's own typed errors keep their meaning (a request that met
	// a resumed thread is not an internal failure), with the inspection's
	// hint where it has one.
	if ie := errcode.As(err); ie != nil {
		switch ie.Code {
		case errcode.NotPaused:
			return &errcode.Error{Code: errcode.NotPaused, State: ie.State, Message: ie.Message, Hint: "inspection needs a stopped thread: wait for the next stop and inspect again"}
		case errcode.DebuggeeExited:
			return &errcode.Error{Code: errcode.DebuggeeExited, Message: ie.Message, Hint: "the program has ended: see its outcome and output"}
		}
		return ie
	}
	return &errcode.Error{Code: errcode.Internal, Message: what + " failed: " + err.Error()}
}

type stackTraceArgs struct {
	ThreadID   int `json:"threadId"`
	StartFrame int `json:"startFrame,omitempty"`
	Levels     int `json:"levels,omitempty"`
}

type stackFrame struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
	Line int    `json:"line"`
}

type stackTraceBody struct {
	StackFrames []stackFrame `json:"stackFrames"`
	TotalFrames int          `json:"totalFrames,omitempty"`
}

func topFrame(ctx context.Context, t Target, threadID int) (int, error) {
	if k, ok := t.(topFrameKnower); ok {
		if id, ok := k.KnownTopFrame(ctx, threadID); ok {
			return id, nil
		}
	}
	var body stackTraceBody
	if err := t.Request(ctx, "stackTrace", stackTraceArgs{ThreadID: threadID, Levels: 1}, &body); err != nil {
		return 0, err
	}
	if len(body.StackFrames) == 0 {
		return 0, &errcode.Error{Code: errcode.NotPaused, Message: "the stopped thread has no frames", State: t.Status()}
	}
	return body.StackFrames[0].ID, nil
}

// topFrameKnower is a Target that may already know the stopped thread's
// top frame (a bridged session learns it from the editor's own stackTrace).
type topFrameKnower interface {
	KnownTopFrame(ctx context.Context, threadID int) (int, bool)
}

// FrameAt returns the DAP frame id of the n-th frame (0 = top) of the
// stopped thread, for callers that address frames by depth (the CLI's --frame).
func FrameAt(ctx context.Context, t Target, n int) (int, error) {
	threadID, ok := t.Paused()
	if !ok {
		return 0, notPaused(t, "")
	}
	var body stackTraceBody
	if err := t.Request(ctx, "stackTrace", stackTraceArgs{ThreadID: threadID, Levels: n + 1}, &body); err != nil {
		return 0, requestError(ctx, ctx, err, "stackTrace")
	}
	if n < 0 || n >= len(body.StackFrames) {
		return 0, &errcode.Error{Code: errcode.InvalidArgument, Message: "no frame at depth " + itoa(int64(n)),
			Hint: "the stopped thread has " + itoa(int64(len(body.StackFrames))) + " frames"}
	}
	return body.StackFrames[n].ID, nil
}
