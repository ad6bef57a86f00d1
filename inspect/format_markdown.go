// This file renders the markdown layout: short, for hovers (a title line,
// at most 12 columns and 5 preview rows, preview text in a code block).

package inspect

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// markdownHead is the title, then every problem (before anything a budget
// may cut).
func markdownHead(r *Result) string {
	var b strings.Builder
	name := r.Name
	if name == "" {
		name = "value"
	}
	fmt.Fprintf(&b, "**%s** — %s", mdEscape(name), mdEscape(r.Summary))
	for _, l := range problemLines(r) {
		b.WriteString("\n\n" + mdEscape(l))
	}
	return b.String()
}

func formatMarkdown(r *Result) string {
	var b strings.Builder
	b.WriteString(markdownHead(r))
	b.WriteString(xarrayMarkdown(r))
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
	if l := BudgetLine(r.Budget); l != "" {
		// the parameter as a code span: an agent reads max_bytes as written
		p := "max_bytes=" + strconv.Itoa(r.Budget.MaxBytes)
		b.WriteString("\n\n_" + strings.Replace(mdEscape(l), mdEscape(p), "`"+p+"`", 1) + "_")
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

// mdTable writes a table; cells are cut at 40 characters, or 80 in the
// narrow name/type/value layouts (attributes, fields, items).
func mdTable(head []string, rows [][]string) string {
	var b strings.Builder
	width := 40
	if len(head) <= 3 {
		width = 80
	}
	cell := func(s string) string { return strings.ReplaceAll(mdEscape(fitLine(s, width)), "|", `\|`) }
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

// mdEscape escapes what markdown would read as markup, with backslashes
// (a reader of the raw text sees "<0.1%", not "&lt;0.1%"): emphasis,
// code spans, a "<" that could open an HTML tag or an autolink (before a
// letter, "/", "!" or "?"), and a ">" that would open a block quote.
func mdEscape(s string) string {
	s = strings.NewReplacer("*", `\*`, "_", `\_`, "`", "\\`").Replace(s)
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '<' && i+1 < len(s) && opensTag(s[i+1]):
			b.WriteString(`\<`)
		case c == '>' && strings.TrimLeft(s[:i], " ") == "":
			b.WriteString(`\>`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// opensTag says whether c after "<" may start an HTML tag, comment,
// declaration or autolink in CommonMark.
func opensTag(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?'
}
