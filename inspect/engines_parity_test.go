// This file holds the data engines' one truth (issue 32): the same table
// (testdata/parity/engines.json: nulls, strings, dates, a categorical) in
// pandas and in polars, pyarrow and DuckDB (testdata/parity/engines.py),
// inspected and browsed through the real engines outside a debugger
// (pyHarness). Every fact an engine reports must be pandas' fact, except
// the facts listed in engineOwn (each with its reason); pages with the
// same selection must hold the same rows in the same order (nulls last,
// stable ties), with the same counts.

package inspect

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
)

const enginesFixture = "../testdata/parity/engines.py"

// engineOwn are the facts an engine reports its own way, by path (indexes
// written []), with the reason.
var engineOwn = map[string]string{
	"name":                                    "each value's own variable",
	"structure.columns[].dtype":               "each engine names its types (Int64, int64, BIGINT)",
	"structure.dtype":                         "the same, for a one-column value",
	"structure.index":                         "an engine's table has no index: rows are positions",
	"structure.memory_bytes":                  "each engine's own layout (pandas' blocks, Arrow's buffers, polars' estimate)",
	"structure.memory_estimated":              "the same",
	"structure.engine":                        "the engine's own facts (plan, chunks, what ran)",
	"statistics.computed":                     "what an engine ran (DuckDB's queries)",
	"statistics.columns[].element_types":      "the Python types of an object column's cells; an engine's column has one type",
	"statistics.element_types":                "the same, for a one-column value",
	"statistics.columns[].distinct_estimated": "an engine's distinct count is exact (count(DISTINCT), n_unique) where pandas' is estimated above the sample",
}

// engineArrayOwn: a pyarrow array has no name, so its one column is "value".
var engineArrayOwn = []string{"structure.series_name", "structure.columns[].name", "preview.columns[]"}

// engineClues are the clues (issue 35) the engines share with pandas
// (their own exact counts: polars' n_unique, pyarrow's count_distinct and
// group_by, DuckDB's count(DISTINCT) and count(DISTINCT row(...)) in its
// one aggregate query, Dask's nunique and drop_duplicates), though the
// JavaScript probe has no such facts (languageSpecific): held to pandas
// for every engine.
var engineClues = map[string]bool{
	"statistics.columns[].repeated": true, "statistics.columns[].key_like": true, "statistics.columns[].repeated_not_computed": true,
	"statistics.repeated": true, "statistics.key_like": true,
}

type enginePair struct {
	pandas, engine, module string
	own                    []string // facts of this engine's own (paths as in engineOwn)
}

// daskOwn: Dask's value_counts keeps no row order across partitions, so
// ties among a string column's top values come in value order (their
// counts still match); an Array's layout is its chunks'; its distinct
// count would gather every distinct value.
var (
	daskOwn      = []string{"statistics.columns[].top_values[].value"}
	daskArrayOwn = []string{"structure.c_contiguous", "structure.f_contiguous", "statistics.distinct"}
)

var enginePairs = []enginePair{
	{"pdf", "pl_df", "polars", nil}, {"pser", "pl_ser", "polars", nil}, {"pcity", "pl_city", "polars", nil},
	{"pkeys", "pl_keys", "polars", nil}, {"pkey_ser", "pl_key_ser", "polars", nil},
	{"pdf", "pa_t", "pyarrow", nil}, {"pdf", "pa_batch", "pyarrow", nil}, {"pser", "pa_ser", "pyarrow", nil}, {"pser", "pa_arr", "pyarrow", nil},
	{"pkeys", "pa_keys", "pyarrow", nil}, {"pkeys", "pa_keys_batch", "pyarrow", nil},
	{"pdf", "dk_rel", "duckdb", nil}, {"pdf", "dk_con['sales']", "duckdb", nil},
	{"pkeys", "dk_keys", "duckdb", nil}, {"pkeys", "dk_con['orders']", "duckdb", nil},
	{"pdf", "dask_df", "dask", daskOwn}, {"pser", "dask_ser", "dask", nil}, {"np_arr", "dask_arr", "dask", daskArrayOwn},
	{"pkeys", "dask_keys", "dask", daskOwn}, {"pkey_ser", "dask_key_ser", "dask", nil},
}

// engineKeyProblem: the keys table's first problem line, pandas' and each
// engine's (testdata/parity/engines.json "keys": order_id fans out).
const engineKeyProblem = "order_id: 7 repeated values (23%) in 31 rows — a key with duplicates (a join may have fanned out)"

func engineFacts(t *testing.T, r *Result, array bool, own []string) map[string]any {
	facts := flatFactsKeeping(t, r, engineClues)
	for p := range facts {
		norm := indexRe.ReplaceAllString(p, "[]")
		for own := range engineOwn {
			if norm == own || strings.HasPrefix(norm, own+".") {
				delete(facts, p)
			}
		}
		if array {
			own = append(own, engineArrayOwn...)
		}
		for _, o := range own {
			if norm == o {
				delete(facts, p)
			}
		}
	}
	return facts
}

