// tools_moving.go: the moving tools — debug_continue, debug_step,
// debug_pause, debug_wait. Each waits (by default) for the next stop with a
// timeout, reports progress while waiting, honours cancellation, and
// returns the stop report.

package mcp

import (
	"context"

	"github.com/dapscope/dapscope/server/session"
)

type moveArgs struct {
	SessionRef
	Wait    *bool   `json:"wait,omitempty"`
	Timeout float64 `json:"timeout,omitempty" minimum:"0" maximum:"600"`
}

type stepArgs struct {
	SessionRef
	Direction string  `json:"direction,omitempty" enum:"over,in,out"`
	Wait      *bool   `json:"wait,omitempty"`
	Timeout   float64 `json:"timeout,omitempty" minimum:"0" maximum:"600"`
}

type waitArgs struct {
	SessionRef
	Timeout float64 `json:"timeout,omitempty" minimum:"0" maximum:"600"`
}

const moreStop = "use debug_variables, debug_stack or debug_watch for details"

func (s *Server) registerMovingTools() {
	move := func(ctx context.Context, c *call, sessionID string, wait *bool, timeout float64, do func(*session.Session) error) (*StopReport, error) {
		sess, err := s.session(sessionID)
		if err != nil {
			return nil, err
		}
		s.state(sess.ID())
		if err := do(sess); err != nil {
			return nil, err
		}
		if wait != nil && !*wait {
			return s.stopReport(ctx, sess, session.Stop{Running: true})
		}
		return s.waitAndReport(ctx, c, sess, timeout)
	}

	addTool(s, toolSpec{name: "debug_continue", title: "Continue to the next stop",
		desc:  "Resume and wait for the next stop or the end (location, source, locals).",
		hints: hints{}, more: moreStop},
		func(ctx context.Context, c *call, p *moveArgs) (*StopReport, error) {
			return move(ctx, c, p.SessionID, p.Wait, p.Timeout, func(sess *session.Session) error { return sess.Continue(ctx) })
		})

	addTool(s, toolSpec{name: "debug_step", title: "Step over, into or out",
		desc:  "Step over, in or out; wait (as debug_continue).",
		hints: hints{}, more: moreStop},
		func(ctx context.Context, c *call, p *stepArgs) (*StopReport, error) {
			dir := p.Direction
			if dir == "" {
				dir = "over"
			}
			return move(ctx, c, p.SessionID, p.Wait, p.Timeout, func(sess *session.Session) error { return sess.Step(ctx, dir) })
		})

	addTool(s, toolSpec{name: "debug_pause", title: "Pause a running debuggee",
		desc:  "Pause a running debuggee and wait for the stop.",
		hints: hints{idempotent: true}, more: moreStop},
		func(ctx context.Context, c *call, p *moveArgs) (*StopReport, error) {
			return move(ctx, c, p.SessionID, p.Wait, p.Timeout, func(sess *session.Session) error { return sess.Pause(ctx) })
		})

	addTool(s, toolSpec{name: "debug_wait", title: "Wait for the next stop",
		desc:  "The current stop, else wait for the next stop or the end.",
		hints: hints{readOnly: true, idempotent: true}, more: moreStop},
		func(ctx context.Context, c *call, p *waitArgs) (*StopReport, error) {
			return move(ctx, c, p.SessionID, nil, p.Timeout, func(*session.Session) error { return nil })
		})
}
