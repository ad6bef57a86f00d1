// problems.go: every problem the inspector found, named in the text before
// anything a budget may drop: the columns with nulls, infinities or mixed
// element types, the all-null ones, duplicate rows, a non-unique index. A
// column table cut to fit max_bytes never hides the one column that
// matters, and a fact only the structured JSON had (duplicate_rows: 51,
// the cause of a bug) is in the text too. The lines are computed from the
// whole result once, before Fit or Cap drop any column (KeepProblems).

package inspect

import (
	"fmt"
	"sort"
	"strings"
)

// Bounds of the problem lines: the columns named with their counts per
// kind, and the bytes of one line (past them, names only, then a count).
const (
	maxNamedColumns = 6
	maxProblemLine  = 600
)

// KeepProblems computes r's problem lines from what r holds now, so the
// renderers show them even after columns were dropped to fit a budget.
func KeepProblems(r *Result) {
	if r.problems == nil {
		r.problems = computeProblems(r)
	}
}

// Problems are r's problem lines, as the renderers show them.
func Problems(r *Result) []string { return problemLines(r) }

// problemLines are r's problem lines ("nulls: label 1,653 (33%)",
// "duplicate rows: 51 (1.3%)"), the kept ones when there are.
func problemLines(r *Result) []string {
	if r.problems != nil {
		return r.problems
	}
	return computeProblems(r)
}

type namedCount struct {
	name string
	n    int64
	text string
}

func computeProblems(r *Result) []string {
	s := r.Structure
	out := []string{}
	if s == nil {
		return out
	}
	rows := int64(0)
	if len(s.Shape) > 0 {
		rows = s.Shape[0]
	}
	out = append(out, keyProblems(r, rows)...)
	if len(s.Columns) > 0 && r.DetectedType != TypeSeries {
		out = append(out, columnProblems(r, rows)...)
	}
	if st := r.Statistics; st != nil && st.DuplicateRows != nil && *st.DuplicateRows > 0 {
		l := "duplicate rows: " + commas(*st.DuplicateRows)
		if rows > 0 {
			l += " (" + percent(*st.DuplicateRows, rows) + ")"
		}
		if st.Rows != "" || st.ColumnScope != "" { // statistics that follow a selection
			of := rows
			if st.Count != nil {
				of = *st.Count
			}
			l = "duplicate rows in the selection: " + commas(*st.DuplicateRows)
			if of > 0 {
				l += " (" + percent(*st.DuplicateRows, of) + " of " + commas(of) + ")"
			}
		}
		out = append(out, l)
	}
	if st := r.Statistics; st != nil && st.DuplicateRowsNotComputed != "" {
		out = append(out, "duplicate rows: "+st.DuplicateRowsNotComputed)
	}
	if s.Index != nil && s.Index.IsUnique != nil && !*s.Index.IsUnique {
		l := "index: not unique (a label may select several rows)"
		if n := s.Index.Repeated; n != nil {
			what, name := "labels", "index"
			if s.Index.Levels > 1 {
				what = "label tuples"
				name = "index (" + strings.Join(anyStrings(s.Index.Names), ", ") + ")"
			}
			l = fmt.Sprintf("%s: %s repeated %s", name, commas(*n), what)
			if rows > 0 {
				l += " (" + percent(*n, rows) + ")"
			}
			l += " — not unique (a label may select several rows)"
		}
		out = append(out, l)
	}
	return out
}

