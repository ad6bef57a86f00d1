package inspect

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
)

// TestEnginesDuckDBKeptColumns: later pages of a DuckDB table read the
// table's columns kept for the stop (no query), equal to pandas' pages of
// the same data (nulls, texts as a dictionary, an ENUM, timestamps,
// narrowed integers); a new stop keeps nothing from the last one.
func TestEnginesDuckDBKeptColumns(t *testing.T) {
	testpython.Require(t, "pandas", "duckdb", "pyarrow")
	h := startHarness(t, enginesFixture)
	fresh := &freshHarness{pyHarness: h}
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 60}
	page := func(tg Target, expr string, sel Selection) *PageResult {
		t.Helper()
		r, err := Browse(ctx, tg, 0, expr, sel, opts)
		if err != nil || r.Error != nil || r.Page == nil {
			t.Fatalf("%s %+v: %v %+v", expr, sel, err, r)
		}
		return r
	}
	for _, c := range []struct {
		name string
		sel  func(off int64) Selection
	}{
		{"unsorted", func(off int64) Selection { return Selection{Rows: &RowWindow{Offset: off, Limit: 6}} }},
		{"sorted", func(off int64) Selection {
			return Selection{Sort: []SortKey{{Column: "city"}, {Column: "day", Descending: true}}, Rows: &RowWindow{Offset: off, Limit: 6}}
		}},
		{"filtered", func(off int64) Selection {
			return Selection{Filter: `price > 20`, Columns: []any{"city", "kind", "qty"}, Rows: &RowWindow{Offset: off, Limit: 6}}
		}},
	} {
		first := page(h, "dk_con['sales']", c.sel(3)) // the columns are read here
		if strings.Contains(first.Page.Computed, "0 queries") {
			t.Errorf("%s: the first later page ran nothing: %q", c.name, first.Page.Computed)
		}
		for _, off := range []int64{9, 1, 20} {
			got, want := page(h, "dk_con['sales']", c.sel(off)), page(h, "pdf", c.sel(off))
			if !strings.Contains(got.Page.Computed, "0 queries") {
				t.Errorf("%s at %d: %q, want the kept columns (0 queries)", c.name, off, got.Page.Computed)
			}
			if !reflect.DeepEqual(got.Page.Positions, want.Page.Positions) || got.Page.Total() != want.Page.Total() {
				t.Errorf("%s at %d: positions %v of %d, pandas %v of %d", c.name, off, got.Page.Positions, got.Page.Total(),
					want.Page.Positions, want.Page.Total())
			}
			gp, wp := pageFacts(t, got), pageFacts(t, want)
			gv, _ := factAt(gp, "page.rows")
			wv, _ := factAt(wp, "page.rows")
			if !sameFact(gv, wv, false) {
				t.Errorf("%s at %d: rows %v, pandas %v", c.name, off, gv, wv)
			}
		}
		// each call a new stop: nothing kept, each later page asks DuckDB again
		if r := page(fresh, "dk_con['sales']", c.sel(9)); strings.Contains(r.Page.Computed, "0 queries") {
			t.Errorf("%s: a new stop used the last stop's columns: %q", c.name, r.Page.Computed)
		}
	}
}
