// Package allprocs asks one question to every process of a tree (a
// multiprocessing run, a pool's workers; or every live session) at once,
// concurrently, each paused process in its top frame or the frame given for
// it, and answers one compact table: a row per process with the summary and
// the problems found, or why it has none (not paused, no such name). The
// byte budget covers the whole table. MCP's debug_inspect_variable and
// debug_evaluate (session_id "all" or a tree's root), the CLI's
// `dapscope inspect --all-processes` and the editor channel's
// dapscope/inspectProcesses (the VS Code "Compare across processes" view)
// all answer with it.
package allprocs

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

// All is the session id that asks every live session.
const All = "all"

// Row is one process's answer.
type Row struct {
	SessionID string `json:"session_id"`
	ParentID  string `json:"parent_id,omitempty"`
	// VSCodeSessionID and Name: the editor's debug session of the process
	// (the editor channel only).
	VSCodeSessionID string `json:"vscode_session_id,omitempty"`
	Name            string `json:"name,omitempty"`
	PID             int    `json:"pid,omitempty"`
	// Status is paused, or why there is no answer (running, completed…).
	Status   string   `json:"status"`
	Location string   `json:"location,omitempty"` // file:line of the frame asked
	Summary  string   `json:"summary,omitempty"`
	Problems []string `json:"problems,omitempty"`
	Error    string   `json:"error,omitempty"` // e.g. the name is not defined there
}

// Table is the answer of every process.
type Table struct {
	Expression string `json:"expression"`
	Rows       []Row  `json:"rows"`
	// Omitted rows did not fit the byte budget.
	Omitted int `json:"omitted,omitempty"`
}

// Process is one process to ask: its row's identity (session, parent, pid,
// status; an Error set beforehand is its answer) and how to reach it.
type Process struct {
	Row
	// Target is what the question runs on (nil: none; Row.Error says why).
	Target inspect.Target
	// Stop is the process's current stop: the file:line and the top frame
	// (frameID 0: let the inspector find it); nil when none is known.
	Stop func(ctx context.Context) (location string, frameID int)
}

// Ask is one process's answer to the question: its summary and problems.
type Ask func(ctx context.Context, p *Process, frameID int) (summary string, problems []string, err error)

// Sessions are the processes of sessions, in order.
func Sessions(sessions []*session.Session) []*Process {
	out := make([]*Process, len(sessions))
	for i, sess := range sessions {
		out[i] = OfSession(sess)
	}
	return out
}

// OfSession is a sidecar session as a process.
func OfSession(sess *session.Session) *Process {
	in := sess.Info()
	return &Process{Row: Row{SessionID: in.ID, ParentID: in.ParentID, PID: in.PID, Status: in.Status}, Target: sess,
		Stop: func(ctx context.Context) (string, int) {
			// The stop as the session recorded it (its top frame): a
			// process that has just paused may not have it yet.
			if st, err := sess.Wait(ctx, 5*time.Second); err == nil && st.Location != nil {
				return fmt.Sprintf("%s:%d", st.Location.File, st.Location.Line), st.Location.FrameID
			}
			return "", 0
		}}
}

// Live is every live (paused or running) session of list; NOT_FOUND when
// none is.
func Live(list []*session.Session) ([]*session.Session, error) {
	var out []*session.Session
	for _, ss := range list {
		if !ss.IsGroup() && (ss.Status() == session.StatusPaused || ss.Status() == session.StatusRunning) {
			out = append(out, ss)
		}
	}
	if len(out) == 0 {
		return nil, &errcode.Error{Code: errcode.NotFound, Field: "session_id", Message: "no live sessions"}
	}
	return out, nil
}

// TreeOf is sess's tree, or nil when it has no child process (an ordinary
// question to one session).
func TreeOf(sess *session.Session) []*session.Session {
	if len(sess.Children()) == 0 {
		return nil
	}
	return Groupless(sess.Tree()) // a cluster's root asks its tasks
}

// Groupless drops the roots that run no code (a Ray cluster's) from a set
// of sessions.
func Groupless(in []*session.Session) []*session.Session {
	out := in[:0:0]
	for _, s := range in {
		if !s.IsGroup() {
			out = append(out, s)
		}
	}
	return out
}

// Run asks every paused process concurrently (in frames[its session id],
// else its top frame) and fits the table to budget bytes. A process that is
// not paused, or has an Error already, is a row saying so.
func Run(ctx context.Context, procs []*Process, expr string, frames map[string]int, budget int, ask Ask) *Table {
	rows := make([]Row, len(procs))
	var wg sync.WaitGroup
	for i, p := range procs {
		row := p.Row
		switch {
		case row.Error != "" || p.Target == nil:
			if row.Error == "" {
				row.Error = "not reachable"
			}
			rows[i] = row
			continue
		case row.Status != session.StatusPaused:
			row.Error = "not paused"
			rows[i] = row
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			frame := frames[row.SessionID]
			if frame == 0 && row.VSCodeSessionID != "" {
				frame = frames[row.VSCodeSessionID]
			}
			if p.Stop != nil {
				loc, top := p.Stop(ctx)
				row.Location = loc
				if frame == 0 {
					frame = top
				}
			}
			sum, problems, err := ask(ctx, p, frame)
			if err != nil {
				row.Error = err.Error()
			}
			row.Summary, row.Problems = sum, problems
			rows[i] = row
		}()
	}
	wg.Wait()
	return fit(&Table{Expression: expr, Rows: rows}, budget)
}

// Inspect asks the smart inspector: the summary, and its warnings and a
// partial answer's timeouts as the problems.
func Inspect(o inspect.Options, expr string) Ask {
	return func(ctx context.Context, p *Process, frame int) (string, []string, error) {
		res, err := inspect.Inspect(ctx, p.Target, frame, expr, o)
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
	}
}

// fit clips summaries, problems and errors, then drops rows from the end,
// until the table's text fits budget bytes (the structured copy is the same
// size again).
func fit(t *Table, budget int) *Table {
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
func (t *Table) Text() string {
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
		if id == "" {
			id = clip.Runes.Head(r.Name, 24)
		}
		fmt.Fprintf(&b, "| %s | %d | %s | %s | %s | %s |\n", id, r.PID, r.Status, r.Location, cell(sum), cell(strings.Join(r.Problems, "; ")))
	}
	if t.Omitted > 0 {
		fmt.Fprintf(&b, "%d more processes left out to fit max_bytes\n", t.Omitted)
	}
	return b.String()
}

// cellEscapes keeps a cell on its row: one Replacer for every table (a
// Replacer built per cell cost more than the rest of the text).
var cellEscapes = strings.NewReplacer("|", "\\|", "\n", " ")

func cell(s string) string { return cellEscapes.Replace(s) }