func TestEnginesParity(t *testing.T) {
	testpython.Require(t, "pandas")
	h := startHarness(t, enginesFixture)
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 60}
	for _, p := range enginePairs {
		t.Run(p.engine, func(t *testing.T) {
			testpython.Require(t, p.module)
			want, err := Inspect(ctx, h, 0, p.pandas, opts)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Inspect(ctx, h, 0, p.engine, opts)
			if err != nil {
				t.Fatal(err)
			}
			if got.DetectedType != want.DetectedType {
				t.Errorf("detected %q, pandas %q", got.DetectedType, want.DetectedType)
			}
			if len(got.Warnings) > 0 {
				t.Errorf("warnings: %v", got.Warnings)
			}
			if got.Structure == nil || got.Structure.Engine == nil || got.Structure.Engine.Name != p.module {
				t.Errorf("structure.engine: %+v", got.Structure)
			}
			array := strings.HasPrefix(p.engine, "pa_") && p.pandas == "pser"
			gf, wf := engineFacts(t, got, array, p.own), engineFacts(t, want, array, p.own)
			for _, d := range diffFacts(wf, gf, false) {
				t.Errorf("drift from pandas: %s", strings.NewReplacer("Python", "pandas", "JavaScript", p.engine).Replace(d))
			}
			// the facts that must be there (a drift check alone passes on two empty answers)
			must := []string{"structure.shape", "preview.head[0].values"}
			if p.pandas == "np_arr" {
				must = []string{"structure.shape", "preview.values[0]", "statistics.quantiles.p50", "statistics.histogram.counts"}
			}
			for _, path := range must {
				if _, ok := factAt(gf, path); !ok {
					t.Errorf("no %s", path)
				}
			}
			if p.pandas == "pkeys" || p.pandas == "pkey_ser" {
				for _, r := range []*Result{want, got} {
					if ps := Problems(r); len(ps) == 0 || ps[0] != engineKeyProblem {
						t.Errorf("%s: problems %q, want first %q", r.Name, ps, engineKeyProblem)
					}
				}
				if p.pandas == "pkeys" {
					for _, path := range []string{"statistics.duplicate_rows", "statistics.columns[0].key_like", "statistics.columns[5].key_like"} {
						if _, ok := factAt(gf, path); !ok {
							t.Errorf("no %s", path)
						}
					}
				}
			}
			if p.pandas == "pdf" {
				for _, path := range []string{"statistics.columns[1].quantiles.p50", "statistics.columns[2].top_values[0].count",
					"statistics.columns[3].categories", "statistics.columns[4].max", "statistics.columns[5].true_count", "structure.columns[0].null_count"} {
					if _, ok := factAt(gf, path); !ok {
						t.Errorf("no %s", path)
					}
				}
			}
		})
	}
}

// enginePageCases are browsed in pandas and in each engine.
var enginePageCases = []struct {
	name string
	sel  Selection
}{
	{"sorted descending, first page", Selection{Sort: []SortKey{{Column: "price", Descending: true}}, Rows: &RowWindow{Limit: 10}}},
	{"two keys, later page", Selection{Sort: []SortKey{{Column: "city"}, {Column: "id", Descending: true}}, Rows: &RowWindow{Offset: 5, Limit: 10}}},
	{"categorical and date keys", Selection{Sort: []SortKey{{Column: "kind"}, {Column: "day"}}}},
	{"filter and column globs", Selection{Filter: `price > 50 and city != "Nice"`, Columns: []any{"id", "c*"}}},
	{"string methods, sorted", Selection{Filter: `city.str.startswith("L") or kind == "a"`, Sort: []SortKey{{Column: "qty"}}}},
	{"arithmetic, booleans, isin", Selection{Filter: `(qty * 2 >= 8) & ~ok | id.isin([1, 2, 3])`}},
	{"between, not, window", Selection{Filter: `price.between(10, 60) and not city.isna()`, Rows: &RowWindow{Offset: 2, Limit: 3}}},
	{"case-insensitive contains, a date literal", Selection{Filter: `city.str.contains("i", case=False) and day > "2024-06-01"`}},
	{"unsorted tail, columns by position", Selection{Rows: &RowWindow{Offset: 30, Limit: 10}, Columns: []any{0, -1}}},
	{"unknown rows counted", Selection{Filter: `price < 40 or city == "Lyon"`}},
	{"error: no such column", Selection{Filter: `nope > 1`}},
	{"error: refused call", Selection{Filter: `__import__("os").system("true") == 0`}},
	// duplicated() and str.match, computed by each engine in its row order (Dask refuses duplicated: dupRefusedBy)
	{"duplicated over the frame", Selection{Filter: `duplicated() or qty == 7`}},
	{"duplicated keep=False, negated", Selection{Filter: `not duplicated(keep=False) and id > 3`}},
	{"duplicated keep=False over a subset", Selection{Filter: `duplicated(subset=["city", "kind"], keep=False)`}},
	{"duplicated subset, sorted", Selection{Filter: `duplicated(subset=["city"])`, Sort: []SortKey{{Column: "qty"}}}},
	{"duplicated subset keep=last, later page", Selection{Filter: `duplicated(subset=["kind"], keep="last")`, Rows: &RowWindow{Offset: 5, Limit: 10}}},
	{"column duplicated, nulls equal", Selection{Filter: `city.duplicated() | price.duplicated(keep=False)`}},
	{"column duplicated keep=last, categorical", Selection{Filter: `kind.duplicated(keep="last") and not ok`}},
	{"str.match literal", Selection{Filter: `city.str.match("L[iy]") or city.str.match("p", case=False)`}},
}

