// stepping.go: continue, next, stepIn, stepOut and pause, each on its
// thread. A request that runs a thread forgets its stop before V8 resumes,
// so no later request can read a stack that is gone; the next stop's
// reason is the action asked for ("step", "pause") unless a breakpoint or
// an exception came first. A step that lands in code its script's source
// map does not cover (a compiler's helper: __decorate, __awaiter, a
// bundler's module wrapper) goes on with the same step, so stepping stays
// in mapped code.

package node

import (
	"context"
	"errors"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// maxSmartSteps bounds the steps taken through unmapped code for one step.
const maxSmartSteps = 100

// stepping is a step in progress: the CDP command that repeats it.
type stepping struct {
	method string
	n      int
}

// threadArg reads the threadId of a request that has one.
func threadArg(raw []byte) (int, error) {
	var a struct {
		ThreadID int `json:"threadId"`
	}
	err := args(raw, &a)
	return a.ThreadID, err
}

// resume runs thread with method (a step, resume or pause command), after
// forgetting its stop, and answers req itself with body: the response goes
// out before the stop that follows (stopped waits on stopGate), as
// clients that track state from the traffic need — a stopped event before
// the continue's response would read as running again.
func (s *Server) resume(ctx context.Context, req *godap.Request, raw []byte, body any, action, method string) (any, error) {
	id, err := threadArg(raw)
	if err != nil {
		return nil, err
	}
	th, err := s.threadByID(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if th.paused == nil {
		s.mu.Unlock()
		return nil, errNotPaused
	}
	s.forgetStopLocked(th)
	th.lastAction, th.step = action, nil
	if action == "step" {
		th.step = &stepping{method: method}
	}
	s.mu.Unlock()
	s.stopGate.Lock()
	defer s.stopGate.Unlock()
	other := s.continued(s.continuedBody(th), th)
	_, _ = call(ctx, th.c, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
	if err := th.c.raw(ctx, method, cdp.Empty{}, nil); err != nil && !errors.Is(err, ErrClosed) && !errors.Is(err, errWorkerGone) {
		return nil, err
	}
	// The inspector may close before it answers: the program ran to its
	// end, which exited and terminated report.
	s.respond(req, body)
	if action == "" {
		s.reannounce(other) // another thread still paused is stopped again
	}
	return nil, errNoBody
}

func (s *Server) continue_(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	return s.resume(ctx, req, raw, godap.ContinueResponseBody{AllThreadsContinued: false}, "", debugger.Resume.Method)
}

func (s *Server) next(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	return s.resume(ctx, req, raw, nil, "step", debugger.StepOver.Method)
}

func (s *Server) stepIn(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	return s.resume(ctx, req, raw, nil, "step", debugger.StepInto.Method)
}

func (s *Server) stepOut(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	return s.resume(ctx, req, raw, nil, "step", debugger.StepOut.Method)
}

// stepOn goes on with th's step when it stopped in code that its script's
// source map does not cover; true when it did (no stop is reported).
func (s *Server) stepOn(th *thread, e *debugger.EventPaused) bool {
	s.mu.Lock()
	st := th.step
	s.mu.Unlock()
	if st == nil || len(e.HitBreakpoints) > 0 || e.Reason == debugger.PausedReasonException || st.n >= maxSmartSteps {
		return false
	}
	loc := e.CallFrames[0].Location
	if !s.hasMap(th, loc.ScriptID) {
		return false
	}
	if _, ok := s.original(th, loc); ok {
		return false
	}
	s.mu.Lock()
	st.n++
	th.lastAction = "step"
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.CallTimeout)
	defer cancel()
	if err := th.c.raw(ctx, st.method, cdp.Empty{}, nil); err != nil {
		s.log.Debug("stepping through unmapped code", "err", err)
		return false
	}
	return true
}

func (s *Server) pause(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	id, err := threadArg(raw)
	if err != nil {
		return nil, err
	}
	th, err := s.threadByID(id)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if th.paused != nil {
		s.mu.Unlock()
		return nil, nil // already paused
	}
	th.lastAction = "pause"
	s.mu.Unlock()
	_, err = call(ctx, th.c, debugger.Pause, cdp.Empty{})
	return nil, err
}
