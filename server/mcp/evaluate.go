// evaluate.go: debug_evaluate with an honest timeout. debugpy runs
// evaluations one at a time on the stopped thread and cannot cancel them,
// so an expression that outlives its timeout goes on running: the error
// says so (still_running), that the next request on the thread waits for
// it, and that retrying runs the expression again; the next evaluate says
// it waited, for how long, and for what.

package mcp

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/session"
)

// maxRunningEval bounds how long the server follows an evaluation that
// timed out (the adapter's own interrupt usually ends it much earlier).
const maxRunningEval = 10 * time.Minute

// runningEval is an evaluation that outlived its call.
type runningEval struct {
	expr    string
	started time.Time
	done    chan struct{}
}

func (s *Server) evaluate(ctx context.Context, sess *session.Session, p *evaluateArgs, timeout time.Duration) (*EvaluateResult, error) {
	st := s.state(sess.ID())
	start := time.Now()
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	var waited *runningEval
	st.mu.Lock()
	prev := st.running
	st.mu.Unlock()
	if prev != nil {
		select {
		case <-prev.done:
		default:
			select {
			case <-prev.done:
				waited = prev
			case <-deadline.C:
				return nil, &errcode.Error{Code: errcode.Timeout, Field: "timeout", StillRunning: true,
					Message: fmt.Sprintf("the previous evaluation (%s), started %s ago, is still running in the debuggee; this call waited %s for it and did not run %s",
						clip.Runes.Head(prev.expr, 80), roundDur(time.Since(prev.started)), roundDur(time.Since(start)), clip.Runes.Head(p.Expression, 80)),
					Hint: "wait (debug_wait) or retry later; the debuggee runs one evaluation at a time"}
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
	}
	type answer struct {
		b   godap.EvaluateResponseBody
		out session.EvalOutput
		err error
	}
	got := make(chan answer, 1)
	run := &runningEval{expr: p.Expression, started: time.Now(), done: make(chan struct{})}
	ectx, cancel := context.WithTimeout(s.bgCtx, maxRunningEval)
	go func() {
		defer cancel()
		defer close(run.done)
		b, out, err := sess.EvaluateOutput(ectx, p.Expression, p.FrameID, p.Context)
		got <- answer{b, out, err}
	}()
	select {
	case a := <-got:
		if a.err != nil {
			return nil, withPrinted(a.err, a.out)
		}
		r := &EvaluateResult{Expression: p.Expression, Result: a.b.Result, Type: a.b.Type, VariablesReference: a.b.VariablesReference}
		r.printed(a.out)
		r.readable(ctx, sess) // nested keys, multi-line strings (evaluate_render.go)
		if waited != nil {
			r.WaitedMs = time.Since(start).Milliseconds()
			r.WaitedFor = clip.Runes.Head(waited.expr, 80)
		}
		return r, nil
	case <-deadline.C:
	case <-ctx.Done():
	}
	st.mu.Lock()
	st.running = run
	st.mu.Unlock()
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	return nil, &errcode.Error{Code: errcode.Timeout, Field: "timeout", StillRunning: true,
		Message: fmt.Sprintf("the evaluation did not finish within %s and is still running in the debuggee (it cannot be cancelled; it runs until it ends%s)",
			roundDur(timeout), s.interruptNote(sess)),
		Hint: "the next request on this thread waits for it (debug_evaluate says how long); retrying runs the expression again, so do not retry a side-effecting one"}
}

// interruptNote says when the adapter interrupts a stuck evaluation.
func (s *Server) interruptNote(sess *session.Session) string {
	if d := sess.InterruptTimeout(); d > 0 {
		return fmt.Sprintf(" or debugpy interrupts it after %s", roundDur(d))
	}
	return ""
}

func roundDur(d time.Duration) time.Duration {
	if d > time.Second {
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Millisecond)
}

type evaluateArgs struct {
	SessionRef
	Expression string  `json:"expression"`
	FrameID    int     `json:"frame_id,omitempty"`
	Timeout    float64 `json:"timeout,omitempty" minimum:"0" maximum:"60"`
	Context    string  `json:"context,omitempty" enum:"repl,watch,hover"`
	// FrameIDs: with session_id "all" or a tree's root, the frame per session (allprocs.go).
	FrameIDs map[string]int `json:"frame_ids,omitempty" jsonschema:"per session id, for session_id all or a tree root"`
}

// EvaluateResult is an evaluated expression.
type EvaluateResult struct {
	Expression         string `json:"expression"`
	Result             string `json:"result"`
	Type               string `json:"type,omitempty"`
	VariablesReference int    `json:"variables_reference,omitempty"`
	WaitedMs           int64  `json:"waited_ms,omitempty" desc:"time spent waiting for an earlier evaluation that had timed out"`
	WaitedFor          string `json:"waited_for,omitempty" desc:"that earlier expression"`
	// Expanded: the adapter elided nested parts of Result; they were read
	// through its variables and put back (evaluate_render.go).
	Expanded bool `json:"expanded,omitempty"`
	// Text, Length, Lines: a multi-line string's text, unescaped (up to
	// 16 KB), its length in characters and its lines.
	Text   string `json:"text,omitempty"`
	Length int    `json:"length,omitempty"`
	Lines  int    `json:"lines,omitempty"`
	// Output: what the evaluation printed (evaluate_output.go).
	Output      string `json:"output,omitempty" desc:"what the evaluation printed (stdout and stderr, in order; its head)"`
	OutputBytes int    `json:"output_bytes,omitempty" desc:"how many bytes it printed in all, when output is only their head"`
	// Processes: every process's answer (session_id "all" or a tree's root; allprocs.go).
	Processes *ProcessTable `json:"processes,omitempty"`
}

func (r *EvaluateResult) text() string {
	if r.Processes != nil {
		return r.Processes.Text()
	}
	t := r.Expression + " = " + r.Result
	if r.Type != "" {
		t += " (" + r.Type + ")"
	}
	if r.Text != "" {
		n := strconv.Itoa(r.Length)
		fence := "```"
		for strings.Contains(r.Text, fence) {
			fence += "`"
		}
		t = fmt.Sprintf("%s = %s of %s characters, %d lines:\n%s\n%s\n%s", r.Expression, orDefault(r.Type, "string"), n, r.Lines,
			fence, strings.TrimSuffix(r.Text, "\n"), fence)
	}
	t += r.printedText()
	if r.WaitedFor != "" {
		t += fmt.Sprintf("\n(waited %d ms for the earlier evaluation %s to finish)", r.WaitedMs, r.WaitedFor)
	}
	return t
}