// dupRefusedBy: the engines that refuse duplicated() (Dask: a full shuffle),
// with INVALID_EXPRESSION, where pandas answers.
var dupRefusedBy = map[string]bool{"dask": true}

func TestEnginesPagesParity(t *testing.T) {
	testpython.Require(t, "pandas")
	h := startHarness(t, enginesFixture)
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 60}
	for _, e := range []enginePair{{"pdf", "pl_df", "polars", nil}, {"pdf", "pa_t", "pyarrow", nil}, {"pdf", "pa_batch", "pyarrow", nil},
		{"pdf", "dk_rel", "duckdb", nil}, {"pdf", "dk_con['sales']", "duckdb", nil}, {"pdf", "dk_con['sales_ns']", "duckdb", nil},
		{"pdf", "dask_df", "dask", nil}} {
		t.Run(e.engine, func(t *testing.T) {
			testpython.Require(t, e.module)
			for _, c := range enginePageCases {
				page := func(expr string, count ...bool) (*PageResult, *errcode.Error) {
					sel := c.sel
					sel.Count = len(count) > 0
					r, err := Browse(ctx, h, 0, expr, sel, opts)
					if err != nil {
						return nil, errcode.From(err)
					}
					return r, r.Error
				}
				want, werr := page(e.pandas)
				got, gerr := page(e.engine)
				if werr != nil && !strings.HasPrefix(c.name, "error") {
					t.Fatalf("%s: pandas %v", c.name, werr) // each case but the errors' is a page in pandas
				}
				if gerr == nil && (c.sel.Filter != "" || len(c.sel.Sort) > 0) {
					// again: the order (and rows) the first call kept, the same page
					if again, aerr := page(e.engine); aerr != nil || !reflect.DeepEqual(again.Page.Rows, got.Page.Rows) ||
						!reflect.DeepEqual(again.Page.Positions, got.Page.Positions) || again.Page.Total() != got.Page.Total() {
						t.Errorf("%s: asked again, %v %+v, first %+v", c.name, aerr, again.Page, got.Page)
					}
				}
				if dupRefusedBy[e.module] && strings.Contains(c.sel.Filter, "duplicated(") {
					if werr != nil || gerr == nil || gerr.Code != errcode.InvalidExpression || !strings.Contains(gerr.Message, "full shuffle") {
						t.Errorf("%s: pandas %v, %s should refuse duplicated(): %v", c.name, werr, e.engine, gerr)
					}
					continue
				}
				if werr != nil || gerr != nil {
					if werr == nil || gerr == nil || werr.Code != gerr.Code {
						t.Errorf("%s: pandas %v, %s %v", c.name, werr, e.engine, gerr)
					}
					continue
				}
				w, g := want.Page, got.Page
				if (e.module == "dask" && c.sel.Filter != "") != (g.TotalPending != "") {
					t.Errorf("%s: total_pending %q: only Dask's filter is counted on request", c.name, g.TotalPending)
				}
				if g.TotalPending != "" {
					// the page first (Dask's filter): its totals on request, with the same rows
					counted, cerr := page(e.engine, true)
					if cerr != nil || counted.Page.TotalPending != "" || !reflect.DeepEqual(counted.Page.Rows, g.Rows) {
						t.Fatalf("%s: counted on request: %v %+v", c.name, cerr, counted)
					}
					g = counted.Page
				}
				if g.Total() != w.Total() || g.All() != w.All() || g.FilterNA != w.FilterNA || g.ColumnCount != w.ColumnCount {
					t.Errorf("%s: total %d/%d, all %d/%d, unknown %d/%d, columns %d/%d (engine/pandas)", c.name,
						g.Total(), w.Total(), g.All(), w.All(), g.FilterNA, w.FilterNA, g.ColumnCount, w.ColumnCount)
				}
				gp, wp := pageFacts(t, got), pageFacts(t, want)
				for _, k := range []string{"page.positions", "page.rows"} {
					gv, _ := factAt(gp, k)
					wv, _ := factAt(wp, k)
					if !sameFact(gv, wv, false) {
						t.Errorf("%s: %s %v, pandas %v", c.name, k, gv, wv)
					}
				}
				if len(g.Positions) == 0 && c.sel.Filter == "" {
					t.Errorf("%s: an empty page", c.name)
				}
			}
		})
	}
}
