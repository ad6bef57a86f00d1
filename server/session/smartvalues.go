// smartvalues.go: smart values in the editor's own views. For a proxied
// session the sidecar answers the editor's hover and watch evaluates and
// its variables requests with the adapter's own response in which the
// value of a recognised library value (DataFrame, Series, Index, ndarray,
// tensor, DataArray…; in Node sessions arrays of records, typed arrays and
// arrow/arquero tables) is replaced by dapscope's one-line summary. One
// probe call per response, within the mux's rewrite budget; anything that
// fails or is late leaves the adapter's response as it was. Every other
// byte of the message is the adapter's (see dap.SpliceStrings).
//
// The editor marks a value "changed since the last stop" when its text
// differs from the last stop's. A value written in place keeps its summary,
// so the Variables view's summaries come with the values' fingerprints
// (inspect's ValueSummary.Fingerprint, the one debug_diff compares): a
// fingerprint that changed under the same summary adds " · changed in
// place" (×N after N such changes) to the line, kept while the summary
// stays, so the text differs exactly when the content does.

package session

import (
	"context"
	"encoding/json"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/dap"
)

// maxTrackedRefs bounds the variablesReference → frame map; past it the
// map starts over (stale references only cost a missed summary).
const maxTrackedRefs = 20000

// smartValues is the session's mux.Rewriter.
type smartValues struct {
	t   inspect.Target
	log *slog.Logger
	on  atomic.Bool
	// preloaded: the probe was sent at the first stop.
	preloaded atomic.Bool

	mu     sync.Mutex
	frames map[int]int // variablesReference → the frame it belongs to
	// marks: the last line and fingerprint of each summarised variable, by
	// evaluateName (bounded as frames)
	marks map[string]*valueMark
}

// valueMark is what the Variables view last showed of a value: its summary,
// its fingerprint, and how many times its content changed under that
// summary.
type valueMark struct {
	line, fp string
	edits    int
}

func newSmartValues(t inspect.Target, log *slog.Logger, on bool) *smartValues {
	sv := &smartValues{t: t, log: log, frames: map[int]int{}, marks: map[string]*valueMark{}}
	sv.on.Store(on)
	return sv
}

// candidateType: the adapter's `type` of a value the summary can improve.
func (sv *smartValues) candidateType(t string) bool { return inspect.SummaryType(sv.t.Language(), t) }

// Wants implements mux.Rewriter.
func (sv *smartValues) Wants(command string, args json.RawMessage) bool {
	if !sv.on.Load() || !inspect.SupportsSummaries(sv.t.Language()) {
		return false
	}
	switch command {
	case "scopes", "variables":
		return true
	case "evaluate":
		var a struct {
			Context string `json:"context"`
		}
		_ = json.Unmarshal(args, &a)
		return a.Context == "hover" || a.Context == "watch"
	}
	return false
}

// Rewrite implements mux.Rewriter (the mux calls Prepare instead).
func (sv *smartValues) Rewrite(ctx context.Context, command string, args, resp json.RawMessage) []byte {
	if rewrite := sv.Prepare(command, args, resp); rewrite != nil {
		return rewrite(ctx)
	}
	return nil
}

// Prepare implements mux.Preparer: the bookkeeping and the choice of the
// values to summarise happen on the mux's read loop; only a response with
// a candidate value costs a probe call (the returned rewrite).
func (sv *smartValues) Prepare(command string, args, resp json.RawMessage) func(context.Context) []byte {
	switch command {
	case "scopes":
		sv.observeScopes(args, resp)
	case "variables":
		return sv.variables(args, resp)
	case "evaluate":
		return sv.evaluate(args, resp)
	}
	return nil
}

// preload installs the probe at the first stop of an editor's session, so
// that the first hover does not pay for sending its source.
func (sv *smartValues) preload(ctx context.Context, frame int) {
	if !sv.on.Load() || frame == 0 || sv.preloaded.Swap(true) {
		return
	}
	if _, err := inspect.Summaries(ctx, sv.t, frame, []inspect.Path{}, time.Second); err != nil {
		sv.log.Debug("smart values: probe not preloaded", "err", err)
	}
}

func (sv *smartValues) remember(ref, frame int) {
	if ref <= 0 || frame <= 0 {
		return
	}
	sv.mu.Lock()
	if len(sv.frames) >= maxTrackedRefs {
		sv.frames = map[int]int{}
	}
	sv.frames[ref] = frame
	sv.mu.Unlock()
}

func (sv *smartValues) frameOf(ref int) int {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	return sv.frames[ref]
}

func (sv *smartValues) observeScopes(args, resp json.RawMessage) {
	var a struct {
		FrameID int `json:"frameId"`
	}
	var r struct {
		Body struct {
			Scopes []struct {
				VariablesReference int `json:"variablesReference"`
			} `json:"scopes"`
		} `json:"body"`
	}
	if json.Unmarshal(args, &a) != nil || json.Unmarshal(resp, &r) != nil {
		return
	}
	for _, sc := range r.Body.Scopes {
		sv.remember(sc.VariablesReference, a.FrameID)
	}
}

