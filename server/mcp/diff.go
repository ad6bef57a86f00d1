// diff.go: debug_diff — added/removed/changed variables between two
// snapshots, a snapshot and now, or the previous and the current stop; for
// inspected values the changes inside them (valdiff.go: keys, items,
// attributes, fields, cells) and, for DataFrames/arrays, the shape,
// null-count and statistic changes.

package mcp

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strings"

	"github.com/dapscope/dapscope/errcode"
)

// registerDiffTools adds debug_diff.
func (s *Server) registerDiffTools() {
	addTool(s, toolSpec{name: "debug_diff", title: "What changed",
		desc:  "Changes between snapshots (or stops, or now), down to keys, items and cells.",
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
					return nil, &errcode.Error{Code: errcode.NotFound, Field: field, Message: fmt.Sprintf("no snapshot %q (see debug_snapshot action=list)", id)}
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
					if sess.IsKernel() {
						return nil, &errcode.Error{Code: errcode.NotFound, Message: "the namespace has been read only once since the last cell ran; run a cell and call debug_diff again, or give snapshot ids (debug_snapshot)"}
					}
					return nil, &errcode.Error{Code: errcode.NotFound, Message: "fewer than two stops were seen in this session; give snapshot ids (debug_snapshot) or step first"}
				}
				fromName, toName = diffEnds(sess) // a kernel's ends: lazy.go
			}
			return diffSnapshots(from, to, fromName, toName), nil
		})
}

type diffArgs struct {
	SessionRef
	From string `json:"from,omitempty" jsonschema:"default: previous stop"`
	To   string `json:"to,omitempty" jsonschema:"default: now"`
}

// VarChange is one changed variable.
type VarChange struct {
	Name   string `json:"name"`
	Type   string `json:"type,omitempty"`
	Before string `json:"before"`
	After  string `json:"after"`
	// Content: the summary is the same but the content is not (the
	// values' fingerprints differ); where to see the changed cells.
	Content string `json:"content,omitempty"`
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
	Values        []ValueChange `json:"values,omitempty" desc:"paths inside the value that changed (before empty: added; after empty: removed)"`
	ValuesOmitted int           `json:"values_omitted,omitempty" desc:"further changed paths not listed"`
	Notes         []string      `json:"notes,omitempty" desc:"what was not compared, and why"`
	Error         string        `json:"error,omitempty"`
}

// DiffResult is what changed between two captures.
type DiffResult struct {
	From         string      `json:"from"`
	To           string      `json:"to"`
	FromLocation string      `json:"from_location,omitempty"`
	ToLocation   string      `json:"to_location,omitempty"`
	Added        []VarValue  `json:"added,omitempty"`
	Removed      []VarValue  `json:"removed,omitempty"`
	Changed      []VarChange `json:"changed,omitempty"`
	Unchanged    int         `json:"unchanged"`
	// NotCompared are the values whose summaries are the same but whose
	// content could not be compared (a fingerprint missing at either end),
	// with why: they are not counted as unchanged.
	NotCompared []NotCompared `json:"not_compared,omitempty"`
	Inspections []InspectDiff `json:"inspections,omitempty"`
}

// NotCompared is a value debug_diff could not compare, and why.
type NotCompared struct {
	Name   string `json:"name"`
	Reason string `json:"reason"`
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
		if v.Content != "" {
			fmt.Fprintf(&b, "~ %s: content %s: %s\n", v.Name, v.Content, v.After)
			continue
		}
		fmt.Fprintf(&b, "~ %s: %s → %s\n", v.Name, v.Before, v.After)
	}
	for _, d := range r.Inspections {
		fmt.Fprintf(&b, "%s:", d.Expression)
		if d.Error != "" {
			fmt.Fprintf(&b, " %s\n", d.Error)
			continue
		}
		if len(d.Changes) == 0 && len(d.Values) == 0 {
			b.WriteString(" unchanged")
			for _, n := range d.Notes {
				fmt.Fprintf(&b, " (%s)", n)
			}
			b.WriteByte('\n')
			continue
		}
		b.WriteByte('\n')
		for _, c := range d.Changes {
			fmt.Fprintf(&b, "  %s: %s → %s\n", c.Field, compact(c.Before), compact(c.After))
		}
		for _, v := range d.Values {
			switch {
			case v.Before == "":
				fmt.Fprintf(&b, "  + %s = %s\n", v.Path, v.After)
			case v.After == "":
				fmt.Fprintf(&b, "  - %s (was %s)\n", v.Path, v.Before)
			default:
				fmt.Fprintf(&b, "  %s: %s → %s\n", v.Path, v.Before, v.After)
			}
		}
		if d.ValuesOmitted > 0 {
			fmt.Fprintf(&b, "  … %d more changed paths\n", d.ValuesOmitted)
		}
		for _, n := range d.Notes {
			fmt.Fprintf(&b, "  note: %s\n", n)
		}
	}
	fmt.Fprintf(&b, "%d unchanged", r.Unchanged)
	if len(r.NotCompared) > 0 {
		fmt.Fprintf(&b, ", %d not compared:", len(r.NotCompared))
		for i, n := range r.NotCompared {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, " %s (%s)", n.Name, n.Reason)
		}
	}
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
		case old.fp != "" && v.fp != "" && old.fp != v.fp:
			c := VarChange{Name: v.Name, Type: v.Type, Before: old.Value, After: v.Value, Content: "changed under the same summary"}
			if _, ok := from.Inspections[v.Name]; ok {
				c.Content += " (its changed cells: below)"
			} else {
				c.Content += fmt.Sprintf(" (its changed cells: debug_snapshot inspect=[%q], then debug_diff from it)", v.Name)
			}
			r.Changed = append(r.Changed, c)
		case old.fpMissing != "" || v.fpMissing != "":
			why := v.fpMissing
			if old.fpMissing != "" && old.fpMissing != v.fpMissing {
				was := old.fpMissing + " at " + fromName
				why = cmp.Or(why+"; "+was, was)
				if v.fpMissing == "" {
					why = was
				}
			}
			r.NotCompared = append(r.NotCompared, NotCompared{Name: v.Name, Reason: why})
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
			vd := &valueDiff{goLang: to.GoLang, nested: func(path string) (json.RawMessage, json.RawMessage) {
				return from.Nested[path], to.Nested[path]
			}}
			vd.diffValues(e, from.Inspections[e], after)
			d.Values, d.ValuesOmitted, d.Notes = vd.changes, vd.omitted, vd.notes
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
		cmp("statistics."+f, counter(f, xst[f], yst[f]), counter(f, yst[f], xst[f]))
	}
	xsc, ysc := byName(xst["columns"]), byName(yst["columns"])
	for _, n := range unionKeys(xsc, ysc) {
		p, q := xsc[n], ysc[n]
		if p == nil || q == nil {
			continue
		}
		for _, f := range statFields {
			cmp("statistics."+n+"."+f, counter(f, p[f], q[f]), counter(f, q[f], p[f]))
		}
	}
	return out
}

// counter reads an absent zero counter (the inspector leaves nan_count,
// inf_count and zeros out when zero) as 0 when the other side has a count.
func counter(field string, v, other any) any {
	switch field {
	case "nan_count", "inf_count", "zeros":
		if v == nil && other != nil {
			return 0.0
		}
	}
	return v
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
