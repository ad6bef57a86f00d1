// allprocs.go: one question to every process of a tree. With session_id
// "all" (every live session) or the id of a session that has child
// sessions (its tree: a multiprocessing run, a pool's workers),
// debug_inspect_variable and debug_evaluate ask each paused process at
// once, concurrently, in its top frame or the frame_ids given per session,
// and answer one compact table: a row per process with the summary and
// the problems found, or why it has none (not paused, no such name). The
// byte budget covers the whole table.

package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/session"
)

// AllSessions is the session_id that asks every live session.
const AllSessions = "all"

// ProcessRow is one process's answer.
type ProcessRow struct {
	SessionID string `json:"session_id"`
	ParentID  string `json:"parent_id,omitempty"`
	PID       int    `json:"pid,omitempty"`
	// Status is paused, or why there is no answer (running, completed…).
	Status   string   `json:"status"`
	Location string   `json:"location,omitempty"` // file:line of the frame asked
	Summary  string   `json:"summary,omitempty"`
	Problems []string `json:"problems,omitempty"`
	Error    string   `json:"error,omitempty"` // e.g. the name is not defined there
}

// ProcessTable is the answer of every process.
type ProcessTable struct {
	Expression string       `json:"expression"`
	Rows       []ProcessRow `json:"rows"`
	// Omitted rows did not fit the byte budget.
	Omitted int `json:"omitted,omitempty"`
}

// processSet is the sessions an all-processes question goes to (nil: an
// ordinary question to one session).
func (s *Server) processSet(id string) ([]*session.Session, error) {
	id = strings.TrimSpace(id)
	if id == AllSessions {
		var out []*session.Session
		for _, ss := range groupless(s.mgr.List()) {
			if ss.Status() == session.StatusPaused || ss.Status() == session.StatusRunning {
				out = append(out, ss)
			}
		}
		if len(out) == 0 {
			return nil, &errcode.Error{Code: errcode.NotFound, Field: "session_id", Message: "no live sessions"}
		}
		return out, nil
	}
	sess, err := s.session(id)
	if err != nil {
		return nil, err
	}
	if len(sess.Children()) == 0 {
		return nil, nil
	}
	return groupless(sess.Tree()), nil // a cluster's root asks its tasks
}

// AskAll runs one question per session concurrently (each paused one in
// frames[id], else its top frame) and fits the table to budget bytes; ask
// returns the summary and the problems of one process. The CLI's
// `dapscope inspect --all-processes` uses it too.
func AskAll(ctx context.Context, sessions []*session.Session, expr string, frames map[string]int, budget int,
	ask func(ctx context.Context, sess *session.Session, frameID int) (string, []string, error)) *ProcessTable {
	rows := make([]ProcessRow, len(sessions))
	var wg sync.WaitGroup
	for i, sess := range sessions {
		in := sess.Info()
		row := ProcessRow{SessionID: in.ID, ParentID: in.ParentID, PID: in.PID, Status: in.Status}
		if in.Status != session.StatusPaused {
			row.Error = "not paused"
			rows[i] = row
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			// The stop as the session recorded it (its top frame): a
			// process that has just paused may not have it yet.
			frame := frames[in.ID]
			if st, err := sess.Wait(ctx, 5*time.Second); err == nil && st.Location != nil {
				row.Location = fmt.Sprintf("%s:%d", st.Location.File, st.Location.Line)
				if frame == 0 {
					frame = st.Location.FrameID
				}
			}
			sum, problems, err := ask(ctx, sess, frame)
			if err != nil {
				row.Error = err.Error()
			}
			row.Summary, row.Problems = sum, problems
			rows[i] = row
		}()
	}
	wg.Wait()
	return fitTable(&ProcessTable{Expression: expr, Rows: rows}, budget)
}

// fitTable clips summaries, problems and errors, then drops rows from the
// end, until the table's text fits budget bytes (the structured copy is
// the same size again).
func fitTable(t *ProcessTable, budget int) *ProcessTable {
	room := budget/2 - 200
	for _, width := range []int{400, 160, 80, 40} {
		for i := range t.Rows {
			r := &t.Rows[i]
			r.Summary = clip.Bytes.Head(r.Summary, width)
			r.Error = clip.Bytes.Head(r.Error, width)
			if len(r.Problems) > 3 {
				r.Problems = append(r.Problems[:3:3], fmt.Sprintf("… %d more", len(r.Problems)-3))
			}
			for j := range r.Problems {
				r.Problems[j] = clip.Bytes.Head(r.Problems[j], width)
			}
		}
		if len(t.Text()) <= room {
			return t
		}
	}
	for len(t.Rows) > 1 && len(t.Text()) > room {
		t.Rows = t.Rows[:len(t.Rows)-1]
		t.Omitted++
	}
	return t
}

// Text is the table as markdown.
func (t *ProcessTable) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s in %d processes\n", t.Expression, len(t.Rows)+t.Omitted)
	b.WriteString("| session | pid | status | where | summary | problems |\n|---|---|---|---|---|---|\n")
	for _, r := range t.Rows {
		sum := r.Summary
		if r.Error != "" {
			sum = "(" + r.Error + ")"
		}
		id := r.SessionID
		if len(id) > 8 {
			id = id[:8]
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", id, r.PID, r.Status, r.Location, cell(sum), cell(strings.Join(r.Problems, "; ")))
	}
	if t.Omitted > 0 {
		fmt.Fprintf(&b, "%d more processes left out to fit max_bytes\n", t.Omitted)
	}
	return b.String()
}

func cell(s string) string {
	return strings.NewReplacer("|", "\\|", "\n", " ").Replace(s)
}

// inspectAll is debug_inspect_variable across processes.
func (s *Server) inspectAll(ctx context.Context, sessions []*session.Session, p *inspectArgs, o inspect.Options, budget int) *InspectResult {
	t := AskAll(ctx, sessions, p.Expression, p.FrameIDs, budget, func(ctx context.Context, sess *session.Session, frame int) (string, []string, error) {
		res, err := s.inspectTarget(ctx, sess, frame, p.Expression, o)
		if err != nil {
			return "", nil, err
		}
		// The problems found (nulls, all-null columns, duplicates…), then
		// the inspector's warnings.
		problems := append(append([]string(nil), inspect.Problems(res)...), res.Warnings...)
		if res.Partial {
			problems = append(problems, "partial: timed out on "+strings.Join(res.TimedOut, ", "))
		}
		return res.Summary, problems, nil
	})
	return &InspectResult{Processes: t, text_: t.Text()}
}

// evaluateAll is debug_evaluate across processes.
func (s *Server) evaluateAll(ctx context.Context, sessions []*session.Session, p *evaluateArgs, timeout time.Duration) *EvaluateResult {
	t := AskAll(ctx, sessions, p.Expression, p.FrameIDs, defaultInspectBytes, func(ctx context.Context, sess *session.Session, frame int) (string, []string, error) {
		q := *p
		q.FrameID = frame
		r, err := s.evaluate(ctx, sess, &q, timeout)
		if err != nil {
			return "", nil, err
		}
		return r.Result, nil, nil
	})
	return &EvaluateResult{Expression: p.Expression, Processes: t}
}
