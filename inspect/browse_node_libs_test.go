// browse_node_libs_test.go: browsing the data libraries' tables (real
// apache-arrow, arquero and nodejs-polars from testdata/node/libs, on the
// node on PATH: Debian's Node 20) by rows: each page sorted or filtered by
// the probe is compared with Array.prototype.sort/filter run in the
// debuggee over the values the library itself returns for each cell.

package inspect_test

import (
	"fmt"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

func TestBrowseNodeLibraries(t *testing.T) {
	s := nodeLibsSession(t)
	arrowGet := "rows.t.getChild(k).get(i)"
	cases := []struct {
		expr, rows, get, kind string
		keys                  []inspect.SortKey
		filter, keep          string
		columns               string
	}{
		{expr: "arrowTable", rows: "{length: arrowTable.numRows, t: arrowTable}", get: arrowGet, kind: "dataframe",
			keys: []inspect.SortKey{{Column: "price", Descending: true}}, columns: "[{id Int32} {price Float64} {city Dictionary<Int32, Utf8>} {paid Bool}]"},
		{expr: "arrowTable", rows: "{length: arrowTable.numRows, t: arrowTable}", get: arrowGet, kind: "dataframe",
			keys: []inspect.SortKey{{Column: "city"}, {Column: "id", Descending: true}}, filter: "paid && price > 12", keep: "(rows, i) => rows.t.getChild('paid').get(i) && rows.t.getChild('price').get(i) > 12"},
		{expr: "arrowVector", rows: "{length: arrowVector.length, t: arrowVector}", get: "rows.t.get(i)", kind: "series",
			keys: []inspect.SortKey{{Column: "value"}}, columns: "[{value Int32}]"},
		{expr: "aqTable", rows: "{length: aqTable.numRows(), t: aqTable}", get: "rows.t.get(k, i)", kind: "dataframe",
			keys: []inspect.SortKey{{Column: "qty", Descending: true}}, filter: "paid || qty === null", keep: "(rows, i) => rows.t.get('paid', i) || rows.t.get('qty', i) === null",
			columns: "[{id int32} {city string} {qty number} {paid boolean}]"},
		{expr: "aqFiltered", rows: "{length: aqFiltered.numRows(), t: aqFiltered}", get: "rows.t.get(k, i)", kind: "dataframe",
			keys: []inspect.SortKey{{Column: "city"}}},
		{expr: "plFrame", rows: "{length: plFrame.height, t: plFrame}", get: "rows.t.getColumn(k).get(i)", kind: "dataframe",
			keys: []inspect.SortKey{{Column: "city", Descending: true}, {Column: "price"}}, filter: "$row.qty > 5", keep: "(rows, i) => rows.t.getColumn('qty').get(i) > 5"},
		{expr: "plSeries", rows: "{length: plSeries.length, t: plSeries}", get: "rows.t.get(i)", kind: "series",
			keys: []inspect.SortKey{{Column: "qty", Descending: true}}, columns: "[{qty Float64}]"},
	}
	for _, c := range cases {
		total := refOrder(t, s, c.rows, c.get, c.keep, c.keys)
		p := browseJS(t, s, c.expr, inspect.Selection{Sort: c.keys, Filter: c.filter})
		want := refWindow(t, s, 0, 100)
		if p.Page.Kind != c.kind || p.Page.Total() != total || fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
			t.Errorf("%s by %v where %q: %s %d rows %v\nwant %d %v", c.expr, c.keys, c.filter, p.Page.Kind, p.Page.Total(), p.Page.Positions, total, want)
		}
		if c.columns != "" && fmt.Sprint(p.Page.Columns) != c.columns {
			t.Errorf("%s: columns %v, want %s", c.expr, p.Page.Columns, c.columns)
		}
		// the cells are the library's own values at those positions
		if len(p.Page.Rows) > 0 && len(c.keys) > 0 {
			col := c.keys[0].Column.(string)
			at := -1
			for j, pc := range p.Page.Columns {
				if pc.Name == col {
					at = j
				}
			}
			ev, err := s.Evaluate(t.Context(), fmt.Sprintf("((rows, i, k) => JSON.stringify(%s ?? null))(%s, %d, %q)", c.get, c.rows, p.Page.Positions[0], col), 0, "clipboard")
			if err != nil || at < 0 || fmt.Sprint(p.Page.Rows[0][at]) != jsonCell(ev.Result) {
				t.Errorf("%s: first row's %s = %v, the library says %s (%v)", c.expr, col, p.Page.Rows[0], ev.Result, err)
			}
		}
	}
}

// jsonCell renders a JSON value as fmt prints a page cell.
func jsonCell(s string) string {
	if s == "null" {
		return "<nil>"
	}
	if len(s) > 1 && s[0] == '"' {
		return s[1 : len(s)-1]
	}
	return s
}
