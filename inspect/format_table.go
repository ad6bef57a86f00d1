// This file holds what the tui and markdown layouts share: the facts under
// the title, the COLUMNS and PREVIEW tables built from a Result, the
// statistics line, and renderTable's width-aware layout of a table in runes.

package inspect

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/dapscope/dapscope/inspect/clip"
)

// facts returns the key/value lines shown under the title.
func facts(r *Result) [][2]string {
	var out [][2]string
	add := func(k, v string) {
		if v != "" {
			out = append(out, [2]string{k, v})
		}
	}
	add("Type", r.Type)
	s := r.Structure
	if s == nil {
		return out
	}
	if len(s.Shape) > 0 {
		dims := make([]string, len(s.Shape))
		for i, d := range s.Shape {
			dims[i] = commas(d)
		}
		add("Shape", strings.Join(dims, " × "))
	} else if s.Length != nil {
		add("Length", commas(*s.Length))
	}
	if s.Dtype != "" && r.DetectedType != TypeDataFrame {
		add("Dtype", s.Dtype)
	}
	if s.MemoryBytes != nil {
		m := HumanBytes(*s.MemoryBytes)
		if s.MemoryEstimated {
			m += " (shallow; object data not counted)"
		}
		add("Memory", m)
	} else if s.Nbytes != nil {
		add("Memory", HumanBytes(*s.Nbytes))
	}
	if s.Index != nil {
		idx := s.Index.Type
		if s.Index.Start != nil && s.Index.Stop != nil {
			idx += fmt.Sprintf(" %d..%d", *s.Index.Start, *s.Index.Stop)
		}
		if s.Index.IsUnique != nil && !*s.Index.IsUnique {
			idx += " (not unique)"
		}
		add("Index", idx)
	}
	if s.Class != "" && r.DetectedType != TypeCallable {
		add("Class", s.Class)
	}
	if s.Signature != "" {
		add("Signature", s.Signature)
	}
	if s.Value != nil || r.DetectedType == TypeNone {
		add("Value", clip.Bytes.Head(r.cell(s.Value), 200))
	}
	if s.Device != "" {
		add("Device", s.Device)
	}
	if s.Depth != nil && *s.Depth > 1 {
		add("Depth", itoa(int64(*s.Depth)))
	}
	return append(out, xarrayFacts(s)...)
}

func columnTable(r *Result) ([]string, [][]string) {
	s := r.Structure
	if s == nil || len(s.Columns) == 0 || r.DetectedType == TypeSeries {
		return nil, nil
	}
	stats := map[string]*Statistics{}
	if r.Statistics != nil {
		for i := range r.Statistics.Columns {
			c := &r.Statistics.Columns[i]
			if _, dup := stats[c.Name]; !dup {
				stats[c.Name] = c
			}
		}
	}
	head := []string{"Name", "Type", "Nulls", "Min", "Max", "Mean", "Distinct"}
	var rows [][]string
	for _, c := range s.Columns {
		row := []string{c.Name, c.Dtype, "", "", "", "", ""}
		if c.NullCount != nil {
			row[2] = commas(*c.NullCount)
		}
		if st := stats[c.Name]; st != nil {
			row[3], row[4], row[5] = r.stat(st.Min), r.stat(st.Max), r.stat(st.Mean)
			if st.Distinct != nil {
				row[6] = commas(*st.Distinct)
				if st.DistinctEstimated {
					row[6] = "~" + row[6]
				}
			}
			if len(st.TopValues) > 0 && row[3] == "" {
				row[3] = "top: " + r.cell(st.TopValues[0].Value)
			}
		}
		rows = append(rows, row)
	}
	return dropEmptyColumns(head, rows)
}

func (r *Result) stat(v any) string {
	if v == nil {
		return ""
	}
	return clip.Bytes.Head(r.cell(v), 24)
}

// cell is a value's text in the result's language: booleans print
// JavaScript's way (true/false) for the JavaScript probe, Python's
// (True/False) otherwise; null is null in both.
func (r *Result) cell(v any) string {
	if b, ok := v.(bool); ok && r.Language == "javascript" {
		if b {
			return "true"
		}
		return "false"
	}
	return cellText(v)
}

