// lldb_ndarray_test.go: arrays of the Rust crate ndarray (testdata/native/
// rust-ndarray, built with the crate from crates.io) through the lldb
// probe (ndarray 0.17, and an array of 0.16, laid out differently): a 1-D
// Array1<f64> with a NaN, a row-major Array2<f64>, its
// transpose (a column-major view: the same statistics, the edge items in
// logical order), a strided slice (every other element, read from the span
// it covers), an Array2<i32> and an Array2<f32> over the sample bound;
// their one-line summaries.

package session

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

func TestLLDBProbeNdarray(t *testing.T) {
	s := stopAt(t, nativetest.RustNdarray, "// break here")
	for _, tc := range []struct{ expr, want string }{
		// 1,000 values 100 + i%50 with the one at 3 a NaN
		{"line", `"detected_type":"ndarray"`},
		{"line", `"type":"Array1<f64>"`},
		{"line", `"shape":[1000],"ndim":1`},
		{"line", `"count":1000`},
		{"line", `"nan_count":1`},
		{"line", `"max":149`},
		{"line", `"values":[100.0,101.0,102.0,null,104.0,"…",145.0,146.0,147.0,148.0,149.0]`},
		// 3×4, r*4+c
		{"grid", `"type":"Array2<f64>"`},
		{"grid", `"shape":[3,4],"ndim":2`},
		{"grid", `"c_contiguous":true,"f_contiguous":false`},
		{"grid", `"values":[[0.0,1.0,2.0,3.0],[4.0,5.0,6.0,7.0],[8.0,9.0,10.0,11.0]]`},
		{"grid", `"mean":5.5`},
		// its transpose: 4×3, column-major, the same numbers
		{"transposed", `"type":"ArrayView2<f64>"`},
		{"transposed", `"shape":[4,3]`},
		{"transposed", `"c_contiguous":false,"f_contiguous":true`},
		{"transposed", `"values":[[0.0,4.0,8.0],[1.0,5.0,9.0],[2.0,6.0,10.0],[3.0,7.0,11.0]]`},
		{"transposed", `"count":12`},
		// every other element of line: 500 values, 100, 102, …, 148 (the NaN at 3 skipped)
		{"every_other", `"shape":[500]`},
		{"every_other", `"count":500`},
		{"every_other", `"values":[100.0,102.0,104.0,106.0,108.0,"…",140.0,142.0,144.0,146.0,148.0]`},
		{"every_other", `"max":148`},
		{"counts", `"type":"Array2<i32>"`},
		{"counts", `"dtype":"int32"`},
		{"counts", `"values":[[0,1,2],[10,11,12]]`},
		// 1200×1000, r+c: the edge items read one by one, the statistics on
		// 1,000,000 evenly spaced elements
		{"big", `"type":"Array2<f32>"`},
		{"big", `"shape":[1200,1000]`},
		{"big", `"values":[[0.0,1.0,2.0,"…",997.0,998.0,999.0],[1.0,2.0,3.0,"…",998.0,999.0,1000.0],[2.0,3.0,4.0,"…",999.0,1000.0,1001.0],"…",[1197.0,1198.0,1199.0,"…",2194.0,2195.0,2196.0],[1198.0,1199.0,1200.0,"…",2195.0,2196.0,2197.0],[1199.0,1200.0,1201.0,"…",2196.0,2197.0,2198.0]]`},
		{"big", `"sampled":true,"sample_size":1000000`},
		{"big", `"min":0.0`},
		// ndarray 0.16's layout (no `parts`)
		{"old", `"type":"Array2<f64>"`},
		{"old", `"values":[[0.5,1.5],[2.5,3.5]]`},
		{"old", `"mean":2.0`},
	} {
		_, js := inspectJSON(t, s, tc.expr)
		js = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">").Replace(js)
		if !strings.Contains(js, tc.want) {
			t.Errorf("%s: want %s in %s", tc.expr, tc.want, js)
		}
	}
	if r, _ := inspectJSON(t, s, "big"); r.Statistics != nil {
		t.Logf("big (1200×1000 f32, sampled): probe %.1f ms, inspect %.1f ms", r.ProbeMs, r.ElapsedMs)
	}
	if _, js := inspectJSON(t, s, "every_other"); strings.Contains(js, "nan_count") {
		t.Errorf("every_other counted the NaN it skips: %s", js)
	}
	names := []string{"line", "grid", "every_other"}
	got := nativeSummaries(t, s, names)
	for i, want := range []string{
		"Array1<f64> float64 (1,000,) · 1 NaN · min 100 max 149",
		"Array2<f64> float64 3 × 4 · min 0 max 11",
		"ArrayView1<f64> float64 (500,) · min 100 max 148",
	} {
		if line := got[i].Line(); !strings.Contains(line, want) {
			t.Errorf("%s: %q (%+v), want %q", names[i], line, got[i], want)
		}
	}
	if !inspect.SummaryType(inspect.Native, "ndarray::ArrayBase<ndarray::data_repr::OwnedRepr<double>, ndarray::dimension::dim::Dim<unsigned long[1]> >") {
		t.Error("the smart values do not ask about ndarray arrays")
	}
}

// The data viewer's pages of ndarray arrays, computed in lldb's Python from
// memory: a 1-D array sorted (NaN last) and filtered, a strided view, and
// a 2-D transposed view as columns "0", "1", "2" in logical order.
func TestLLDBPagesNdarray(t *testing.T) {
	s := stopAt(t, nativetest.RustNdarray, "// break here")
	r, err := browse(t, s, "line", inspect.Selection{Rows: &inspect.RowWindow{Limit: 2}, Sort: []inspect.SortKey{{Column: "value", Descending: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Page; p.Kind != "ndarray" || p.Total() != 1000 || rowsJSON(p) != "[[149.0],[149.0]]" || p.Positions[0] != 49 {
		t.Errorf("line descending: %+v rows %s", p, rowsJSON(p))
	}
	r, err = browse(t, s, "line", inspect.Selection{Rows: &inspect.RowWindow{Limit: 2}, Filter: "value > 148"})
	if err != nil || r.Page.Total() != 20 || r.Page.FilterNA != 1 || r.Page.Positions[0] != 49 {
		t.Errorf("line filtered: %+v, %v", r.Page, err)
	}
	// every other element: 100, 102, … 148 repeating every 25
	r, err = browse(t, s, "every_other", inspect.Selection{Rows: &inspect.RowWindow{Offset: 24, Limit: 2}})
	if err != nil || r.Page.Total() != 500 || rowsJSON(r.Page) != "[[148.0],[100.0]]" {
		t.Errorf("every_other: %+v, %v", r.Page, err)
	}
	// the transpose of r*4+c (3×4): 4 rows of 3 columns
	r, err = browse(t, s, "transposed", inspect.Selection{Sort: []inspect.SortKey{{Column: "0", Descending: true}}})
	if err != nil {
		t.Fatal(err)
	}
	if p := r.Page; p.Kind != "ndarray" || p.Total() != 4 || len(p.Columns) != 3 || p.Columns[2].Name != "2" ||
		rowsJSON(p) != "[[3.0,7.0,11.0],[2.0,6.0,10.0],[1.0,5.0,9.0],[0.0,4.0,8.0]]" {
		t.Errorf("transposed: %+v rows %s", p, rowsJSON(p))
	}
}
