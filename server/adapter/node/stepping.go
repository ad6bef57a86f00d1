// stepping.go: continue, next, stepIn, stepOut and pause. A request that
// runs the program forgets the current stop before V8 resumes, so no later
// request can read a stack that is gone; the next stop's reason is the
// action asked for ("step", "pause") unless a breakpoint or an exception
// came first.

package node

import (
	"context"
	"errors"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// resume runs the program with do, after forgetting the stop, and answers
// req itself with body: the response goes out before the stop that follows
// (stopped waits on stopGate), as clients that track state from the
// traffic need — a stopped event before the continue's response would read
// as running again.
func (s *Server) resume(ctx context.Context, req *godap.Request, body any, action string, do func(c *conn) error) (any, error) {
	c, err := s.inspector()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.paused == nil {
		s.mu.Unlock()
		return nil, errNotPaused
	}
	s.resetStop()
	s.lastAction = action
	s.mu.Unlock()
	s.stopGate.Lock()
	defer s.stopGate.Unlock()
	s.event("continued", godap.ContinuedEventBody{ThreadId: ThreadID, AllThreadsContinued: true})
	_, _ = call(ctx, c, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
	if err := do(c); err != nil && !errors.Is(err, ErrClosed) {
		return nil, err
	}
	// The inspector may close before it answers: the program ran to its
	// end, which exited and terminated report.
	s.respond(req, body)
	return nil, errNoBody
}

func (s *Server) continue_(ctx context.Context, req *godap.Request, _ []byte) (any, error) {
	return s.resume(ctx, req, godap.ContinueResponseBody{AllThreadsContinued: true}, "", func(c *conn) error {
		_, err := call(ctx, c, debugger.Resume, debugger.ResumeParams{})
		return err
	})
}

func (s *Server) next(ctx context.Context, req *godap.Request, _ []byte) (any, error) {
	return s.resume(ctx, req, nil, "step", func(c *conn) error {
		_, err := call(ctx, c, debugger.StepOver, debugger.StepOverParams{})
		return err
	})
}

func (s *Server) stepIn(ctx context.Context, req *godap.Request, _ []byte) (any, error) {
	return s.resume(ctx, req, nil, "step", func(c *conn) error {
		_, err := call(ctx, c, debugger.StepInto, debugger.StepIntoParams{})
		return err
	})
}

func (s *Server) stepOut(ctx context.Context, req *godap.Request, _ []byte) (any, error) {
	return s.resume(ctx, req, nil, "step", func(c *conn) error {
		_, err := call(ctx, c, debugger.StepOut, cdp.Empty{})
		return err
	})
}

func (s *Server) pause(ctx context.Context, _ *godap.Request, _ []byte) (any, error) {
	c, err := s.inspector()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	if s.paused != nil {
		s.mu.Unlock()
		return nil, nil // already paused
	}
	s.lastAction = "pause"
	s.mu.Unlock()
	_, err = call(ctx, c, debugger.Pause, cdp.Empty{})
	return nil, err
}
