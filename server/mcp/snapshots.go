// snapshots.go: debug_snapshot (capture a frame's locals, safe-repr bounded,
// plus smart inspections of chosen expressions, stored under an id within
// the memory budget; list; delete) and debug_diff (added/removed/changed
// variables between two snapshots, a snapshot and now, or the previous and
// current stop; for DataFrames/arrays the shape, null and statistic changes).

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

const (
	maxSnapshotLocals   = 200
	maxSnapshotInspects = 10
)

// snapshot is a stored capture of a frame.
type snapshot struct {
	ID            string                     `json:"id,omitempty"`
	Label         string                     `json:"label,omitempty"`
	SessionID     string                     `json:"session_id"`
	FrameID       int                        `json:"frame_id"`
	Location      string                     `json:"location,omitempty"`
	CapturedAt    time.Time                  `json:"captured_at"`
	Locals        []VarValue                 `json:"locals"`
	LocalsOmitted int                        `json:"locals_omitted,omitempty"`
	Inspections   map[string]json.RawMessage `json:"inspections,omitempty"`
	Summaries     map[string]string          `json:"summaries,omitempty"`
	InspectErrors map[string]string          `json:"inspect_errors,omitempty"`
	Bytes         int64                      `json:"bytes,omitempty"`
}

// SnapshotInfo describes a stored snapshot.
type SnapshotInfo struct {
	ID         string            `json:"id"`
	Label      string            `json:"label,omitempty"`
	Location   string            `json:"location,omitempty"`
	CapturedAt time.Time         `json:"captured_at"`
	Variables  int               `json:"variables"`
	Inspected  map[string]string `json:"inspected,omitempty" desc:"expression → summary"`
	Errors     map[string]string `json:"errors,omitempty" desc:"expression → why it could not be inspected"`
	Bytes      int64             `json:"bytes"`
}

func (sn *snapshot) info() SnapshotInfo {
	return SnapshotInfo{ID: sn.ID, Label: sn.Label, Location: sn.Location, CapturedAt: sn.CapturedAt,
		Variables: len(sn.Locals), Inspected: sn.Summaries, Errors: sn.InspectErrors, Bytes: sn.Bytes}
}

type snapshotArgs struct {
	SessionRef
	Action  string   `json:"action,omitempty" enum:"capture,list,delete" desc:"default capture"`
	FrameID int      `json:"frame_id,omitempty" desc:"frame to capture (default: top frame)"`
	Inspect []string `json:"inspect,omitempty" desc:"expressions to smart-inspect into the snapshot (max 10), e.g. [\"df\"]"`
	Label   string   `json:"label,omitempty"`
	ID      string   `json:"id,omitempty" desc:"snapshot to delete"`
}

// SnapshotResult is the outcome of a snapshot action.
type SnapshotResult struct {
	SessionID   string         `json:"session_id"`
	Action      string         `json:"action"`
	Snapshot    *SnapshotInfo  `json:"snapshot,omitempty"`
	Snapshots   []SnapshotInfo `json:"snapshots,omitempty"`
	Deleted     string         `json:"deleted,omitempty"`
	StoredBytes int64          `json:"stored_bytes" desc:"bytes held by all snapshots"`
	BudgetBytes int64          `json:"budget_bytes" desc:"memory budget for snapshots and output"`
}

func (r *SnapshotResult) text() string {
	var b strings.Builder
	line := func(i SnapshotInfo) {
		fmt.Fprintf(&b, "%s %s: %d variables at %s, %s", i.ID, i.Label, i.Variables, i.Location, human(i.Bytes))
		for _, e := range sortedKeys(i.Inspected) {
			fmt.Fprintf(&b, "\n  %s: %s", e, i.Inspected[e])
		}
		for _, e := range sortedKeys(i.Errors) {
			fmt.Fprintf(&b, "\n  %s: error %s", e, i.Errors[e])
		}
		b.WriteByte('\n')
	}
	switch {
	case r.Snapshot != nil:
		line(*r.Snapshot)
	case r.Deleted != "":
		fmt.Fprintf(&b, "deleted %s\n", r.Deleted)
	case len(r.Snapshots) == 0:
		b.WriteString("no snapshots\n")
	}
	for _, i := range r.Snapshots {
		line(i)
	}
	fmt.Fprintf(&b, "stored %s of %s budget", human(r.StoredBytes), human(r.BudgetBytes))
	return b.String()
}

