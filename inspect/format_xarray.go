// This file renders what only xarray values have (a name, named dims,
// attrs, and the coordinates and data-variables tables) for the tui and
// markdown formats; format.go calls these three functions.

package inspect

import (
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// xarrayFacts: Name, Dims and Attrs lines under the title.
func xarrayFacts(s *Structure) [][2]string {
	var out [][2]string
	if s.ArrayName != "" {
		out = append(out, [2]string{"Name", s.ArrayName})
	}
	if len(s.Dims) > 0 {
		out = append(out, [2]string{"Dims", strings.Trim(dimsText(s.Dims), "()")})
	}
	if len(s.Attrs) > 0 {
		a := make([]string, len(s.Attrs))
		for i, x := range s.Attrs {
			a[i] = x.Name + "=" + clip.Bytes.Head(x.Repr, 40)
		}
		out = append(out, [2]string{"Attrs", clip.Bytes.Head(strings.Join(a, ", "), 200)})
	}
	return out
}

type titledTable struct {
	title string
	head  []string
	rows  [][]string
}

// xarrayTables: COORDINATES (Name, Dims, Type, Values; "*" marks an
// index) and DATA VARIABLES (Name, Dims, Type, Nulls).
func xarrayTables(s *Structure) []titledTable {
	if s == nil {
		return nil
	}
	var out []titledTable
	if len(s.DataVars) > 0 {
		t := titledTable{title: "DATA VARIABLES", head: []string{"Name", "Dims", "Type", "Nulls"}}
		for _, v := range s.DataVars {
			nulls := ""
			if v.NullCount != nil {
				nulls = commas(*v.NullCount)
			} else if v.Lazy {
				nulls = "lazy"
			}
			t.rows = append(t.rows, []string{v.Name, strings.Join(v.Dims, ", "), v.Dtype, nulls})
		}
		out = append(out, t)
	}
	if len(s.Coords) > 0 {
		t := titledTable{title: "COORDINATES", head: []string{"Name", "Dims", "Type", "Values"}}
		for _, v := range s.Coords {
			name := "  " + v.Name
			if v.Index {
				name = "* " + v.Name
			}
			vals := ""
			if v.Values != nil {
				vals = clip.Bytes.Head(strings.Trim(flatArray(v.Values), "[]"), 60)
			} else if v.Lazy {
				vals = "lazy"
			}
			t.rows = append(t.rows, []string{name, strings.Join(v.Dims, ", "), v.Dtype, vals})
		}
		out = append(out, t)
	}
	for i := range out {
		out[i].head, out[i].rows = dropEmptyColumns(out[i].head, out[i].rows)
	}
	return out
}

// xarrayTUI: the xarray tables laid out within inner columns.
func xarrayTUI(r *Result, inner int) []string {
	var lines []string
	for _, t := range xarrayTables(r.Structure) {
		lines = append(lines, "", t.title)
		lines = append(lines, renderTable(t.head, t.rows, inner)...)
	}
	return lines
}

// xarrayMarkdown: the xarray tables (at most 12 rows each).
func xarrayMarkdown(r *Result) string {
	var b strings.Builder
	for _, t := range xarrayTables(r.Structure) {
		rows := t.rows
		if len(rows) > 12 {
			rows = append(rows[:12:12], repeat("…", len(t.head)))
		}
		b.WriteString("\n\n" + mdEscape(t.title[:1]+strings.ToLower(t.title[1:])) + ":\n\n" + mdTable(t.head, rows))
	}
	return b.String()
}
