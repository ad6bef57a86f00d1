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

// resume runs the program with do, after forgetting the stop.
func (s *Server) resume(ctx context.Context, action string, do func(c *conn) error) error {
	c, err := s.inspector()
	if err != nil {
		return err
	}
	s.mu.Lock()
	if s.paused == nil {
		s.mu.Unlock()
		return errNotPaused
	}
	s.resetStop()
	s.lastAction = action
	s.mu.Unlock()
	s.event("continued", godap.ContinuedEventBody{ThreadId: ThreadID, AllThreadsContinued: true})
	_, _ = call(ctx, c, runtime.ReleaseObjectGroup, runtime.ReleaseObjectGroupParams{ObjectGroup: objectGroup})
	if err := do(c); err != nil && !errors.Is(err, ErrClosed) {
		return err
	}
	// The inspector may close before it answers: the program ran to its
	// end, which exited and terminated report.
	return nil
}

func (s *Server) continue_(ctx context.Context, _ *godap.Request, _ []byte) (any, error) {
	err := s.resume(ctx, "", func(c *conn) error {
		_, err := call(ctx, c, debugger.Resume, debugger.ResumeParams{})
		return err
	})
	return godap.ContinueResponseBody{AllThreadsContinued: true}, err
}

func (s *Server) next(ctx context.Context, _ *godap.Request, _ []byte) (any, error) {
	return nil, s.resume(ctx, "step", func(c *conn) error {
		_, err := call(ctx, c, debugger.StepOver, debugger.StepOverParams{})
		return err
	})
}

func (s *Server) stepIn(ctx context.Context, _ *godap.Request, _ []byte) (any, error) {
	return nil, s.resume(ctx, "step", func(c *conn) error {
		_, err := call(ctx, c, debugger.StepInto, debugger.StepIntoParams{})
		return err
	})
}

func (s *Server) stepOut(ctx context.Context, _ *godap.Request, _ []byte) (any, error) {
	return nil, s.resume(ctx, "step", func(c *conn) error {
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
