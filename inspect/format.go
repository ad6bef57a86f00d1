// This file renders a Result as json (the model), tui (an ASCII box with
// Type/Shape/Memory, a COLUMNS table and a PREVIEW table, width-aware) or
// markdown (short, for hovers).

package inspect

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dapscope/dapscope/inspect/clip"
)

// Format renders r; width applies to tui (default 100, minimum 40).
func Format(r *Result, format string, width int) (string, error) {
	switch format {
	case "", "json":
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			return "", err
		}
		return string(b), nil
	case "tui":
		return formatTUI(r, width), nil
	case "markdown", "md":
		return formatMarkdown(r), nil
	}
	return "", &Error{Code: CodeInvalidArgument, Message: fmt.Sprintf("unknown format %q (json, tui, markdown)", format)}
}

// FormatError renders an inspection error in the same formats.
func FormatError(name string, e *Error, format string, width int) string {
	switch format {
	case "tui":
		lines := []string{e.Code + ": " + e.Message}
		if e.Hint != "" {
			lines = append(lines, "hint: "+e.Hint)
		}
		if len(e.AvailableVariables) > 0 {
			lines = append(lines, "available: "+strings.Join(e.AvailableVariables, ", "))
		}
		return box(name, wrapAll(lines, boxInner(width)), width)
	case "markdown", "md":
		s := fmt.Sprintf("**%s** — `%s`: %s", mdEscape(name), e.Code, mdEscape(e.Message))
		if e.Hint != "" {
			s += "\n\n_" + mdEscape(e.Hint) + "_"
		}
		if len(e.AvailableVariables) > 0 {
			s += "\n\nAvailable: " + mdEscape(strings.Join(e.AvailableVariables, ", "))
		}
		return s
	}
	b, _ := json.MarshalIndent(struct {
		Name  string `json:"name"`
		Error *Error `json:"error"`
	}{name, e}, "", "  ")
	return string(b)
}

// ---------------------------------------------------------------- tables

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
		add("Value", clip.Bytes.Head(cellText(s.Value), 200))
	}
	if s.Device != "" {
		add("Device", s.Device)
	}
	if s.Depth != nil && *s.Depth > 1 {
		add("Depth", itoa(int64(*s.Depth)))
	}
	return out
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
			row[3], row[4], row[5] = statText(st.Min), statText(st.Max), statText(st.Mean)
			if st.Distinct != nil {
				row[6] = commas(*st.Distinct)
				if st.DistinctEstimated {
					row[6] = "~" + row[6]
				}
			}
			if st.TopValues != nil && row[3] == "" {
				row[3] = "top: " + cellText(st.TopValues[0].Value)
			}
		}
		rows = append(rows, row)
	}
	return dropEmptyColumns(head, rows)
}

func statText(v any) string {
	if v == nil {
		return ""
	}
	return clip.Bytes.Head(cellText(v), 24)
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
					cells = append(cells, clip.Bytes.Head(cellText(v), 40))
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
					k = cellText(it.Key)
				}
				rows = append(rows, []string{clip.Bytes.Head(k, 40), clip.Bytes.Head(cellText(it.Value), 60), it.Type})
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
			rows = append(rows, []string{a.Name, a.Type, clip.Bytes.Head(a.Repr, 60)})
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

// ---------------------------------------------------------------- tui

func boxInner(width int) int {
	if width <= 0 {
		width = 100
	}
	return max(width, 40) - 4
}

