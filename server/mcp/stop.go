// stop.go: the stop report every moving tool returns in one response — the
// reason, location, source lines around it, a bounded summary of the
// frame's locals, the watches (with changed since the previous stop), the
// enclosing symbol and its callers from code context — and the bounded wait
// with progress notifications that precedes it.

package mcp

import (
	"bufio"
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/internal/safefile"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/session"
)

const (
	sourceContext    = 3   // lines before and after the stop line
	maxStopLocals    = 25  // locals in a stop report
	maxStopValueLen  = 120 // chars of a local's value in a stop report
	maxVarValueLen   = 256
	maxSourceLineLen = 200
)

// SourceLine is one line of source around a location.
type SourceLine struct {
	Line    int    `json:"line"`
	Text    string `json:"text"`
	Current bool   `json:"current,omitempty"`
}

// LocalSummary is a local variable in a stop report.
type LocalSummary struct {
	Name      string `json:"name"`
	Type      string `json:"type,omitempty"`
	Value     string `json:"value"`
	Truncated bool   `json:"truncated,omitempty"`
}

// CodeContext is the code graph's view of a stop location.
type CodeContext struct {
	Symbol  string    `json:"symbol,omitempty"`
	Callers []CodeRef `json:"callers,omitempty"`
}

// CodeRef is a symbol + path pair.
type CodeRef struct {
	Symbol string `json:"symbol"`
	Path   string `json:"path,omitempty"`
}

// StopReport is what the moving tools return.
type StopReport struct {
	SessionID     string                   `json:"session_id"`
	ParentID      string                   `json:"parent_id,omitempty" desc:"a subprocess's session: its parent's"`
	Status        string                   `json:"status" desc:"paused | running (timed out) | completed | error"`
	Reason        string                   `json:"reason,omitempty"`
	Description   string                   `json:"description,omitempty"`
	Location      *session.StopLocation    `json:"location,omitempty"`
	Breakpoint    *session.BreakpointState `json:"breakpoint,omitempty"`
	Source        []SourceLine             `json:"source,omitempty"`
	Locals        []LocalSummary           `json:"locals,omitempty"`
	LocalsOmitted int                      `json:"locals_omitted,omitempty"`
	Code          *CodeContext             `json:"code,omitempty"`
	Watches       []WatchValue             `json:"watches,omitempty"`
	Outcome       *session.Outcome         `json:"outcome,omitempty"`
	// BreakpointErrors are breakpoints whose condition threw since the
	// previous stop (they did not stop there).
	BreakpointErrors []session.BreakpointError `json:"breakpoint_errors,omitempty"`
	// Missing names the parts of the report that could not be read, and why.
	Missing []string `json:"missing,omitempty"`
	Hint    string   `json:"hint,omitempty"`
}

func (r *StopReport) text() string {
	var b strings.Builder
	switch r.Status {
	case session.StatusPaused:
		l := r.Location
		if l.File == "" && l.Line == 0 { // a frame without source: a Jupyter kernel's namespace
			fmt.Fprintf(&b, "paused (%s) in %s [frame %d, thread %d]\n", r.Reason, l.Function, l.FrameID, l.ThreadID)
		} else {
			fmt.Fprintf(&b, "paused (%s) at %s:%d in %s [frame %d, thread %d]\n", r.Reason, l.File, l.Line, l.Function, l.FrameID, l.ThreadID)
		}
		if r.Description != "" && r.Description != r.Reason {
			fmt.Fprintf(&b, "%s\n", r.Description)
		}
	default:
		fmt.Fprintf(&b, "%s\n", r.Status)
	}
	if r.Code != nil && r.Code.Symbol != "" {
		fmt.Fprintf(&b, "in %s", r.Code.Symbol)
		if len(r.Code.Callers) > 0 {
			var cs []string
			for _, c := range r.Code.Callers {
				cs = append(cs, c.Symbol)
			}
			fmt.Fprintf(&b, " (called by %s)", strings.Join(cs, ", "))
		}
		b.WriteByte('\n')
	}
	for _, l := range r.Source {
		mark := "  "
		if l.Current {
			mark = "->"
		}
		fmt.Fprintf(&b, "%s %4d  %s\n", mark, l.Line, l.Text)
	}
	if len(r.Locals) > 0 {
		b.WriteString("locals:")
		for _, v := range r.Locals {
			fmt.Fprintf(&b, " %s=%s", v.Name, v.Value)
			if v.Type != "" {
				fmt.Fprintf(&b, " (%s)", v.Type)
			}
			b.WriteByte(';')
		}
		if r.LocalsOmitted > 0 {
			fmt.Fprintf(&b, " … %d more", r.LocalsOmitted)
		}
		b.WriteByte('\n')
	}
	for _, w := range r.Watches {
		b.WriteString(w.line())
		b.WriteByte('\n')
	}
	if r.Outcome != nil {
		b.WriteString(outcomeLine(r.Outcome))
		b.WriteByte('\n')
	}
	errs := r.BreakpointErrors
	if len(errs) == 0 && r.Outcome != nil {
		errs = r.Outcome.BreakpointErrors
	}
	for _, e := range errs {
		fmt.Fprintf(&b, "breakpoint %d at %s:%d: its %s threw %s (%s)\n", e.ID, e.File, e.Line, e.Kind, e.Error, e.Note)
	}
	for _, m := range r.Missing {
		fmt.Fprintf(&b, "missing: %s\n", m)
	}
	if r.Hint != "" {
		fmt.Fprintf(&b, "hint: %s\n", r.Hint)
	}
	return b.String()
}