func dropEmptyColumns(head []string, rows [][]string) ([]string, [][]string) {
	keep := make([]bool, len(head))
	for j := range head {
		keep[j] = j < 2
		for _, r := range rows {
			if r[j] != "" {
				keep[j] = true
				break
			}
		}
	}
	pick := func(in []string) []string {
		var out []string
		for j, x := range in {
			if keep[j] {
				out = append(out, x)
			}
		}
		return out
	}
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = pick(r)
	}
	return pick(head), out
}

// previewTable returns a header and rows for tables, Series and containers;
// nil when the preview is better shown as text.
func previewTable(r *Result) ([]string, [][]string) {
	p := r.Preview
	if p == nil {
		p = &Preview{}
	}
	if len(p.Head) > 0 {
		head := append([]string{""}, p.Columns...)
		var rows [][]string
		add := func(rs []Row) {
			for _, row := range rs {
				cells := []string{cellText(row.Index)}
				for _, v := range row.Values {
					cells = append(cells, clip.Bytes.Head(r.cell(v), 40))
				}
				rows = append(rows, cells)
			}
		}
		add(p.Head)
		if len(p.Tail) > 0 && p.OmittedRows > 0 {
			dots := make([]string, len(head))
			for i := range dots {
				dots[i] = "…"
			}
			rows = append(rows, dots)
			add(p.Tail)
		}
		return head, rows
	}
	if len(p.Items) > 0 {
		keyed := p.Items[0].Key != nil
		head := []string{"Index", "Value", "Type"}
		if keyed {
			head[0] = "Key"
		}
		var rows [][]string
		add := func(items []Item) {
			for _, it := range items {
				k := ""
				if it.Index != nil {
					k = itoa(*it.Index)
				}
				if keyed {
					k = r.cell(it.Key)
				}
				rows = append(rows, []string{clip.Bytes.Head(k, 40), clip.Runes.Head(untyped(r.cell(it.Value), it.Type), 80), it.Type})
			}
		}
		add(p.Items)
		if len(p.TailItems) > 0 {
			rows = append(rows, []string{"…", "…", ""})
			add(p.TailItems)
		}
		return dropEmptyColumns(head, rows)
	}
	if s := r.Structure; s != nil && len(s.Attributes) > 0 {
		var rows [][]string
		for _, a := range s.Attributes {
			rows = append(rows, []string{a.Name, a.Type, clip.Runes.Head(untyped(a.Repr, a.Type), 80)})
		}
		return []string{"Attribute", "Type", "Value"}, rows
	}
	return nil, nil
}

func previewText(r *Result) string {
	p := r.Preview
	if p == nil {
		return ""
	}
	switch {
	case p.Text != "":
		return p.Text
	case p.Values != nil:
		return arrayText(p.Values)
	case p.Repr != "" && (r.Structure == nil || len(r.Structure.Attributes) == 0):
		return p.Repr
	}
	return ""
}

// renderTable lays out a table within width, dropping columns that do not
// fit (marked with a trailing "…" column).
func renderTable(head []string, rows [][]string, width int) []string {
	n := len(head)
	w := make([]int, n)
	for j, h := range head {
		w[j] = runeLen(h)
	}
	for _, r := range rows {
		for j := 0; j < n && j < len(r); j++ {
			w[j] = max(w[j], runeLen(r[j]))
		}
	}
	for j := range w {
		w[j] = min(w[j], 30)
	}
	used, fit := 0, 0
	for j := 0; j < n; j++ {
		need := w[j] + 2
		if used+need > width-2 && j > 0 {
			break
		}
		used += need
		fit++
	}
	line := func(cells []string) string {
		var b strings.Builder
		for j := 0; j < fit; j++ {
			c := ""
			if j < len(cells) {
				c = cells[j]
			}
			b.WriteString(pad(fitLine(c, w[j]), w[j]) + "  ")
		}
		if fit < n {
			b.WriteString("…")
		}
		return strings.TrimRight(b.String(), " ")
	}
	out := []string{line(head)}
	sep := make([]string, fit)
	for j := range sep {
		sep[j] = strings.Repeat("-", w[j])
	}
	out = append(out, line(sep))
	for _, r := range rows {
		out = append(out, line(r))
	}
	return out
}

