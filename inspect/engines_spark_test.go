// Spark (issue 32): a DataFrame on one local[2] SparkSession (the
// fixture's, testdata/parity/engines_spark.py) inspected and browsed
// through Spark's API. The facts Spark computes exactly (counts, nulls,
// min/max/mean, true counts, string lengths, top-value counts) and the
// pages of a selection sorted by a unique key are pandas'; quantiles
// (percentile_approx) and distinct counts (approx_count_distinct) are
// flagged as estimates. Free facts (schema, partitions, plan) come without
// a job; jobs run only within the time budget and are named.

package inspect

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
)

func TestEnginesSpark(t *testing.T) {
	testpython.Require(t, "pandas", "pyspark")
	h := startHarness(t, "../testdata/parity/engines_spark.py")
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 120}
	want, err := Inspect(ctx, h, 0, "pdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	got := sparkInspect(ctx, t, h, "sdf", opts)
	e := got.Structure.Engine
	if got.DetectedType != TypeDataFrame || e == nil || e.Name != "spark" || e.Plan == "" || e.Partitions == nil || *e.Partitions != 3 ||
		!strings.HasPrefix(e.Computed, "computed by Spark: ") || !strings.Contains(e.Computed, " job") || len(got.Warnings) > 0 {
		t.Fatalf("spark: %+v %+v %v", got.Structure, e, got.Warnings)
	}
	gf, wf := flatFactsKeeping(t, got, engineClues), flatFactsKeeping(t, want, engineClues)
	exact := []string{"structure.shape"}
	for i := range 7 {
		exact = append(exact, "structure.columns["+itoa(int64(i))+"].null_count")
	}
	for _, p := range []string{"[0].min", "[0].max", "[0].mean", "[1].min", "[1].max", "[1].mean", "[1].zeros", "[6].mean",
		"[0].distinct", "[1].distinct", "[2].distinct", "[6].distinct", "[2].repeated", "[6].repeated",
		"[1].histogram.counts", "[5].true_count", "[5].top_values", "[2].str_len.min", "[2].str_len.max", "[2].str_len.mean"} {
		exact = append(exact, "statistics.columns"+p)
	}
	for _, p := range exact {
		g, gok := factAt(gf, p)
		w, wok := factAt(wf, p)
		if !gok || !wok || !sameFact(g, w, tolerant(p)) {
			t.Errorf("%s: spark %v, pandas %v", p, g, w)
		}
	}
	// top values: the counts (ties among them come in value order: Spark has no row order)
	for i := range 5 {
		p := "statistics.columns[2].top_values[" + itoa(int64(i)) + "].count"
		if g, w := gf[p], wf[p]; !sameFact(g, w, false) {
			t.Errorf("%s: spark %v, pandas %v", p, g, w)
		}
	}
	if q := got.Statistics.Columns[1]; !q.Sampled || q.Quantiles == nil || q.DistinctEstimated || got.Statistics.Computed == "" {
		t.Errorf("estimates not flagged, or the exact distinct count flagged: %+v", q)
	}
	sparkKeys(ctx, t, h, opts)
	// pages: a unique sort key, filters (three-valued), windows
	for _, sel := range []Selection{
		{Sort: []SortKey{{Column: "id", Descending: true}}, Rows: &RowWindow{Limit: 10}},
		{Filter: `price > 50 and city != "Nice"`, Sort: []SortKey{{Column: "id"}}, Rows: &RowWindow{Offset: 2, Limit: 4}},
		{Filter: `city.str.contains("i", case=False) and day > "2024-06-01" or qty.isin([1, 2])`, Sort: []SortKey{{Column: "id"}}, Columns: []any{"id", "c*"}},
		// duplicated(keep=False): a count over a window per key (nulls equal); str.match
		{Filter: `duplicated(subset=["city", "kind"], keep=False) or price.duplicated(keep=False)`, Sort: []SortKey{{Column: "id"}}},
		{Filter: `city.str.match("L[iy]") or city.str.match("p", case=False)`, Sort: []SortKey{{Column: "id"}}},
	} {
		w, err := Browse(ctx, h, 0, "pdf", sel, opts)
		if err != nil {
			t.Fatal(err)
		}
		sparkPages(ctx, t, h, sel, w, opts)
	}
	// keep='first' (the default) needs a row order, which Spark has not: refused, saying so
	g, err := Browse(ctx, h, 0, "sdf", Selection{Filter: `city.duplicated()`}, opts)
	if err == nil && g.Error != nil {
		err = g.Error
	}
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "row order") {
		t.Errorf("duplicated() over Spark: %v", err)
	}
	// a budget spent at once: the free facts, at most the first job (one
	// that starts within the budget runs; a job group past it is
	// cancelled), and what was left out is listed
	r, err := Inspect(ctx, h, 0, "sdf", Options{Timeout: 0.1, RequestTimeout: 120})
	if err != nil {
		t.Fatal(err)
	}
	if r.Structure.Engine == nil || r.Structure.Engine.Plan == "" || len(r.Structure.Columns) != 7 || len(r.TimedOut)+len(r.Warnings) == 0 {
		t.Errorf("a 0.1 s budget: %+v %v %v", r.Structure, r.Warnings, r.TimedOut)
	}
}