func formatTUI(r *Result, width int) string {
	inner := boxInner(width)
	var lines []string
	if r.Summary != "" {
		lines = append(lines, wrap(r.Summary, inner)...)
		lines = append(lines, "")
	}
	fs := facts(r)
	kw := 0
	for _, f := range fs {
		kw = max(kw, runeLen(f[0]))
	}
	for _, f := range fs {
		lines = append(lines, wrap(pad(f[0]+":", kw+1)+" "+f[1], inner)...)
	}
	if h, rows := columnTable(r); h != nil {
		lines = append(lines, "", "COLUMNS")
		lines = append(lines, renderTable(h, rows, inner)...)
	}
	if h, rows := previewTable(r); h != nil {
		lines = append(lines, "", "PREVIEW")
		lines = append(lines, renderTable(h, rows, inner)...)
		if r.Preview != nil && r.Preview.OmittedRows > 0 {
			lines = append(lines, fmt.Sprintf("(%s rows omitted)", commas(r.Preview.OmittedRows)))
		}
	} else if t := previewText(r); t != "" {
		lines = append(lines, "", "PREVIEW")
		var text []string
		for _, l := range strings.Split(clip.Bytes.Head(t, 2000), "\n") {
			text = append(text, wrap(l, inner)...)
		}
		if len(text) > 24 {
			text = append(text[:12:12], append([]string{"…"}, text[len(text)-11:]...)...)
		}
		lines = append(lines, text...)
	}
	if st := r.Statistics; st != nil && len(st.Columns) == 0 && (st.Min != nil || st.TrueCount != nil || st.Distinct != nil) {
		lines = append(lines, "", "STATISTICS")
		lines = append(lines, wrap(statLine(st), inner)...)
	}
	var notes []string
	if r.Partial {
		notes = append(notes, "partial: timed out on "+strings.Join(r.TimedOut, ", "))
	}
	notes = append(notes, r.Warnings...)
	if r.Hint != "" {
		notes = append(notes, "hint: "+r.Hint)
	}
	if len(notes) > 0 {
		lines = append(lines, "")
		lines = append(lines, wrapAll(notes, inner)...)
	}
	title := r.Name
	if title == "" {
		title = "value"
	}
	return box(title, lines, width)
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

func box(title string, lines []string, width int) string {
	inner := boxInner(width)
	var b strings.Builder
	t := "+- " + fitLine(title, inner-4) + " "
	b.WriteString(t + strings.Repeat("-", max(0, inner+3-runeLen(t))) + "+\n")
	for _, l := range lines {
		b.WriteString("| " + pad(fitLine(l, inner), inner) + " |\n")
	}
	b.WriteString("+" + strings.Repeat("-", inner+2) + "+")
	return b.String()
}

func wrapAll(lines []string, width int) []string {
	var out []string
	for _, l := range lines {
		out = append(out, wrap(l, width)...)
	}
	return out
}

// wrap splits a line at spaces (or hard) to fit width runes.
func wrap(s string, width int) []string {
	var out []string
	for runeLen(s) > width {
		r := []rune(s)
		cut := width
		for i := width; i > width/2; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, string(r[:cut]))
		s = strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(out, s)
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

// ---------------------------------------------------------------- markdown

func formatMarkdown(r *Result) string {
	var b strings.Builder
	name := r.Name
	if name == "" {
		name = "value"
	}
	fmt.Fprintf(&b, "**%s** — %s", mdEscape(name), mdEscape(r.Summary))
	if h, rows := columnTable(r); h != nil {
		if len(rows) > 12 {
			rows = append(rows[:12:12], repeat("…", len(h)))
		}
		b.WriteString("\n\n" + mdTable(h, rows))
	}
	if h, rows := previewTable(r); h != nil {
		if len(rows) > 5 {
			rows = rows[:5]
		}
		if len(h) > 9 {
			h = append(h[:8:8], "…")
			for i := range rows {
				if len(rows[i]) > 8 {
					rows[i] = append(rows[i][:8:8], "…")
				}
			}
		}
		if h[0] == "" {
			h[0] = " "
		}
		b.WriteString("\n\n" + mdTable(h, rows))
	} else if t := previewText(r); t != "" {
		b.WriteString("\n\n```\n" + strings.ReplaceAll(clip.Bytes.Head(t, 500), "```", "` ` `") + "\n```")
	}
	if st := r.Statistics; st != nil && len(st.Columns) == 0 {
		if l := statLine(st); l != "" {
			b.WriteString("\n\n" + mdEscape(l))
		}
	}
	if r.Partial {
		b.WriteString("\n\n_partial: timed out on " + mdEscape(strings.Join(r.TimedOut, ", ")) + "_")
	}
	for _, w := range r.Warnings {
		b.WriteString("\n\n_" + mdEscape(w) + "_")
	}
	return b.String()
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func mdTable(head []string, rows [][]string) string {
	var b strings.Builder
	cell := func(s string) string { return strings.ReplaceAll(mdEscape(fitLine(s, 40)), "|", `\|`) }
	b.WriteString("|")
	for _, h := range head {
		b.WriteString(" " + cell(h) + " |")
	}
	b.WriteString("\n|")
	for range head {
		b.WriteString("---|")
	}
	for _, r := range rows {
		b.WriteString("\n|")
		for j := range head {
			c := ""
			if j < len(r) {
				c = r[j]
			}
			b.WriteString(" " + cell(c) + " |")
		}
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`", "<", "&lt;", ">", "&gt;").Replace(s)
}
