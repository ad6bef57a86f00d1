// tools_output.go: debug_output (captured stdout/stderr, paged by absolute
// offset, bounded) and debug_outcome (completed, exit code, exception
// type/message/traceback).

package mcp

import (
	"context"
	"fmt"

	"github.com/dapscope/dapscope/server/session"
)

// defaultOutputLimit is the default page of output. Text and structured
// content both carry the page, so two pages must fit the response cap:
// limit is at most 40 KB (its schema says so).
const defaultOutputLimit = 16 * 1024

type outputArgs struct {
	SessionRef
	Offset int64 `json:"offset,omitempty" minimum:"0"`
	Limit  int   `json:"limit,omitempty" minimum:"1" maximum:"40960"`
	// Category picks one stream; each has its own offsets.
	Category string `json:"category,omitempty" enum:"program,stdout,stderr,console,debugger"`
}

// OutputResult is one page of captured output.
type OutputResult struct {
	SessionID  string `json:"session_id"`
	Category   string `json:"category,omitempty"`
	Offset     int64  `json:"offset" desc:"absolute offset of data"`
	NextOffset int64  `json:"next_offset" desc:"where the next page starts"`
	Data       string `json:"data"`
	More       bool   `json:"more,omitempty" desc:"more output after next_offset"`
	Dropped    int64  `json:"dropped,omitempty" desc:"bytes dropped from the start of the buffer (oldest first)"`
	Total      int64  `json:"total" desc:"bytes ever written"`
	// LostEvents / LostBytes: output that never reached the buffer (the
	// program printed faster than the sidecar read); stops never are.
	LostEvents int64       `json:"lost_events,omitempty"`
	LostBytes  int64       `json:"lost_bytes,omitempty" desc:"about how much output they carried"`
	Truncated  *Truncation `json:"truncated,omitempty"`
}

func (r *OutputResult) text() string {
	t := r.Data
	if r.More {
		t += fmt.Sprintf("\n[more output: call debug_output with offset=%d]", r.NextOffset)
	}
	if r.Dropped > 0 && r.Offset > 0 && r.Offset == r.Dropped {
		t = fmt.Sprintf("[%d earlier bytes were dropped]\n", r.Dropped) + t
	}
	if r.LostEvents > 0 {
		t = fmt.Sprintf("[%d output events (about %s) were lost: the program printed faster than the sidecar read; not in any offset]\n",
			r.LostEvents, human(r.LostBytes)) + t
	}
	return t
}

type outcomeArgs struct {
	SessionRef
}

// OutcomeResult is how the program ended.
type OutcomeResult struct {
	SessionID string           `json:"session_id"`
	Status    string           `json:"status"`
	Outcome   *session.Outcome `json:"outcome,omitempty"`
	Hint      string           `json:"hint,omitempty"`
}

func (r *OutcomeResult) text() string {
	t := "status " + r.Status
	if r.Outcome != nil {
		t += "; " + outcomeLine(r.Outcome)
		if r.Outcome.Traceback != "" {
			t += "\n" + r.Outcome.Traceback
		}
	}
	if r.Hint != "" {
		t += "\nhint: " + r.Hint
	}
	return t
}

func (s *Server) registerOutputTools() {
	addTool(s, toolSpec{name: "debug_output", title: "Program output",
		desc:  "Captured output by offset: the program's, one category, or the debugger's.",
		hints: hints{readOnly: true, idempotent: true}, more: "page with a smaller limit"},
		func(ctx context.Context, c *call, p *outputArgs) (*OutputResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			limit := p.Limit
			if limit == 0 {
				limit = defaultOutputLimit
			}
			page, err := sess.OutputOf(p.Category, p.Offset, limit)
			if err != nil {
				return nil, err
			}
			r := &OutputResult{SessionID: sess.ID(), Category: p.Category, Offset: page.Offset, NextOffset: page.NextOffset, Data: page.Data, More: page.More, Total: page.Total,
				LostEvents: page.LostEvents, LostBytes: page.LostBytes}
			if page.Truncated {
				r.Dropped = page.Dropped
			}
			if page.More {
				r.Truncated = &Truncation{Omitted: page.Total - page.NextOffset,
					Notice: fmt.Sprintf("more output: call debug_output with offset=%d", page.NextOffset)}
			}
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_outcome", title: "How the program ended",
		desc:  "How the run ended (exited, terminated, crashed, killed, lost) and why.",
		hints: hints{readOnly: true, idempotent: true}},
		func(ctx context.Context, c *call, p *outcomeArgs) (*OutcomeResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			r := &OutcomeResult{SessionID: sess.ID(), Status: sess.Status(), Outcome: sess.Outcome()}
			if r.Outcome == nil {
				r.Hint = "the program has not ended yet: debug_continue or debug_wait"
			}
			return r, nil
		})
}
