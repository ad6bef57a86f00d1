// This file holds the hover's markdown: the summary line, a compact columns
// table (tables), a few preview rows or items, and flags — short enough for
// a hover. Cell text is escaped so values cannot break the table or inject
// markup.

package editor

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect"
)

const (
	hoverMaxColumns = 8
	hoverMaxRows    = 3
	hoverMaxCell    = 40
)

// mdEscape escapes markdown punctuation in table cells and inline text.
func mdEscape(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	var b strings.Builder
	for _, r := range s {
		switch r {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '#', '~', '{', '}', '(', ')', '!':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

func cellString(v any) string {
	switch x := v.(type) {
	case nil:
		return "—"
	case string:
		return x
	case float64:
		return fmt.Sprintf("%.6g", x)
	default:
		b, err := json.Marshal(x)
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
}

func cellMD(v any) string { return mdEscape(cut(cellString(v), hoverMaxCell)) }

// HoverMarkdown renders r for a hover.
func HoverMarkdown(r *inspect.Result) string {
	var b strings.Builder
	typ := r.Type
	if typ == "" {
		typ = r.DetectedType
	}
	fmt.Fprintf(&b, "**%s** `%s`", mdEscape(r.Name), strings.ReplaceAll(typ, "`", "'"))
	if r.Summary != "" {
		fmt.Fprintf(&b, "  \n%s", mdEscape(r.Summary))
	}
	var flags []string
	if r.Partial {
		flags = append(flags, "partial")
	}
	if r.Preview != nil && r.Preview.IsTruncated {
		flags = append(flags, "truncated")
	}
	if r.Statistics != nil && r.Statistics.Sampled {
		flags = append(flags, "sampled")
	}
	if len(flags) > 0 {
		fmt.Fprintf(&b, "  \n_%s_", strings.Join(flags, " · "))
	}
	b.WriteString("\n\n")
	st := r.Structure
	switch {
	case st != nil && len(st.Columns) > 0:
		nulls := false
		for _, c := range st.Columns {
			if c.NullCount != nil && *c.NullCount > 0 {
				nulls = true
			}
		}
		b.WriteString("| column | dtype |")
		if nulls {
			b.WriteString(" nulls |")
		}
		b.WriteString("\n|---|---|")
		if nulls {
			b.WriteString("---:|")
		}
		b.WriteString("\n")
		for i, c := range st.Columns {
			if i == hoverMaxColumns {
				fmt.Fprintf(&b, "| … %d more | |", len(st.Columns)-hoverMaxColumns)
				if nulls {
					b.WriteString(" |")
				}
				b.WriteString("\n")
				break
			}
			fmt.Fprintf(&b, "| %s | %s |", mdEscape(cut(c.Name, hoverMaxCell)), mdEscape(c.Dtype))
			if nulls {
				n := int64(0)
				if c.NullCount != nil {
					n = *c.NullCount
				}
				fmt.Fprintf(&b, " %d |", n)
			}
			b.WriteString("\n")
		}
		writeRows(&b, r.Preview)
	case r.Preview != nil && len(r.Preview.Head) > 0:
		writeRows(&b, r.Preview)
	case r.Preview != nil && len(r.Preview.Items) > 0:
		for i, it := range r.Preview.Items {
			if i == hoverMaxRows+2 {
				b.WriteString("- …\n")
				break
			}
			k := it.Key
			if k == nil && it.Index != nil {
				k = *it.Index
			}
			fmt.Fprintf(&b, "- %s: %s\n", cellMD(k), cellMD(it.Value))
		}
	case st != nil && len(st.Attributes) > 0:
		for i, a := range st.Attributes {
			if i == hoverMaxRows+2 {
				b.WriteString("- …\n")
				break
			}
			fmt.Fprintf(&b, "- %s `%s` = %s\n", mdEscape(a.Name), strings.ReplaceAll(a.Type, "`", "'"), mdEscape(cut(a.Repr, hoverMaxCell)))
		}
	case r.Preview != nil && r.Preview.Text != "":
		fmt.Fprintf(&b, "%s\n", mdEscape(cut(r.Preview.Text, 200)))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n⚠ %s", mdEscape(cut(w, 120)))
	}
	return strings.TrimRight(b.String(), "\n")
}

func writeRows(b *strings.Builder, p *inspect.Preview) {
	if p == nil || len(p.Head) == 0 {
		return
	}
	cols := p.Columns
	if len(cols) > hoverMaxColumns {
		cols = cols[:hoverMaxColumns]
	}
	if len(cols) == 0 {
		cols = []string{"value"}
	}
	b.WriteString("\n|  |")
	for _, c := range cols {
		fmt.Fprintf(b, " %s |", mdEscape(cut(c, hoverMaxCell)))
	}
	b.WriteString("\n|---|")
	b.WriteString(strings.Repeat("---|", len(cols)))
	b.WriteString("\n")
	for i, row := range p.Head {
		if i == hoverMaxRows {
			break
		}
		fmt.Fprintf(b, "| %s |", cellMD(row.Index))
		for j := range cols {
			var v any
			if j < len(row.Values) {
				v = row.Values[j]
			}
			fmt.Fprintf(b, " %s |", cellMD(v))
		}
		b.WriteString("\n")
	}
}
