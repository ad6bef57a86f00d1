// This file renders the tui layout: an ASCII box with the summary, the
// facts, the COLUMNS and PREVIEW tables, statistics and notes, wrapped to
// the width.

package inspect

import (
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

func boxInner(width int) int {
	if width <= 0 {
		width = 100
	}
	return max(width, 40) - 4
}

// tuiHead is the head of the tui box: the summary, then every problem
// (before anything a budget may cut).
func tuiHead(r *Result, inner int) []string {
	var lines []string
	if r.Summary != "" {
		lines = append(lines, wrap(r.Summary, inner)...)
	}
	if ps := problemLines(r); len(ps) > 0 {
		lines = append(lines, "PROBLEMS")
		for _, l := range ps {
			lines = append(lines, wrap(l, inner)...)
		}
	}
	if len(lines) > 0 {
		lines = append(lines, "")
	}
	return lines
}

func formatTUI(r *Result, width int) string {
	inner := boxInner(width)
	lines := tuiHead(r, inner)
	fs := facts(r)
	kw := 0
	for _, f := range fs {
		kw = max(kw, runeLen(f[0]))
	}
	for _, f := range fs {
		lines = append(lines, wrap(pad(f[0]+":", kw+1)+" "+f[1], inner)...)
	}
	lines = append(lines, xarrayTUI(r, inner)...)
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
	if l := BudgetLine(r.Budget); l != "" {
		notes = append(notes, l)
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
