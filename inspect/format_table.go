// This file holds what the tui and markdown layouts share: the facts under
// the title, the COLUMNS and PREVIEW tables built from a Result, the
// statistics line, and renderTable's width-aware layout of a table in runes.

package inspect

import (
	"fmt"
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
		m := MemoryText(*s.MemoryBytes, s.MemoryEstimated)
		if s.MemoryEstimated {
			m += " (shallow: object data not counted; deep_memory counts it)"
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
			mm := r.statCells(st.Min, st.Max, st.Mean) // one number format for the row
			row[3], row[4], row[5] = mm[0], mm[1], mm[2]
			if st.Distinct != nil {
				row[6] = commas(*st.Distinct)
				if st.DistinctEstimated {
					row[6] = "~" + row[6]
				}
			}
			if len(st.TopValues) > 0 && row[3] == "" {
				top := st.TopValues[0]
				row[3] = "top: " + r.cell(top.Value) + " ×" + commas(top.Count)
			}
		}
		rows = append(rows, row)
	}
	return dropEmptyColumns(head, rows)
}

// statCells renders the statistics of one line: numbers in one format
// (numbers.go), anything else in the result's language; cut to 24 bytes.
func (r *Result) statCells(vs ...any) []string {
	nums := lineNumbers(vs...)
	out := make([]string, len(vs))
	for i, v := range vs {
		switch _, isNum := numberOf(v); {
		case v == nil:
		case isNum:
			out[i] = clip.Bytes.Head(nums[i], 24)
		default:
			out[i] = clip.Bytes.Head(r.cell(v), 24)
		}
	}
	return out
}

// columnCells renders a table's rows column by column: the numbers of
// one column in one format, the rest in the result's language, each cut
// to width bytes.
func (r *Result) columnCells(rows [][]any, width int) [][]string {
	out := make([][]string, len(rows))
	cols := 0
	for i, row := range rows {
		out[i] = make([]string, len(row))
		cols = max(cols, len(row))
	}
	for j := 0; j < cols; j++ {
		var col []any
		for _, row := range rows {
			if j < len(row) {
				col = append(col, row[j])
			}
		}
		nums, k := lineNumbers(col...), 0
		for i, row := range rows {
			if j >= len(row) {
				continue
			}
			v := row[j]
			t := r.cell(v)
			if _, isNum := numberOf(v); isNum {
				t = nums[k]
			}
			out[i][j] = clip.Bytes.Head(t, width)
			k++
		}
	}
	return out
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
		var values [][]any
		for _, rs := range [][]Row{p.Head, p.Tail} {
			for _, row := range rs {
				values = append(values, row.Values)
			}
		}
		texts := r.columnCells(values, 40) // one number format per column
		var rows [][]string
		add := func(rs []Row) {
			for _, row := range rs {
				rows = append(rows, append([]string{cellText(row.Index)}, texts[0]...))
				texts = texts[1:]
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

// StatLine is one statistics line ("amount: min=2 max=9.75 …" for a
// column), numbers in one format.
func StatLine(st Statistics) string {
	l := statLine(&st)
	if st.Name != "" {
		l = st.Name + ": " + l
	}
	return l
}

func statLine(st *Statistics) string {
	var parts []string
	var median any
	if st.Quantiles != nil {
		median = st.Quantiles.P50
	}
	nums := lineNumbers(st.Min, st.Max, st.Mean, st.Std, median) // one number format for the line
	for i, k := range []string{"min", "max", "mean", "std", "median"} {
		if nums[i] != "" {
			parts = append(parts, k+"="+nums[i])
		}
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
