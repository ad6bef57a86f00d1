// allprocs.go: one question to every process of a tree. With session_id
// "all" (every live session) or the id of a session that has child
// sessions (its tree: a multiprocessing run, a pool's workers),
// debug_inspect_variable and debug_evaluate ask each paused process at
// once, in its top frame or the frame_ids given per session, and answer
// one compact table (server/allprocs, which the CLI and the editor channel
// use too).

package mcp

import (
	"context"
	"strings"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/session"
)

// AllSessions is the session_id that asks every live session.
const AllSessions = allprocs.All

// ProcessRow is one process's answer.
type ProcessRow = allprocs.Row

// ProcessTable is the answer of every process.
type ProcessTable = allprocs.Table

// processSet is the sessions an all-processes question goes to (nil: an
// ordinary question to one session).
func (s *Server) processSet(id string) ([]*session.Session, error) {
	if strings.TrimSpace(id) == AllSessions {
		return allprocs.Live(s.mgr.List())
	}
	sess, err := s.session(id)
	if err != nil {
		return nil, err
	}
	return allprocs.TreeOf(sess), nil
}

// inspectAll is debug_inspect_variable across processes.
func (s *Server) inspectAll(ctx context.Context, sessions []*session.Session, p *inspectArgs, o inspect.Options, budget int) *InspectResult {
	t := allprocs.Run(ctx, allprocs.Sessions(sessions), p.Expression, p.FrameIDs, budget, allprocs.Inspect(o, p.Expression))
	return &InspectResult{Processes: t, text_: t.Text()}
}

// evaluateAll is debug_evaluate across processes.
func (s *Server) evaluateAll(ctx context.Context, sessions []*session.Session, p *evaluateArgs, timeout time.Duration) *EvaluateResult {
	t := allprocs.Run(ctx, allprocs.Sessions(sessions), p.Expression, p.FrameIDs, defaultInspectBytes, func(ctx context.Context, pr *allprocs.Process, frame int) (string, []string, error) {
		q := *p
		q.FrameID = frame
		r, err := s.evaluate(ctx, pr.Target.(*session.Session), &q, timeout)
		if err != nil {
			return "", nil, err
		}
		return r.Result, nil, nil
	})
	return &EvaluateResult{Expression: p.Expression, Processes: t}
}