// waitAndReport waits for the next stop (or the end) up to timeout seconds
// (0: the default wait; the tools' schemas bound it to 600), sending
// progress notifications, and builds the report.
func (s *Server) waitAndReport(ctx context.Context, c *call, sess *session.Session, timeoutSec float64) (*StopReport, error) {
	timeout := s.opts.WaitTimeout
	if timeoutSec > 0 {
		timeout = time.Duration(timeoutSec * float64(time.Second))
	}
	deadline := time.Now().Add(timeout)
	for {
		chunk := min(time.Until(deadline), time.Second)
		if chunk <= 0 {
			return s.stopReport(ctx, sess, session.Stop{Running: true})
		}
		if len(sess.Children()) > 0 {
			// A tree of processes: a stop of any child is the answer
			// (its report's session_id and parent_id say which).
			if p := sess.PausedInTree(); p != nil && p != sess {
				if st, err := p.Wait(ctx, chunk); err == nil && !st.Running {
					s.state(p.ID())
					return s.stopReport(ctx, p, st)
				}
			}
			chunk = min(chunk, 100*time.Millisecond)
		}
		st, err := sess.Wait(ctx, chunk)
		if err != nil {
			return nil, err
		}
		if !st.Running {
			return s.stopReport(ctx, sess, st)
		}
		c.progress(ctx, fmt.Sprintf("running for %.0fs", timeout.Seconds()-time.Until(deadline).Seconds()))
	}
}

