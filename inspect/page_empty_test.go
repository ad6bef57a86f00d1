// page_empty_test.go: the text of an empty page says why it is empty — an
// empty table, a filter that matches nothing, a window past the end — in
// place of "rows 0–0 of 0" (issue #28.7).

package inspect

import (
	"strings"
	"testing"
)

func TestFormatEmptyPage(t *testing.T) {
	cols := []PageColumn{{Name: "a"}}
	const n = 1 // column_count
	for _, c := range []struct {
		page Page
		want string
	}{
		{Page{ColumnCount: n, Columns: cols, Limit: 100, TotalRows: ptr64(0), AllRows: ptr64(0)}, "no rows: the table is empty\n"},
		{Page{ColumnCount: n, Columns: cols, Limit: 100, TotalRows: ptr64(0), AllRows: ptr64(5000), Filter: "a > 9"}, "no rows of 5000 match the filter\n"},
		{Page{ColumnCount: n, Columns: cols, Offset: 900, Limit: 50, TotalRows: ptr64(40), AllRows: ptr64(40)}, "no rows at offset 900 (limit 50) of 40\n"},
		{Page{ColumnCount: n, Columns: cols, Limit: 1, TotalRows: ptr64(1), AllRows: ptr64(1), Rows: Rows{{1}}, Positions: []int64{0}}, "rows 0–1 of 1\n"},
		// an engine's page first, its totals on request (Spark)
		{Page{ColumnCount: n, Columns: cols, Limit: 1, TotalPending: "counted on request", Rows: Rows{{1}}, Positions: []int64{0}},
			"rows 0–1 of ? (not counted: counted on request; compute counts it)\n"},
		{Page{ColumnCount: n, Columns: cols, Limit: 100, TotalRows: ptr64(0), Filter: "a > 9", TotalPending: "x"}, "no rows match the filter\n"},
		{Page{ColumnCount: n, Columns: cols, Limit: 0, TotalRows: ptr64(7), AllRows: ptr64(9), Filter: "a > 9"}, "7 rows (filtered from 9)\n"},
	} {
		got := FormatPage(&c.page)
		if first := got[:strings.IndexByte(got, '\n')+1]; first != c.want {
			t.Errorf("%+v: first line %q, want %q", c.page, first, c.want)
		}
		if !strings.Contains(got, "| pos | a |") {
			t.Errorf("no header: %q", got)
		}
	}
}

func ptr64(n int64) *int64 { return &n }
