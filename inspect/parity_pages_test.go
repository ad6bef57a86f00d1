// parity_pages_test.go: the selection half of the probes' contract
// (parity_test.go holds the inspection half): the same data browsed by both
// probes outside a debugger, page by page — windows, sorts (nulls last,
// stable, both directions, two keys), filters (each in its language's
// syntax), chosen columns and the errors of a bad selection. Every fact of
// the page (inspect.PageResult) must be the same from both probes, but the
// ones listed in pageLanguageSpecific: an agent or the viewer cannot tell
// which language produced a page except by those.

package inspect

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

type pageParityCase struct {
	name, expr string
	sel        Selection
	// filters in Python's and JavaScript's syntax (sel.Filter is unused)
	filters [2]string
	// want are facts both must report (as in parityCase.want).
	want map[string]any
}

var pageParityCases = []pageParityCase{
	{name: "a window", expr: "record_list", sel: Selection{Rows: &RowWindow{Offset: 5, Limit: 10}}, want: map[string]any{
		"page.kind": "records", "page.total_rows": 40, "page.positions[0]": 5, "page.rows.len": 10, "page.column_count": 4,
	}},
	{name: "past the end", expr: "record_list", sel: Selection{Rows: &RowWindow{Offset: 38, Limit: 10}}, want: map[string]any{"page.rows.len": 2}},
	// Empty pages are empty lists, never null (issue #28.7: the viewer
	// stayed on "loading rows…" after rows: null).
	{name: "wholly past the end", expr: "record_list", sel: Selection{Rows: &RowWindow{Offset: 100, Limit: 10}}, want: map[string]any{
		"page.rows.len": 0, "page.positions.len": 0, "page.total_rows": 40, "page.columns.len": 4,
	}},
	{name: "a filter that matches nothing", expr: "record_list", sel: Selection{Sort: []SortKey{{Column: "qty"}}},
		filters: [2]string{`qty > 1000`, `qty > 1000`}, want: map[string]any{"page.rows.len": 0, "page.positions.len": 0, "page.total_rows": 0, "page.all_rows": 40}},
	{name: "sorted descending, nulls last", expr: "record_list", sel: Selection{Sort: []SortKey{{Column: "price", Descending: true}}, Rows: &RowWindow{Limit: 40}}, want: map[string]any{
		"page.rows[0][1]": 125.5, "page.rows[39][1]": nil,
	}},
	{name: "two keys, stable", expr: "record_list", sel: Selection{Sort: []SortKey{{Column: "city"}, {Column: "qty", Descending: true}}, Rows: &RowWindow{Limit: 40}}},
	{name: "filtered and sorted", expr: "record_list", sel: Selection{Sort: []SortKey{{Column: "id", Descending: true}}},
		filters: [2]string{`qty > 3 and city == "Nice"`, `qty > 3 && city === "Nice"`}, want: map[string]any{"page.total_rows": 4, "page.all_rows": 40}},
	{name: "chosen columns", expr: "record_list", sel: Selection{Columns: []any{"c*", 0, "qty"}, Rows: &RowWindow{Limit: 3}}, want: map[string]any{
		"page.columns.len": 3, "page.columns[0].name": "city",
	}},
	{name: "a typed array, sorted", expr: "floats", sel: Selection{Sort: []SortKey{{Column: "value", Descending: true}}, Rows: &RowWindow{Offset: 190, Limit: 10}}, want: map[string]any{
		"page.kind": "ndarray", "page.rows[9][0]": nil,
	}},
	{name: "no such column", expr: "record_list", sel: Selection{Columns: []any{"nope"}}, want: map[string]any{"error.code": "VARIABLE_NOT_FOUND"}},
	{name: "a column position out of range", expr: "record_list", sel: Selection{Sort: []SortKey{{Column: 9}}}, want: map[string]any{"error.code": "INVALID_ARGUMENT"}},
}

// pageLanguageSpecific are the page facts in the language's own words.
var pageLanguageSpecific = map[string]string{
	"type": "the language's type name", "probe_ms": "timing",
	"page.columns[].dtype": "dtype names (float64, number)",
	"page.filter":          "each language's filter syntax",
	"page.filter_na_rows":  "Python's filters are three-valued (a comparison with a missing value is unknown, counted here); JavaScript's are two-valued (null > 3 is false)",
	"error.hint":           "each language's filter and column advice",
}

func TestPagesParity(t *testing.T) {
	py := startHarness(t, "../testdata/parity/parity.py")
	js := startJSHarness(t, "../testdata/parity/parity.js")
	ctx := context.Background()
	for _, c := range pageParityCases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]map[string]any
			for i, tg := range []Target{py, js} {
				sel := c.sel
				sel.Filter = c.filters[i]
				r, err := Browse(ctx, tg, 0, c.expr, sel, Options{Timeout: 10, RequestTimeout: 60})
				if err != nil {
					r = &PageResult{Name: c.expr, Error: errcode.From(err)}
				}
				got[i] = pageFacts(t, r)
			}
			for _, d := range diffFacts(got[0], got[1], false) {
				t.Errorf("drift: %s", d)
			}
			for path, want := range c.want {
				for i, lang := range []string{"python", "javascript"} {
					if g, ok := factAt(got[i], path); !ok || !sameFact(g, want, false) {
						t.Errorf("%s probe: %s = %v, want %v", lang, path, g, want)
					}
				}
			}
		})
	}
}

// pageFacts flattens a page result without the language-specific facts.
func pageFacts(t *testing.T, v *PageResult) map[string]any {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	flatten("", m, out)
	for k := range out {
		if _, skip := pageLanguageSpecific[indexRe.ReplaceAllString(k, "[]")]; skip {
			delete(out, k)
		}
	}
	return out
}
