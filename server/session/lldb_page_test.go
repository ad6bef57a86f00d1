// lldb_page_test.go: pages of native arrays computed by the lldb probe
// from memory (dapscope/page, the viewer's rows): the Rust Vec<f64> sorted
// (NaN last) and filtered (a NaN is unknown, counted), a C array of
// doubles, a C array of structs as a table of its numeric fields, a
// refused filter, and a value with no rows.

package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

func browse(t *testing.T, s *Session, expr string, sel inspect.Selection) (*inspect.PageResult, error) {
	t.Helper()
	return inspect.Browse(testCtx(t), s, 0, expr, sel, inspect.Options{})
}

func rowsJSON(p *inspect.Page) string {
	b, _ := json.Marshal(p.Rows)
	return string(b)
}

func TestLLDBPagesRust(t *testing.T) {
	s := stopAt(t, nativetest.Rust, "// break here")
	// prices[i] = 100 + i%50, prices[3] = NaN; 1000 elements.
	r, err := browse(t, s, "prices", inspect.Selection{Rows: &inspect.RowWindow{Offset: 0, Limit: 3},
		Sort: []inspect.SortKey{{Column: "value", Descending: true}}})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Page
	if p.Kind != "ndarray" || p.Total() != 1000 || p.All() != 1000 || len(p.Columns) != 1 || p.Columns[0].Name != "value" || p.Columns[0].Dtype != "float64" {
		t.Fatalf("page: %+v", p)
	}
	if got := rowsJSON(p); got != "[[149.0],[149.0],[149.0]]" || p.Positions[0] != 49 || p.Positions[1] != 99 {
		t.Errorf("descending: rows %s positions %v", got, p.Positions)
	}
	r, err = browse(t, s, "prices", inspect.Selection{Rows: &inspect.RowWindow{Offset: 999, Limit: 5}, Sort: []inspect.SortKey{{Column: 0}}})
	if err != nil || rowsJSON(r.Page) != `[[null]]` || r.Page.Positions[0] != 3 {
		t.Errorf("NaN last: %+v, %v", r.Page, err)
	}
	r, err = browse(t, s, "prices", inspect.Selection{Rows: &inspect.RowWindow{Limit: 4}, Filter: "value > 147 or value < 101"})
	if err != nil {
		t.Fatal(err)
	}
	// per 50: 100, 148, 149 → 3 × 20 = 60 rows; the NaN (position 3) is unknown
	if r.Page.Total() != 60 || r.Page.FilterNA != 1 || rowsJSON(r.Page) != "[[100.0],[148.0],[149.0],[100.0]]" || r.Page.Positions[3] != 50 {
		t.Errorf("filter: total %d na %d rows %s positions %v", r.Page.Total(), r.Page.FilterNA, rowsJSON(r.Page), r.Page.Positions)
	}
	if _, err := browse(t, s, "prices", inspect.Selection{Filter: "__import__('os').system('x')"}); !errcode.Is(err, errcode.InvalidExpression) {
		t.Errorf("a call in a filter: %v", err)
	}
	if _, err := browse(t, s, "name", inspect.Selection{}); err == nil || !strings.Contains(err.Error(), "no rows") {
		t.Errorf("a String: %v", err)
	}
}

func TestLLDBPagesC(t *testing.T) {
	s := stopAt(t, nativetest.C, "// break here")
	r, err := browse(t, s, "pts", inspect.Selection{Sort: []inspect.SortKey{{Column: "x", Descending: true}}})
	if err != nil {
		t.Fatal(err)
	}
	p := r.Page
	var names []string
	for _, c := range p.Columns {
		names = append(names, c.Name+":"+c.Dtype)
	}
	if p.Kind != "records" || strings.Join(names, ",") != "id:int32,x:float64,y:float64" || rowsJSON(p) != "[[2,6.0,8.0],[1,3.0,4.0],[3,0.0,0.0]]" {
		t.Errorf("pts: %s %s %+v", names, rowsJSON(p), p)
	}
	r, err = browse(t, s, "values", inspect.Selection{Rows: &inspect.RowWindow{Limit: 2}, Filter: "value * 2 >= 97"})
	// values[i] = i * 0.5, NaN at 10 and 20
	if err != nil || r.Page.Total() != 3 || r.Page.FilterNA != 2 || rowsJSON(r.Page) != "[[48.5],[49.0]]" {
		t.Errorf("values: %+v, %v", r.Page, err)
	}
}
