// BenchmarkEngines (issue 32): pages of 10M-row polars and DuckDB tables
// and a Spark frame, each beside its plain alternative in the same run:
// a trivial evaluate (floor; floor_10KB answers as much as a page), and
// the engine's own sort of the column
// (polars' sort().head(), DuckDB's ORDER BY … LIMIT, Spark's
// orderBy().limit(n).collect()) evaluated as plain Python; each page
// reports its ratio to them (x_own, x_floor, x_floor_10KB), and a
// _paired sub-benchmark times it right after its plain alternative in
// every iteration (x_plain, the median ratio under the same load). Through
// pyHarness (no debugger: the same probe calls, one evaluate each).
//
//	DAPSCOPE_PYTHON=$PWD/.venv/bin/python go test -run '^$' -bench Engines -benchtime 10x ./inspect

package inspect

import (
	"context"
	"strconv"
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
)

// freshHarness gives each browse a new stop: nothing cached.
type freshHarness struct {
	*pyHarness
	gen int
}

func (f *freshHarness) ValuesGen() int { f.gen++; return f.gen }

func BenchmarkEngines(b *testing.B) {
	testpython.Require(b, "polars", "duckdb")
	h := startHarness(b, "../testdata/python/engines_big.py")
	cold := &freshHarness{pyHarness: h}
	ctx := context.Background()
	opts := Options{Timeout: 10, RequestTimeout: 300}
	eval := func(b *testing.B, expr string) {
		if _, err := h.EvaluateProbe(ctx, EvalRequest{Expression: expr, RawString: true}); err != nil {
			b.Fatal(err)
		}
	}
	nrows, err := h.EvaluateProbe(ctx, EvalRequest{Expression: "str(pl10m.height)", RawString: true})
	if err != nil {
		b.Fatal(err)
	}
	rows, _ := strconv.ParseInt(nrows, 10, 64)
	var step int64
	later := func() *RowWindow {
		step++
		return &RowWindow{Offset: 10_000 + (step*7_919_993)%(rows-20_000), Limit: 100}
	}
	laterFiltered := func() *RowWindow { step++; return &RowWindow{Offset: 1_000 + (step*7_919)%(rows/20), Limit: 100} }
	first := func() *RowWindow { return &RowWindow{Limit: 100} }
	hasSpark, _ := h.EvaluateProbe(ctx, EvalRequest{Expression: "type(sdf).__name__", RawString: true})
	type c struct {
		name string
		t    Target
		expr string
		sel  func() Selection
		own  string // the engine's own operation, as a plain evaluate
	}
	cases := []c{
		{"polars/unsorted_later", h, "pl10m", func() Selection { return Selection{Rows: later()} }, ""},
		{"polars/sorted_later", h, "pl10m", func() Selection { return Selection{Sort: []SortKey{{Column: "a"}}, Rows: later()} }, ""},
		{"polars/filtered_later", h, "pl10m", func() Selection { return Selection{Filter: `a > 1000 and city == "Nice"`, Rows: laterFiltered()} }, ""},
		{"polars/sorted_first", cold, "pl10m", func() Selection { return Selection{Sort: []SortKey{{Column: "a"}}, Rows: first()} },
			"str(pl10m.sort('a', nulls_last=True, maintain_order=True).head(100).height)"},
		{"duckdb/unsorted_later", h, "dk10m", func() Selection { return Selection{Rows: later()} }, ""},
		{"duckdb/sorted_later", h, "dk10m", func() Selection { return Selection{Sort: []SortKey{{Column: "a"}}, Rows: later()} }, ""},
		{"duckdb/sorted_first", cold, "dk10m", func() Selection { return Selection{Sort: []SortKey{{Column: "a"}}, Rows: first()} },
			"str(len(dk10m.order('a ASC NULLS LAST').limit(100).fetchall()))"},
	}
	if hasSpark == "DataFrame" {
		// the page first (its totals on request), and the same page with
		// its totals counted in its own job (count: true), beside Spark's own
		own := "str(len(sdf.where('qty > 50').orderBy(__import__('pyspark.sql.functions').sql.functions.col('a').asc_nulls_last()).limit(100).collect()))"
		for _, count := range []bool{false, true} {
			name := "spark/filtered_sorted_first"
			if count {
				name += "_counted"
			}
			cases = append(cases, c{name, cold, "sdf",
				func() Selection {
					return Selection{Filter: "qty > 50", Sort: []SortKey{{Column: "a"}}, Rows: first(), Count: count}
				}, own})
		}
	}
	// ns per op of the plain alternatives, this run: a page reports its
	// ratio to them (x_floor, x_floor_10KB, x_own)
	var floor, floor10K float64
	timed := func(b *testing.B, f func()) float64 {
		for b.Loop() {
			f()
		}
		return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	}
	b.Run("floor", func(b *testing.B) {
		floor = timed(b, func() { eval(b, "1") })
	})
	// the transport's share of a page: an evaluate answering 10 KB, nothing computed
	b.Run("floor_10KB", func(b *testing.B) {
		floor10K = timed(b, func() { eval(b, "'x' * 10240") })
	})
	for _, k := range cases {
		own := 0.0
		if k.own != "" {
			b.Run(k.name+"_own", func(b *testing.B) {
				eval(b, k.own)
				own = timed(b, func() { eval(b, k.own) })
			})
		}
		b.Run(k.name, func(b *testing.B) {
			get := func() *PageResult {
				r, err := Browse(ctx, k.t, 0, k.expr, k.sel(), opts)
				if err != nil || r.Error != nil || r.Page == nil || len(r.Page.Rows) != 100 {
					b.Fatalf("%v %+v", err, r)
				}
				return r
			}
			get() // the probe is installed (and a later page's order computed) before the timing
			probe := 0.0
			ns := timed(b, func() { probe += get().ProbeMs })
			b.ReportMetric(probe/float64(b.N), "probe_ms/op")
			if own > 0 {
				b.ReportMetric(ns/own, "x_own")
			} else {
				b.ReportMetric(ns/floor, "x_floor")
				b.ReportMetric(ns/floor10K, "x_floor_10KB")
			}
		})
		// the same, each page right after its plain alternative (the
		// engine's own operation, else the trivial evaluate): x_plain
		plain := k.own
		if plain == "" {
			plain = "1"
		}
		b.Run(k.name+"_paired", func(b *testing.B) {
			PairedRatio(b, func() { eval(b, plain) }, func() {
				if r, err := Browse(ctx, k.t, 0, k.expr, k.sel(), opts); err != nil || r.Error != nil || r.Page == nil {
					b.Fatalf("%v %+v", err, r)
				}
			})
		})
	}
}