// stopReport describes a stop (or running / the end).
func (s *Server) stopReport(ctx context.Context, sess *session.Session, st session.Stop) (*StopReport, error) {
	r := &StopReport{SessionID: sess.ID(), ParentID: sess.ParentID()}
	switch {
	case st.Exited:
		r.Status = sess.Status()
		if r.Status != session.StatusError && r.Status != session.StatusTerminated {
			r.Status = session.StatusCompleted
		}
		r.Outcome = sess.Outcome()
		r.Hint = "the program ended: debug_output shows what it printed"
		if o := r.Outcome; o != nil && o.Signal != 0 {
			r.Hint = fmt.Sprintf("the program was killed by %s (signal %d), not by an error of its own: debug_output shows what it printed before", o.SignalName, o.Signal)
		}
		if o := r.Outcome; o != nil && o.Ended == session.EndedLost {
			r.Hint = "the debugger lost the program before it ended (the outcome says why): debug_output shows what it printed until then"
		} else if o != nil && len(o.BreakpointErrors) > 0 {
			r.Hint = "a breakpoint's condition threw, so it never stopped: fix it with debug_set_breakpoints and run again"
		}
		return r, nil
	case st.Running || st.Location == nil:
		r.Status = session.StatusRunning
		r.Hint = "still running: call debug_wait again, or debug_pause"
		return r, nil
	}
	loc := *st.Location
	r.Status, r.Reason, r.Description, r.Location = session.StatusPaused, loc.Reason, loc.Description, &loc
	r.BreakpointErrors = st.BreakpointErrors
	if loc.Reason == "breakpoint" {
		if in := sess.Info(); in.LastBreakpoint != nil && in.LastBreakpoint.Line == loc.Line {
			r.Breakpoint = in.LastBreakpoint
		}
	}
	if loc.Reason == "exception" {
		r.Outcome = sess.Outcome()
		r.Hint = "stopped on an uncaught exception: inspect the frame, then debug_continue to let it end"
	}
	r.Source = sourceLines(loc.Path, loc.Line, sourceContext)
	if s.code != nil && loc.Path != "" {
		r.Code = s.code.enclosing(loc.Path, loc.Line)
	}
	st2 := s.state(sess.ID())
	// The report is bounded as a whole: what cannot be read in time is named
	// in Missing, never waited for.
	ctx, cancel := context.WithTimeout(ctx, reportBudget)
	defer cancel()
	// Locals are read now (an agent may have set a variable since the stop),
	// once: when this call took the stop's capture, that is it; the capture
	// taken at this stop is the fallback. A capture is this stop's by its
	// number, not by the frame id: ids are per stop, and the next stop may
	// hand out the same ones.
	var vars []VarValue
	var err error
	if snap := s.refreshAtStop(ctx, sess); snap != nil && snap.gen == st.Gen && snap.FrameID == loc.FrameID {
		vars = snap.Locals
	} else {
		vars, _, err = s.reportLocals(ctx, sess, loc.FrameID, 200)
	}
	if err == nil {
		r.Locals, r.LocalsOmitted = stopLocals(vars)
	}
	st2.mu.Lock()
	if last := st2.lastStop; r.Locals == nil && last != nil && last.gen == st.Gen && last.FrameID == loc.FrameID {
		r.Locals, r.LocalsOmitted = stopLocals(last.Locals)
	}
	if r.Locals == nil && err != nil {
		r.Missing = append(r.Missing, "locals: "+err.Error())
	}
	for _, w := range st2.watches {
		r.Watches = append(r.Watches, w.report())
	}
	st2.mu.Unlock()
	return r, nil
}

func stopLocals(vars []VarValue) ([]LocalSummary, int) {
	out := []LocalSummary{}
	for _, v := range vars {
		if len(out) == maxStopLocals {
			return out, len(vars) - maxStopLocals
		}
		out = append(out, LocalSummary{Name: v.Name, Type: v.Type, Value: clip.Bytes.Head(v.Value, maxStopValueLen),
			Truncated: len(v.Value) > maxStopValueLen || v.Truncated})
	}
	return out, 0
}

// reportBudget bounds building a stop report after the wait (locals,
// watches); what does not fit is reported as missing.
const reportBudget = 5 * time.Second

// reportLocals reads a frame's locals for stop reports and snapshots
// WITHOUT running user code: where the probe lists a frame's locals
// itself (Python) through its summaries
// (builtins by value, library values by their summary, other objects by
// class; no __repr__, __len__ or property of user classes), bounded in
// time. debugpy's own variables request would call every local's __repr__
// (a slow one stalls the session). JavaScript: the Block and Local scopes
// merged, summarised by the probe (jslocals.go). Other adapters read
// variables (Delve formats values itself, running no program code).
func (s *Server) reportLocals(ctx context.Context, sess *session.Session, frameID, limit int) ([]VarValue, int, error) {
	return s.reportLocalsWith(ctx, sess, frameID, limit, false)
}