// keyProblems name the columns that look like keys (key_like: an id-like
// name, a unique index of the same name, or nearly all distinct integers
// or strings) and yet repeat values:
// "order_id: 880 repeated values (1.7%) in 50,880 rows — a key with
// duplicates (a join may have fanned out)". They come first.
func keyProblems(r *Result, rows int64) []string {
	st := r.Statistics
	if st == nil {
		return nil
	}
	if st.Count != nil {
		rows = *st.Count
	}
	cols := st.Columns
	if len(cols) == 0 && st.KeyLike != "" { // a Series
		cols = []Statistics{*st}
		if cols[0].Name == "" && r.Structure != nil && len(r.Structure.Columns) == 1 {
			cols[0].Name = r.Structure.Columns[0].Name
		}
	}
	var out []string
	for _, c := range cols {
		if c.KeyLike == "" || c.Repeated == nil || *c.Repeated == 0 {
			continue
		}
		l := c.Name + ": " + plural(*c.Repeated, "repeated value")
		if rows > 0 {
			l += " (" + percent(*c.Repeated, rows) + ") in " + plural(rows, "row")
		}
		out = append(out, l+" — a key with duplicates (a join may have fanned out)")
	}
	return out
}

// anyStrings formats names of any type ("None" for a missing one).
func anyStrings(xs []any) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		if x == nil {
			out[i] = "None"
		} else {
			out[i] = fmt.Sprint(x)
		}
	}
	return out
}

func columnProblems(r *Result, rows int64) []string {
	s := r.Structure
	var nulls, allNull, infs, mixed []namedCount
	for _, c := range s.Columns {
		if c.NullCount == nil || *c.NullCount == 0 {
			continue
		}
		t := c.Name + " " + commas(*c.NullCount)
		if rows > 0 {
			t += " (" + percent(*c.NullCount, rows) + ")"
		}
		nulls = append(nulls, namedCount{c.Name, *c.NullCount, t})
		if rows > 0 && *c.NullCount == rows {
			allNull = append(allNull, namedCount{c.Name, 0, c.Name})
		}
	}
	if st := r.Statistics; st != nil {
		for _, c := range st.Columns {
			if c.InfCount != nil && *c.InfCount > 0 {
				infs = append(infs, namedCount{c.Name, *c.InfCount, c.Name + " " + commas(*c.InfCount)})
			}
			if len(c.ElementTypes) > 1 {
				types := make([]string, 0, len(c.ElementTypes))
				for t := range c.ElementTypes {
					types = append(types, t)
				}
				sort.Strings(types)
				mixed = append(mixed, namedCount{c.Name, int64(len(types)), c.Name + " (" + strings.Join(types, ", ") + ")"})
			}
		}
	}
	var out []string
	for _, k := range []struct {
		label string
		list  []namedCount
	}{{"nulls", nulls}, {"all null", allNull}, {"inf", infs}, {"mixed types", mixed}} {
		if len(k.list) > 0 {
			out = append(out, compactList(k.label, k.list))
		}
	}
	return out
}

// compactList names every column of a kind, most first: the first ones
// with their counts, the rest by name ("and 12 more: a, b, …"), and only
// past maxProblemLine bytes a count of the ones left unnamed.
func compactList(label string, list []namedCount) string {
	sort.SliceStable(list, func(i, j int) bool { return list[i].n > list[j].n })
	var b strings.Builder
	b.WriteString(label + ": ")
	for i, n := range list {
		if i == maxNamedColumns {
			fmt.Fprintf(&b, " and %d more:", len(list)-i)
		}
		sep, text := ", ", n.text
		switch {
		case i == 0:
			sep = ""
		case i == maxNamedColumns:
			sep = " "
		}
		if i >= maxNamedColumns {
			text = n.name
		}
		if b.Len()+len(sep)+len(text) > maxProblemLine {
			fmt.Fprintf(&b, "%s… %d not named (columns: [...] picks them)", sep, len(list)-i)
			break
		}
		b.WriteString(sep + text)
	}
	return b.String()
}

// percent is n of total as a short percentage ("33%", "0.1%", "<0.1%").
func percent(n, total int64) string {
	p := float64(n) * 100 / float64(total)
	switch {
	case p >= 10:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 0.1:
		return strings.TrimSuffix(strings.TrimSuffix(fmt.Sprintf("%.1f", p), "0"), ".") + "%"
	}
	return "<0.1%"
}
