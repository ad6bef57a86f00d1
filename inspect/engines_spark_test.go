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
	"strings"
	"testing"

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
	// The first inspection compiles Spark's code for its queries (seconds
	// on a busy machine, which the 10 s budget may cancel): the facts are
	// checked on the second.
	if _, err := Inspect(ctx, h, 0, "sdf", opts); err != nil {
		t.Fatal(err)
	}
	got, err := Inspect(ctx, h, 0, "sdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	e := got.Structure.Engine
	if got.DetectedType != TypeDataFrame || e == nil || e.Name != "spark" || e.Plan == "" || e.Partitions == nil || *e.Partitions != 3 ||
		!strings.HasPrefix(e.Computed, "computed by Spark: ") || !strings.Contains(e.Computed, " job") || len(got.Warnings) > 0 {
		t.Fatalf("spark: %+v %+v %v", got.Structure, e, got.Warnings)
	}
	gf, wf := flatFacts(t, got), flatFacts(t, want)
	exact := []string{"structure.shape"}
	for i := range 7 {
		exact = append(exact, "structure.columns["+itoa(int64(i))+"].null_count")
	}
	for _, p := range []string{"[0].min", "[0].max", "[0].mean", "[1].min", "[1].max", "[1].mean", "[1].zeros", "[6].mean",
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
	if q := got.Statistics.Columns[1]; !q.Sampled || q.Quantiles == nil || !q.DistinctEstimated || got.Statistics.Computed == "" {
		t.Errorf("estimates not flagged: %+v", q)
	}
	// pages: a unique sort key, filters (three-valued), windows
	for _, sel := range []Selection{
		{Sort: []SortKey{{Column: "id", Descending: true}}, Rows: &RowWindow{Limit: 10}},
		{Filter: `price > 50 and city != "Nice"`, Sort: []SortKey{{Column: "id"}}, Rows: &RowWindow{Offset: 2, Limit: 4}},
		{Filter: `city.str.contains("i", case=False) and day > "2024-06-01" or qty.isin([1, 2])`, Sort: []SortKey{{Column: "id"}}, Columns: []any{"id", "c*"}},
	} {
		w, err := Browse(ctx, h, 0, "pdf", sel, opts)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Browse(ctx, h, 0, "sdf", sel, opts)
		if err != nil || g.Error != nil {
			t.Fatalf("%+v: %v %+v", sel, err, g.Error)
		}
		gp, wp := pageFacts(t, g), pageFacts(t, w)
		for _, k := range []string{"page.rows", "page.total_rows", "page.all_rows", "page.filter_na_rows", "page.columns"} {
			gv, _ := factAt(gp, k)
			wv, _ := factAt(wp, k)
			if k == "page.columns" { // the names (dtypes are Spark's)
				gv, wv = len(g.Page.Columns), len(w.Page.Columns)
			}
			if !sameFact(gv, wv, false) {
				t.Errorf("%+v: %s spark %v, pandas %v", sel, k, gv, wv)
			}
		}
		if !strings.HasPrefix(g.Page.Computed, "computed by Spark: ") {
			t.Errorf("page computed: %q", g.Page.Computed)
		}
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
