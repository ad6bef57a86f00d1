// watches.go: debug_watch — expressions held per session, re-evaluated at
// each stop (in the top frame) and reported with `changed` against their
// value at the previous stop.

package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/session"
)

const maxWatches = 50

type watch struct {
	id, expr   string
	value, typ string
	errMsg     string
	prev       string
	hasPrev    bool
	changed    bool
	gen        int
	evaluated  bool
}

// evaluate refreshes the watch at stop generation gen.
func (w *watch) evaluate(ctx context.Context, sess *session.Session, frameID, gen int) {
	if w.evaluated && gen != w.gen {
		w.prev, w.hasPrev = w.value, w.errMsg == ""
	}
	b, err := sess.Evaluate(ctx, w.expr, frameID, "watch")
	w.gen, w.evaluated = gen, true
	if err != nil {
		w.value, w.typ, w.errMsg = "", "", err.Error()
		w.changed = false
		return
	}
	w.value, w.typ, w.errMsg = b.Result, b.Type, ""
	w.value = clip.Bytes.Head(w.value, maxVarValueLen)
	w.changed = w.hasPrev && w.prev != w.value
}

// WatchValue is a watch as reported.
type WatchValue struct {
	ID         string `json:"id"`
	Expression string `json:"expression"`
	Value      string `json:"value,omitempty"`
	Type       string `json:"type,omitempty"`
	Error      string `json:"error,omitempty"`
	Changed    bool   `json:"changed" desc:"the value differs from the one at the previous stop"`
	Previous   string `json:"previous,omitempty" desc:"the value at the previous stop (when changed)"`
	Pending    bool   `json:"pending,omitempty" desc:"not evaluated yet (the debuggee has not stopped since it was added)"`
}

func (w *watch) report() WatchValue {
	v := WatchValue{ID: w.id, Expression: w.expr, Value: w.value, Type: w.typ, Error: w.errMsg, Changed: w.changed, Pending: !w.evaluated}
	if w.changed {
		v.Previous = w.prev
	}
	return v
}

func (v WatchValue) line() string {
	switch {
	case v.Pending:
		return fmt.Sprintf("watch %s %s: (pending)", v.ID, v.Expression)
	case v.Error != "":
		return fmt.Sprintf("watch %s %s: error %s", v.ID, v.Expression, v.Error)
	case v.Changed:
		return fmt.Sprintf("watch %s %s = %s (changed from %s)", v.ID, v.Expression, v.Value, v.Previous)
	}
	return fmt.Sprintf("watch %s %s = %s", v.ID, v.Expression, v.Value)
}

type watchArgs struct {
	SessionRef
	Action     string `json:"action" mcp:"required" enum:"add,remove,list,clear,evaluate"`
	Expression string `json:"expression,omitempty" desc:"for add (and remove by expression)"`
	ID         string `json:"id,omitempty" desc:"for remove"`
}

// WatchResult lists the watches after the action.
type WatchResult struct {
	SessionID string       `json:"session_id"`
	Action    string       `json:"action"`
	Watches   []WatchValue `json:"watches"`
	Removed   int          `json:"removed,omitempty"`
}

func (r *WatchResult) text() string {
	if len(r.Watches) == 0 {
		return "no watches"
	}
	var b strings.Builder
	for _, w := range r.Watches {
		b.WriteString(w.line())
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *Server) registerWatchTools() {
	addTool(s, toolSpec{name: "debug_watch", title: "Watch expressions",
		desc: "Manage watch expressions (action add | remove | list | clear | evaluate). Watches are re-evaluated in the top frame at every stop " +
			"and appear in stop reports with changed=true when their value differs from the previous stop.",
		hints: hints{idempotent: false}},
		func(ctx context.Context, c *call, p *watchArgs) (*WatchResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			st := s.state(sess.ID())
			r := &WatchResult{SessionID: sess.ID(), Action: p.Action, Watches: []WatchValue{}}
			st.mu.Lock()
			defer st.mu.Unlock()
			switch p.Action {
			case "add":
				expr := strings.TrimSpace(p.Expression)
				if expr == "" {
					return nil, argError("expression", "required for add")
				}
				if len(st.watches) >= maxWatches {
					return nil, &session.Error{Code: session.CodeLimit, Message: fmt.Sprintf("at most %d watches per session", maxWatches)}
				}
				st.watchSeq++
				w := &watch{id: fmt.Sprintf("w%d", st.watchSeq), expr: expr}
				st.watches = append(st.watches, w)
				if _, paused := sess.Paused(); paused {
					if f, err := sess.TopFrame(ctx); err == nil {
						w.evaluate(ctx, sess, f.Id, sess.StopCount())
					}
				}
			case "remove":
				if p.ID == "" && p.Expression == "" {
					return nil, argError("id", "give id or expression to remove")
				}
				kept := st.watches[:0]
				for _, w := range st.watches {
					if w.id == p.ID || (p.Expression != "" && w.expr == strings.TrimSpace(p.Expression)) {
						r.Removed++
						continue
					}
					kept = append(kept, w)
				}
				st.watches = kept
				if r.Removed == 0 {
					return nil, &session.Error{Code: session.CodeNotFound, Field: "id", Message: "no such watch (see debug_watch action=list)"}
				}
			case "clear":
				r.Removed = len(st.watches)
				st.watches = nil
			case "evaluate":
				if _, paused := sess.Paused(); !paused {
					return nil, &session.Error{Code: session.CodeNotPaused, Message: "the debuggee is " + sess.Status()}
				}
				f, err := sess.TopFrame(ctx)
				if err != nil {
					return nil, err
				}
				gen := sess.StopCount()
				for _, w := range st.watches {
					w.evaluate(ctx, sess, f.Id, gen)
				}
			}
			for _, w := range st.watches {
				r.Watches = append(r.Watches, w.report())
			}
			return r, nil
		})
}