func (sv *smartValues) variables(args, resp json.RawMessage) func(context.Context) []byte {
	var a struct {
		VariablesReference int `json:"variablesReference"`
	}
	var r struct {
		Body struct {
			Variables []struct {
				Type               string `json:"type"`
				EvaluateName       string `json:"evaluateName"`
				VariablesReference int    `json:"variablesReference"`
			} `json:"variables"`
		} `json:"body"`
	}
	if json.Unmarshal(args, &a) != nil || json.Unmarshal(resp, &r) != nil {
		return nil
	}
	frame := sv.frameOf(a.VariablesReference)
	if frame == 0 {
		return nil
	}
	var paths []inspect.Path
	var at []int
	var names []string
	for i, v := range r.Body.Variables {
		sv.remember(v.VariablesReference, frame) // children resolve in the same frame
		if !sv.candidateType(v.Type) || v.EvaluateName == "" {
			continue
		}
		if p, err := inspect.ParsePathFor(sv.t.Language(), v.EvaluateName); err == nil {
			paths, at, names = append(paths, p), append(at, i), append(names, v.EvaluateName)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	return func(ctx context.Context) []byte {
		lines, fps := sv.summaries(ctx, frame, paths, true)
		var edits []dap.StringEdit
		for k, line := range lines {
			if line != "" {
				line = sv.mark(names[k], line, fps[k])
				edits = append(edits, dap.StringEdit{Path: []string{"body", "variables", strconv.Itoa(at[k]), "value"}, Value: line})
			}
		}
		return sv.splice(resp, edits)
	}
}

func (sv *smartValues) evaluate(args, resp json.RawMessage) func(context.Context) []byte {
	var a struct {
		Expression string `json:"expression"`
		FrameID    int    `json:"frameId"`
	}
	var r struct {
		Body struct {
			Type               string `json:"type"`
			VariablesReference int    `json:"variablesReference"`
		} `json:"body"`
	}
	if json.Unmarshal(args, &a) != nil || json.Unmarshal(resp, &r) != nil || a.FrameID == 0 {
		return nil
	}
	sv.remember(r.Body.VariablesReference, a.FrameID) // its children, when expanded
	if !sv.candidateType(r.Body.Type) {
		return nil
	}
	p, err := inspect.ParsePathFor(sv.t.Language(), strings.TrimSpace(a.Expression))
	if err != nil {
		return nil // not a plain path (a call, an operator): leave it
	}
	return func(ctx context.Context) []byte {
		lines, _ := sv.summaries(ctx, a.FrameID, []inspect.Path{p}, false)
		if len(lines) != 1 || lines[0] == "" {
			return nil
		}
		return sv.splice(resp, []dap.StringEdit{{Path: []string{"body", "result"}, Value: lines[0]}})
	}
}

// summaries returns one line per path ("" where the value is not a
// recognised library value or could not be summarised) and, with fps, the
// values' fingerprints.
func (sv *smartValues) summaries(ctx context.Context, frame int, paths []inspect.Path, fps bool) ([]string, []string) {
	budget := 30 * time.Millisecond
	if dl, ok := ctx.Deadline(); ok {
		budget = time.Until(dl) * 6 / 10 // leave room for the round trip
	}
	got, err := inspect.SummariesWith(ctx, sv.t, frame, paths, inspect.SummaryOptions{Timeout: budget, Fingerprints: fps, FingerprintsInBudget: true})
	if err != nil {
		sv.log.Debug("smart values: summaries failed; the adapter's values stand", "err", err)
		return nil, nil
	}
	out, fp := make([]string, len(paths)), make([]string, len(paths))
	for i, v := range got {
		if i < len(out) && v.Recognized() {
			out[i], fp[i] = v.Line(), v.Fingerprint
		}
	}
	return out, fp
}

// mark is the line the Variables view shows for a value: its summary, and
// " · changed in place" (×N) once its fingerprint changed while the
// summary stayed, kept until the summary changes (the editor then sees
// the text change as it sees the content change). A value without a
// fingerprint keeps its last mark.
func (sv *smartValues) mark(name, line, fp string) string {
	sv.mu.Lock()
	defer sv.mu.Unlock()
	m := sv.marks[name]
	switch {
	case m == nil:
		if len(sv.marks) >= maxTrackedRefs {
			sv.marks = map[string]*valueMark{}
		}
		m = &valueMark{line: line, fp: fp}
		sv.marks[name] = m
	case m.line != line:
		m.line, m.fp, m.edits = line, fp, 0
	case fp != "" && m.fp != "" && fp != m.fp:
		m.fp = fp
		m.edits++
	case m.fp == "":
		m.fp = fp
	}
	switch {
	case m.edits == 1:
		return line + " · changed in place"
	case m.edits > 1:
		return line + " · changed in place ×" + strconv.Itoa(m.edits)
	}
	return line
}

func (sv *smartValues) splice(resp json.RawMessage, edits []dap.StringEdit) []byte {
	if len(edits) == 0 {
		return nil
	}
	b, err := dap.SpliceStrings(resp, edits)
	if err != nil {
		sv.log.Debug("smart values: splice failed", "err", err)
		return nil
	}
	return b
}