func statLine(st *Statistics) string {
	var parts []string
	add := func(k string, v any) {
		if v != nil {
			parts = append(parts, k+"="+cellText(v))
		}
	}
	add("min", st.Min)
	add("max", st.Max)
	add("mean", st.Mean)
	add("std", st.Std)
	if st.Quantiles != nil {
		add("median", st.Quantiles.P50)
	}
	if st.NaNCount != nil && *st.NaNCount > 0 {
		parts = append(parts, "nan="+commas(*st.NaNCount))
	}
	if st.InfCount != nil && *st.InfCount > 0 {
		parts = append(parts, "inf="+commas(*st.InfCount))
	}
	if st.TrueCount != nil {
		parts = append(parts, "true="+commas(*st.TrueCount))
	}
	if st.Distinct != nil {
		d := commas(*st.Distinct)
		if st.DistinctEstimated {
			d = "~" + d
		}
		parts = append(parts, "distinct="+d)
	}
	if st.Sampled && st.SampleSize != nil {
		parts = append(parts, "(sampled "+commas(*st.SampleSize)+")")
	}
	return strings.Join(parts, "  ")
}

func runeLen(s string) int { return utf8.RuneCountInString(s) }

func pad(s string, n int) string {
	if k := runeLen(s); k < n {
		return s + strings.Repeat(" ", n-k)
	}
	return s
}

// oneLine shows line breaks as ⏎ and tabs as spaces, for table cells and
// box lines.
var oneLine = strings.NewReplacer("\n", "⏎", "\t", " ", "\r", "")

// fitLine fits s on one line of n runes.
func fitLine(s string, n int) string { return clip.Runes.Fit(oneLine.Replace(s), n) }

// untyped drops the type Delve writes before a value ("main.Point {X: 1}",
// "[]int len: 2, cap: 2, [1,2]"): the Type column says it already, and the
// room goes to the fields.
func untyped(repr, typ string) string {
	if typ != "" {
		if rest, ok := strings.CutPrefix(repr, typ+" "); ok && rest != "" {
			return rest
		}
	}
	return repr
}

// maxNamedColumns bounds the columns problemLines names per kind.
const maxNamedColumns = 12

// problemLines name every column with nulls, infinities or mixed element
// types ("nulls: label 1,653 (33%)"), most first, so a cut column table
// never hides the one column that matters.
func problemLines(r *Result) []string {
	s := r.Structure
	if s == nil || len(s.Columns) == 0 || r.DetectedType == TypeSeries {
		return nil
	}
	rows := int64(0)
	if len(s.Shape) > 0 {
		rows = s.Shape[0]
	}
	type named struct {
		name string
		n    int64
		text string
	}
	var nulls, infs, mixed []named
	for _, c := range s.Columns {
		if c.NullCount != nil && *c.NullCount > 0 {
			t := c.Name + " " + commas(*c.NullCount)
			if rows > 0 {
				t += " (" + percent(*c.NullCount, rows) + ")"
			}
			nulls = append(nulls, named{c.Name, *c.NullCount, t})
		}
	}
	if st := r.Statistics; st != nil {
		for _, c := range st.Columns {
			if c.InfCount != nil && *c.InfCount > 0 {
				infs = append(infs, named{c.Name, *c.InfCount, c.Name + " " + commas(*c.InfCount)})
			}
			if len(c.ElementTypes) > 1 {
				types := make([]string, 0, len(c.ElementTypes))
				for t := range c.ElementTypes {
					types = append(types, t)
				}
				sort.Strings(types)
				mixed = append(mixed, named{c.Name, int64(len(types)), c.Name + " (" + strings.Join(types, ", ") + ")"})
			}
		}
	}
	var out []string
	for _, k := range []struct {
		label string
		list  []named
	}{{"nulls", nulls}, {"inf", infs}, {"mixed types", mixed}} {
		if len(k.list) == 0 {
			continue
		}
		sort.SliceStable(k.list, func(i, j int) bool { return k.list[i].n > k.list[j].n })
		parts := make([]string, 0, maxNamedColumns+1)
		for i, n := range k.list {
			if i == maxNamedColumns {
				parts = append(parts, fmt.Sprintf("+%d more columns", len(k.list)-maxNamedColumns))
				break
			}
			parts = append(parts, n.text)
		}
		out = append(out, k.label+": "+strings.Join(parts, ", "))
	}
	return out
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