// capture reads a frame into a snapshot (not stored).
func (s *Server) capture(ctx context.Context, sess *session.Session, frameID int, exprs []string) (*snapshot, error) {
	frameID, err := s.frameOrTop(ctx, sess, frameID)
	if err != nil {
		return nil, err
	}
	sn := &snapshot{SessionID: sess.ID(), FrameID: frameID, CapturedAt: time.Now()}
	if frames, err := sess.StackTrace(ctx, 0, 50); err == nil {
		for _, f := range frames {
			if f.Id == frameID {
				sn.Location = s.frameLocation(f)
			}
		}
	}
	if sn.Locals, sn.LocalsOmitted, err = s.reportLocals(ctx, sess, frameID, maxSnapshotLocals); err != nil {
		return nil, err
	}
	for _, e := range exprs {
		if sn.Inspections == nil {
			sn.Inspections, sn.Summaries, sn.InspectErrors = map[string]json.RawMessage{}, map[string]string{}, map[string]string{}
		}
		if s.inspect == nil {
			sn.InspectErrors[e] = "smart inspection is not available in this build"
			continue
		}
		res, err := s.inspect(ctx, sess, frameID, e, inspectOpts{})
		if err != nil {
			sn.InspectErrors[e] = toolError(err).Message
			continue
		}
		sn.Inspections[e], sn.Summaries[e] = res.JSON, res.Summary
	}
	if len(sn.InspectErrors) == 0 {
		sn.InspectErrors = nil
	}
	b, _ := json.Marshal(sn)
	sn.Bytes = int64(len(b))
	return sn, nil
}

func (s *Server) registerSnapshotTools() {
	addTool(s, toolSpec{name: "debug_snapshot", title: "Snapshot a frame",
		desc: "Capture a frame's locals (bounded safe reprs) and, optionally, smart inspections of chosen expressions, stored under an id for debug_diff " +
			"(action capture, default); list or delete snapshots. Stored snapshots count against the memory budget.",
		hints: hints{}, more: "list fewer snapshots or delete old ones"},
		func(ctx context.Context, c *call, p *snapshotArgs) (*SnapshotResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			st := s.state(sess.ID())
			action := p.Action
			if action == "" {
				action = "capture"
			}
			r := &SnapshotResult{SessionID: sess.ID(), Action: action}
			switch action {
			case "capture":
				if len(p.Inspect) > maxSnapshotInspects {
					return nil, argError("inspect", "at most %d expressions", maxSnapshotInspects)
				}
				sn, err := s.capture(ctx, sess, p.FrameID, p.Inspect)
				if err != nil {
					return nil, err
				}
				sn.ID, sn.Label = s.nextID("s"), p.Label
				if err := s.budget.reserve(sn.ID, sn.Bytes, s.outputBytes()); err != nil {
					return nil, err
				}
				st.mu.Lock()
				st.snapshots[sn.ID] = sn
				st.order = append(st.order, sn.ID)
				st.mu.Unlock()
				info := sn.info()
				r.Snapshot = &info
			case "list":
				st.mu.Lock()
				for _, id := range st.order {
					r.Snapshots = append(r.Snapshots, st.snapshots[id].info())
				}
				st.mu.Unlock()
			case "delete":
				if p.ID == "" {
					return nil, argError("id", "required for delete")
				}
				st.mu.Lock()
				_, ok := st.snapshots[p.ID]
				if ok {
					delete(st.snapshots, p.ID)
					for i, id := range st.order {
						if id == p.ID {
							st.order = append(st.order[:i], st.order[i+1:]...)
							break
						}
					}
				}
				st.mu.Unlock()
				if !ok {
					return nil, &session.Error{Code: session.CodeNotFound, Field: "id", Message: fmt.Sprintf("no snapshot %q in this session", p.ID)}
				}
				s.budget.release(p.ID)
				r.Deleted = p.ID
			}
			r.StoredBytes, r.BudgetBytes = s.budget.stored(), s.opts.MemoryBudget
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_diff", title: "What changed",
		desc: "Differences between two snapshots (from, to), a snapshot and the current frame (from only), or the previous and the current stop (neither): " +
			"added/removed/changed variables and, for inspected DataFrames/arrays, shape, null-count and statistic changes.",
		hints: hints{readOnly: true, idempotent: true}, more: "diff fewer snapshots' inspections"},
		func(ctx context.Context, c *call, p *diffArgs) (*DiffResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			st := s.state(sess.ID())
			get := func(field, id string) (*snapshot, error) {
				st.mu.Lock()
				defer st.mu.Unlock()
				sn, ok := st.snapshots[id]
				if !ok {
					return nil, &session.Error{Code: session.CodeNotFound, Field: field, Message: fmt.Sprintf("no snapshot %q (see debug_snapshot action=list)", id)}
				}
				return sn, nil
			}
			var from, to *snapshot
			var fromName, toName string
			switch {
			case p.From == "" && p.To != "":
				return nil, argError("from", "required when to is given")
			case p.From != "":
				if from, err = get("from", p.From); err != nil {
					return nil, err
				}
				fromName = p.From
				if p.To != "" {
					if to, err = get("to", p.To); err != nil {
						return nil, err
					}
					toName = p.To
				} else {
					exprs := sortedKeys(from.Inspections)
					if to, err = s.capture(ctx, sess, 0, exprs); err != nil {
						return nil, err
					}
					toName = "now"
				}
			default:
				s.refreshAtStop(ctx, sess)
				st.mu.Lock()
				from, to = st.prevStop, st.lastStop
				st.mu.Unlock()
				if from == nil || to == nil {
					return nil, &session.Error{Code: session.CodeNotFound, Message: "fewer than two stops were seen in this session; give snapshot ids (debug_snapshot) or step first"}
				}
				fromName, toName = "previous stop", "current stop"
			}
			return diffSnapshots(from, to, fromName, toName), nil
		})
}