// reportLocalsWith is reportLocals; fps: each value's fingerprint too
// (Python), for debug_diff to compare content under an unchanged summary.
func (s *Server) reportLocalsWith(ctx context.Context, sess *session.Session, frameID, limit int, fps bool) ([]VarValue, int, error) {
	if sess.Language() == inspect.JavaScript {
		return s.jsLocals(ctx, sess, frameID, limit, false) // jslocals.go
	}
	if !inspect.ListsLocals(sess.Language()) {
		return s.frameLocals(ctx, sess, frameID, limit)
	}
	items, err := inspect.SummariesWith(ctx, sess, frameID, nil, inspect.SummaryOptions{Timeout: time.Second, Fingerprints: fps})
	if err != nil {
		return nil, 0, err
	}
	out, omitted := []VarValue{}, 0
	for _, it := range items {
		if len(out) == limit {
			omitted++
			continue
		}
		v := it.Line()
		switch {
		case it.Skipped != "":
			v = "(not read: " + it.Skipped + ")"
		case it.Error != "":
			v = "(not read: " + it.Error + ")"
		}
		t := it.Type
		if i := strings.LastIndexByte(t, '.'); i >= 0 {
			t = t[i+1:]
		}
		vv := VarValue{Name: it.Name, Type: t, Value: v, fp: it.Fingerprint}
		if fps && it.Fingerprint == "" {
			vv.fpMissing = cmp.Or(it.FingerprintMissing, it.Skipped, it.Error, "no fingerprint")
			if it.Skipped != "" || it.Error != "" {
				vv.fpMissing = "not read: " + vv.fpMissing
			}
		}
		out = append(out, vv)
	}
	return out, omitted, nil
}

// refreshAtStop captures the frame's locals and re-evaluates watches once
// per stop (the stop follower and the moving tools share it); it returns
// the capture when this call took it.
func (s *Server) refreshAtStop(ctx context.Context, sess *session.Session) *snapshot {
	st := s.state(sess.ID())
	st.mu.Lock()
	defer st.mu.Unlock()
	gen := sess.StopCount()
	if _, paused := sess.Paused(); !paused || gen == st.refreshedGen {
		return nil
	}
	frame, err := sess.TopFrame(ctx)
	if err != nil {
		return nil
	}
	vars, omitted, err := s.reportLocalsWith(ctx, sess, frame.Id, 200, true)
	if err != nil || sess.StopCount() != gen {
		return nil // a newer stop came meanwhile: what was read may be of either
	}
	snap := &snapshot{SessionID: sess.ID(), FrameID: frame.Id, Location: s.frameLocation(frame), CapturedAt: time.Now(),
		Locals: vars, LocalsOmitted: omitted, gen: gen}
	st.prevStop, st.lastStop = st.lastStop, snap
	st.refreshedGen = gen
	if len(st.watches) == 0 {
		return snap
	}
	stack := []godap.StackFrame{frame} // enough unless a watch is bound to a function
	if slices.ContainsFunc(st.watches, func(w *watch) bool { return w.function != "" }) {
		if more, err := watchStack(ctx, sess, st.watches); err == nil && len(more) > 0 {
			stack = more
		}
	}
	for _, w := range st.watches {
		w.evaluate(ctx, sess, stack, gen)
	}
	return snap
}

func (s *Server) frameLocation(f godap.StackFrame) string {
	if f.Source == nil {
		return f.Name
	}
	return fmt.Sprintf("%s:%d (%s)", s.relPath(f.Source.Path), f.Line, f.Name)
}

// relPath makes p workspace-relative when it is inside the workspace.
func (s *Server) relPath(p string) string {
	if p == "" {
		return p
	}
	if r, ok := platform.Host.Rel(s.mgr.Workspace(), p); ok {
		return r
	}
	return p
}

// sourceLines reads the lines around line of the file at path.
func sourceLines(path string, line, around int) []SourceLine {
	if path == "" || line <= 0 {
		return nil
	}
	f, err := safefile.Open(path) // a regular file: never a FIFO or a device
	if err != nil {
		return nil
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	var out []SourceLine
	for n := 1; sc.Scan(); n++ {
		if n < line-around {
			continue
		}
		if n > line+around {
			break
		}
		t := clip.Bytes.Head(strings.TrimRight(sc.Text(), "\r"), maxSourceLineLen)
		out = append(out, SourceLine{Line: n, Text: t, Current: n == line})
	}
	return out
}

// sourceLine is the text of one line (for stack frames).
func sourceLine(path string, line int) string {
	for _, l := range sourceLines(path, line, 0) {
		return strings.TrimSpace(l.Text)
	}
	return ""
}

// outcomeLine is the outcome in the text of every tool that reports one
// (debug_outcome, debug_terminate, stop reports): its one word, Ended, in
// words.
func outcomeLine(o *session.Outcome) string {
	line := "outcome: " + o.Describe()
	if o.Ended == session.EndedTerminated {
		line = strings.Replace(line, "terminated by the user", "terminated by the user (debug_terminate)", 1)
	}
	return line
}