// sparkKeys: the keys table's clues (countDistinct per column and of the
// rows, in the one agg's job) are pandas': repeated values, keys, duplicate
// rows (one, whose discount is -0.0 where the other's is 0.0), and the
// problem lines word for word.
func sparkKeys(ctx context.Context, t *testing.T, h *pyHarness, opts Options) {
	want, err := Inspect(ctx, h, 0, "pkeys", opts)
	if err != nil {
		t.Fatal(err)
	}
	got := sparkInspect(ctx, t, h, "skeys", opts)
	if got.Statistics == nil || len(got.Warnings) > 0 {
		t.Fatalf("skeys: %v", got.Warnings)
	}
	gf, wf := flatFactsKeeping(t, got, engineClues), flatFactsKeeping(t, want, engineClues)
	for i := range 7 {
		for _, k := range []string{"distinct", "repeated", "key_like", "repeated_not_computed"} {
			p := "statistics.columns[" + itoa(int64(i)) + "]." + k
			if g, w := gf[p], wf[p]; !sameFact(g, w, false) {
				t.Errorf("%s: spark %v, pandas %v", p, g, w)
			}
		}
	}
	if g := got.Statistics.DuplicateRows; g == nil || *g != 1 {
		t.Errorf("duplicate_rows: %v (pandas' duplicated().sum() is 1)", g)
	}
	if gp, wp := Problems(got), Problems(want); len(gp) == 0 || gp[0] != engineKeyProblem || !slices.Equal(gp, wp) {
		t.Errorf("problems: spark %q, pandas %q", gp, wp)
	}
}

// sparkInspect: the facts of a Spark frame, from the first of up to four
// inspections that Spark finished within the 10 s budget. The first
// compiles Spark's code for its queries, and on a busy machine (8 test
// runs on 2 cores) a job group may still be cancelled at the budget; the
// facts are what this test checks, not the speed.
func sparkInspect(ctx context.Context, t *testing.T, h *pyHarness, expr string, opts Options) *Result {
	t.Helper()
	var r *Result
	for range 4 {
		var err error
		if r, err = Inspect(ctx, h, 0, expr, opts); err != nil {
			t.Fatal(err)
		}
		if len(r.Warnings) == 0 && len(r.TimedOut) == 0 {
			break
		}
	}
	return r
}

// sparkPages: a Spark page comes first, its totals on request. The page
// alone has pandas' rows and says its totals are not counted
// (total_pending; a page that ends before its limit tells its total); count: true with the page gives pandas' totals too, and with
// rows.limit 0 the count alone (an aggregate: no row collected); a page
// of a selection counted this stop carries its count.
func sparkPages(ctx context.Context, t *testing.T, h *pyHarness, sel Selection, w *PageResult, opts Options) {
	t.Helper()
	wp := pageFacts(t, w)
	only := sel
	only.Count, only.Rows = true, &RowWindow{Limit: 0}
	withCount := sel
	withCount.Count = true
	for _, c := range []struct {
		name string
		sel  Selection
		keys []string
	}{
		{"page first", sel, []string{"page.rows", "page.columns"}},
		{"page and count", withCount, []string{"page.rows", "page.total_rows", "page.all_rows", "page.filter_na_rows", "page.columns"}},
		{"count alone", only, []string{"page.total_rows", "page.all_rows", "page.filter_na_rows", "page.columns"}},
		// counted once this stop: the page carries the count, no job of its own
		{"page after its count", sel, []string{"page.rows", "page.total_rows", "page.all_rows", "page.filter_na_rows", "page.columns"}},
	} {
		g, err := Browse(ctx, h, 0, "sdf", c.sel, opts)
		if err != nil {
			t.Fatalf("%s %+v: %v", c.name, c.sel, err)
		}
		if g.Error != nil {
			t.Fatalf("%s %+v: %+v", c.name, c.sel, g.Error)
		}
		gp := pageFacts(t, g)
		for _, k := range c.keys {
			gv, _ := factAt(gp, k)
			wv, _ := factAt(wp, k)
			if k == "page.columns" { // the names (dtypes are Spark's)
				gv, wv = len(g.Page.Columns), len(w.Page.Columns)
			}
			if !sameFact(gv, wv, false) {
				t.Errorf("%s %+v: %s spark %v, pandas %v", c.name, c.sel, k, gv, wv)
			}
		}
		p := g.Page
		switch {
		case c.name == "page first":
			ended := len(p.Rows) < p.Limit // the page tells the filtered total
			if ended && p.Total() != w.Page.Total() || !ended && (p.TotalRows != nil || p.AllRows != nil) ||
				!strings.HasPrefix(p.TotalPending, "counted on request") {
				t.Errorf("page first %+v: total %d, all %d, pending %q (pandas %d)", c.sel, p.Total(), p.All(), p.TotalPending, w.Page.Total())
			}
		case p.TotalPending != "":
			t.Errorf("%s %+v: pending %q", c.name, c.sel, p.TotalPending)
		case c.name == "count alone" && (len(p.Rows) != 0 || p.Limit != 0):
			t.Errorf("count alone %+v: %d rows, %q", c.sel, len(p.Rows), p.Computed)
		}
		if !strings.HasPrefix(p.Computed, "computed by Spark: ") {
			t.Errorf("%s: page computed: %q", c.name, p.Computed)
		}
	}
}