type diffArgs struct {
	SessionRef
	From string `json:"from,omitempty" desc:"snapshot id (default: the previous stop)"`
	To   string `json:"to,omitempty" desc:"snapshot id (default: now, or the current stop when from is empty too)"`
}

// VarChange is one changed variable.
type VarChange struct {
	Name   string `json:"name"`
	Type   string `json:"type,omitempty"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// FieldChange is one changed fact of an inspected value.
type FieldChange struct {
	Field  string `json:"field"`
	Before any    `json:"before,omitempty"`
	After  any    `json:"after,omitempty"`
}

// InspectDiff compares two inspections of one expression.
type InspectDiff struct {
	Expression    string        `json:"expression"`
	BeforeSummary string        `json:"before_summary,omitempty"`
	AfterSummary  string        `json:"after_summary,omitempty"`
	Changes       []FieldChange `json:"changes,omitempty"`
	Error         string        `json:"error,omitempty"`
}

// DiffResult is what changed between two captures.
type DiffResult struct {
	From         string        `json:"from"`
	To           string        `json:"to"`
	FromLocation string        `json:"from_location,omitempty"`
	ToLocation   string        `json:"to_location,omitempty"`
	Added        []VarValue    `json:"added,omitempty"`
	Removed      []VarValue    `json:"removed,omitempty"`
	Changed      []VarChange   `json:"changed,omitempty"`
	Unchanged    int           `json:"unchanged"`
	Inspections  []InspectDiff `json:"inspections,omitempty"`
}

func (r *DiffResult) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "diff %s (%s) → %s (%s)\n", r.From, r.FromLocation, r.To, r.ToLocation)
	for _, v := range r.Added {
		fmt.Fprintf(&b, "+ %s = %s\n", v.Name, v.Value)
	}
	for _, v := range r.Removed {
		fmt.Fprintf(&b, "- %s (was %s)\n", v.Name, v.Value)
	}
	for _, v := range r.Changed {
		fmt.Fprintf(&b, "~ %s: %s → %s\n", v.Name, v.Before, v.After)
	}
	for _, d := range r.Inspections {
		fmt.Fprintf(&b, "%s:", d.Expression)
		if d.Error != "" {
			fmt.Fprintf(&b, " %s\n", d.Error)
			continue
		}
		if len(d.Changes) == 0 {
			b.WriteString(" unchanged\n")
			continue
		}
		b.WriteByte('\n')
		for _, c := range d.Changes {
			fmt.Fprintf(&b, "  %s: %s → %s\n", c.Field, compact(c.Before), compact(c.After))
		}
	}
	fmt.Fprintf(&b, "%d unchanged", r.Unchanged)
	return b.String()
}

func compact(v any) string {
	if v == nil {
		return "∅"
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func diffSnapshots(from, to *snapshot, fromName, toName string) *DiffResult {
	r := &DiffResult{From: fromName, To: toName, FromLocation: from.Location, ToLocation: to.Location}
	before := map[string]VarValue{}
	for _, v := range from.Locals {
		before[v.Name] = v
	}
	seen := map[string]bool{}
	for _, v := range to.Locals {
		seen[v.Name] = true
		old, ok := before[v.Name]
		switch {
		case !ok:
			r.Added = append(r.Added, VarValue{Name: v.Name, Type: v.Type, Value: v.Value, Truncated: v.Truncated})
		case old.Value != v.Value || old.Type != v.Type:
			r.Changed = append(r.Changed, VarChange{Name: v.Name, Type: v.Type, Before: old.Value, After: v.Value})
		default:
			r.Unchanged++
		}
	}
	for _, v := range from.Locals {
		if !seen[v.Name] {
			r.Removed = append(r.Removed, VarValue{Name: v.Name, Type: v.Type, Value: v.Value, Truncated: v.Truncated})
		}
	}
	for _, e := range sortedKeys(from.Inspections) {
		d := InspectDiff{Expression: e, BeforeSummary: from.Summaries[e]}
		after, ok := to.Inspections[e]
		if !ok {
			d.Error = "not inspected in " + toName
			if msg := to.InspectErrors[e]; msg != "" {
				d.Error += ": " + msg
			}
		} else {
			d.AfterSummary = to.Summaries[e]
			d.Changes = diffInspections(from.Inspections[e], after)
		}
		if d.AfterSummary == d.BeforeSummary {
			d.AfterSummary = ""
		}
		r.Inspections = append(r.Inspections, d)
	}
	return r
}

// statFields are the statistics compared between inspections.
var statFields = []string{"count", "min", "max", "mean", "std", "nan_count", "inf_count", "zeros", "distinct", "true_count"}

// diffInspections compares two inspect results as generic JSON: shape,
// length, dtype, columns (added/removed, dtype, null counts) and statistics
// (whole value and per column).
func diffInspections(a, b json.RawMessage) []FieldChange {
	var x, y map[string]any
	_ = json.Unmarshal(a, &x)
	_ = json.Unmarshal(b, &y)
	var out []FieldChange
	cmp := func(field string, p, q any) {
		if !sameJSON(p, q) {
			out = append(out, FieldChange{Field: field, Before: p, After: q})
		}
	}
	cmp("type", x["type"], y["type"])
	xs, _ := x["structure"].(map[string]any)
	ys, _ := y["structure"].(map[string]any)
	for _, f := range []string{"shape", "length", "size", "dtype"} {
		cmp(f, xs[f], ys[f])
	}
	xc, yc := byName(xs["columns"]), byName(ys["columns"])
	for _, n := range unionKeys(xc, yc) {
		p, pok := xc[n]
		q, qok := yc[n]
		switch {
		case !pok:
			out = append(out, FieldChange{Field: "columns." + n, After: "added"})
		case !qok:
			out = append(out, FieldChange{Field: "columns." + n, Before: "present", After: "removed"})
		default:
			cmp("columns."+n+".dtype", p["dtype"], q["dtype"])
			cmp("columns."+n+".null_count", p["null_count"], q["null_count"])
		}
	}
	xst, _ := x["statistics"].(map[string]any)
	yst, _ := y["statistics"].(map[string]any)
	for _, f := range statFields {
		cmp("statistics."+f, xst[f], yst[f])
	}
	xsc, ysc := byName(xst["columns"]), byName(yst["columns"])
	for _, n := range unionKeys(xsc, ysc) {
		p, q := xsc[n], ysc[n]
		if p == nil || q == nil {
			continue
		}
		for _, f := range statFields {
			cmp("statistics."+n+"."+f, p[f], q[f])
		}
	}
	return out
}

func sameJSON(p, q any) bool {
	if pf, ok := p.(float64); ok {
		if qf, ok := q.(float64); ok {
			return pf == qf || math.Abs(pf-qf) <= 1e-12*math.Max(math.Abs(pf), math.Abs(qf))
		}
	}
	return reflect.DeepEqual(p, q)
}

func byName(v any) map[string]map[string]any {
	arr, _ := v.([]any)
	out := map[string]map[string]any{}
	for _, e := range arr {
		if m, ok := e.(map[string]any); ok {
			if n, ok := m["name"].(string); ok {
				out[n] = m
			}
		}
	}
	return out
}

func unionKeys(a, b map[string]map[string]any) []string {
	set := map[string]bool{}
	for k := range a {
		set[k] = true
	}
	for k := range b {
		set[k] = true
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
