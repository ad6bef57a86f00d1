// watches.go: debug_watch — expressions held per session, re-evaluated at
// each stop (in the top frame, or in the innermost frame of the function a
// watch is bound to) and reported with `changed` against their value at the
// previous stop; a name that does not resolve there is `not in scope`, an
// exception is the program's EVALUATION_ERROR.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/session"
)

const maxWatches = 50

type watch struct {
	id, expr   string
	function   string // evaluate in the innermost frame of this function
	value, typ string
	errMsg     string
	notInScope string // why the watch did not resolve at this stop
	frame      string // the function it was evaluated in
	prev       string
	hasPrev    bool
	changed    bool
	gen        int
	evaluated  bool
}

// evaluate refreshes the watch at stop generation gen, in the top frame
// or, for a watch bound to a function, in that function's innermost frame
// of the stack.
func (w *watch) evaluate(ctx context.Context, sess *session.Session, stack []godap.StackFrame, gen int) {
	if w.evaluated && gen != w.gen {
		if w.errMsg == "" && w.notInScope == "" {
			w.prev, w.hasPrev = w.value, true
		}
	}
	w.gen, w.evaluated = gen, true
	w.value, w.typ, w.errMsg, w.notInScope, w.changed = "", "", "", "", false
	frame, ok := w.frameIn(stack)
	if !ok {
		w.notInScope = "no frame of " + w.function + " on the stack"
		if w.function == "" {
			w.notInScope = "no frame"
		}
		return
	}
	w.frame = frame.Name
	b, err := sess.Evaluate(ctx, w.expr, frame.Id, "watch")
	if err != nil {
		var se *errcode.Error
		if errors.As(err, &se) && se.Code == errcode.EvaluationError && session.ParseEvalError(se.Message).NotInScope {
			w.notInScope = clip.Bytes.Head(se.Message, maxVarValueLen)
			return
		}
		w.errMsg = clip.Bytes.Head(err.Error(), maxVarValueLen)
		return
	}
	w.value, w.typ = clip.Bytes.Head(b.Result, maxVarValueLen), b.Type
	w.changed = w.hasPrev && w.prev != w.value
}

// frameIn picks the watch's frame: the top one, or the innermost frame
// of its function (matched by name or by the name's last dotted part, so
// "build_report" and Go's "main.buildReport" / "buildReport" both work).
func (w *watch) frameIn(stack []godap.StackFrame) (godap.StackFrame, bool) {
	if len(stack) == 0 {
		return godap.StackFrame{}, false
	}
	if w.function == "" {
		return stack[0], true
	}
	for _, f := range stack {
		name := f.Name
		if name == w.function || strings.HasSuffix(name, "."+w.function) {
			return f, true
		}
	}
	return godap.StackFrame{}, false
}

// watchStack is the stack the watches are evaluated against: the top frame
// only, unless a watch is bound to a function.
func watchStack(ctx context.Context, sess *session.Session, watches []*watch) ([]godap.StackFrame, error) {
	levels := 1
	for _, w := range watches {
		if w.function != "" {
			levels = 50
		}
	}
	return sess.StackTrace(ctx, 0, levels)
}

// WatchValue is a watch as reported.
type WatchValue struct {
	ID         string `json:"id"`
	Expression string `json:"expression"`
	Value      string `json:"value,omitempty"`
	Type       string `json:"type,omitempty"`
	Error      string `json:"error,omitempty" desc:"EVALUATION_ERROR: exception type and message"`
	NotInScope string `json:"not_in_scope,omitempty" desc:"why the expression does not resolve at this stop (not an error)"`
	Function   string `json:"function,omitempty" desc:"the function the watch is bound to"`
	Frame      string `json:"frame,omitempty" desc:"the frame it was evaluated in"`
	Changed    bool   `json:"changed" desc:"the value differs from the one at the previous stop"`
	Previous   string `json:"previous,omitempty" desc:"the value at the previous stop (when changed)"`
	Pending    bool   `json:"pending,omitempty" desc:"not evaluated yet (the debuggee has not stopped since it was added)"`
}

func (w *watch) report() WatchValue {
	v := WatchValue{ID: w.id, Expression: w.expr, Value: w.value, Type: w.typ, Error: w.errMsg, NotInScope: w.notInScope,
		Function: w.function, Frame: w.frame, Changed: w.changed, Pending: !w.evaluated}
	if w.function == "" {
		v.Frame = ""
	}
	if w.changed {
		v.Previous = w.prev
	}
	return v
}

func (v WatchValue) line() string {
	switch {
	case v.Pending:
		return fmt.Sprintf("watch %s %s: (pending)", v.ID, v.Expression)
	case v.NotInScope != "":
		return fmt.Sprintf("watch %s %s: not in scope (%s)", v.ID, v.Expression, v.NotInScope)
	case v.Error != "":
		return fmt.Sprintf("watch %s %s: error %s", v.ID, v.Expression, v.Error)
	case v.Changed:
		return fmt.Sprintf("watch %s %s = %s (changed from %s)", v.ID, v.Expression, v.Value, v.Previous)
	}
	return fmt.Sprintf("watch %s %s = %s", v.ID, v.Expression, v.Value)
}

type watchArgs struct {
	SessionRef
	Action     string `json:"action" enum:"add,remove,list,clear,evaluate"`
	Expression string `json:"expression,omitempty"`
	Function   string `json:"function,omitempty" jsonschema:"its frame"`
	ID         string `json:"id,omitempty"`
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
		desc:  "Watches: re-evaluated at each stop (top frame or their function's), changes flagged.",
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
			case "list":
				refreshWatchesIfStale(ctx, sess, st) // a kernel's are lazy (lazy.go)
			case "add":
				expr := strings.TrimSpace(p.Expression)
				if expr == "" {
					return nil, argError("expression", "required for add")
				}
				if len(st.watches) >= maxWatches {
					return nil, &errcode.Error{Code: errcode.LimitExceeded, Message: fmt.Sprintf("at most %d watches per session", maxWatches)}
				}
				st.watchSeq++
				w := &watch{id: fmt.Sprintf("w%d", st.watchSeq), expr: expr, function: strings.TrimSpace(p.Function)}
				st.watches = append(st.watches, w)
				if _, paused := sess.Paused(); paused {
					if stack, err := watchStack(ctx, sess, []*watch{w}); err == nil {
						w.evaluate(ctx, sess, stack, sess.StopCount())
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
					return nil, &errcode.Error{Code: errcode.NotFound, Field: "id", Message: "no such watch (see debug_watch action=list)"}
				}
			case "clear":
				r.Removed = len(st.watches)
				st.watches = nil
			case "evaluate":
				if _, paused := sess.Paused(); !paused {
					return nil, &errcode.Error{Code: errcode.NotPaused, Message: session.NotPausedText(sess.Status())}
				}
				stack, err := watchStack(ctx, sess, st.watches)
				if err != nil {
					return nil, err
				}
				gen := sess.StopCount()
				for _, w := range st.watches {
					w.evaluate(ctx, sess, stack, gen)
				}
			}
			for _, w := range st.watches {
				r.Watches = append(r.Watches, w.report())
			}
			return r, nil
		})
}
