// BenchmarkEnginesDebugpy (issue 32): later pages of the 10M-row polars
// and DuckDB tables of testdata/python/engines_big.py through real
// debugpy, each beside debugpy's trivial evaluate (floor: `1`) and an
// evaluate answering 10 KB (floor_10KB, as much as a page) in the same
// run; x_floor is a page's time over the floor's of that run, and each
// _paired sub-benchmark times a page right after a trivial evaluate in
// every iteration (x_plain: the median ratio, both under the same load).
// No Spark here (BenchmarkEngines has it).
//
//	DAPSCOPE_PYTHON=$PWD/.venv/bin/python VIRTUAL_ENV=$PWD/.venv go test -run '^$' -bench EnginesDebugpy -benchtime 20x ./inspect

package inspect_test

import (
	"context"
	"os"
	"strconv"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/mux"
	"github.com/dapscope/dapscope/server/session"
)

const enginesBig = "testdata/python/engines_big.py"

func BenchmarkEnginesDebugpy(b *testing.B) {
	testpython.Require(b, "polars", "duckdb", "pyarrow")
	os.Setenv("DAPSCOPE_SPARK_ROWS", "0")
	defer os.Unsetenv("DAPSCOPE_SPARK_ROWS")
	mgr, s, err := launchStopped(b, "debugpy", enginesBig, session.Breakpoint{File: enginesBig, Line: breakLine(b, enginesBig)})
	if err != nil {
		b.Fatal(err)
	}
	defer mgr.Close()
	ctx := context.Background()
	top, err := s.TopFrame(ctx)
	if err != nil {
		b.Fatal(err)
	}
	n, err := s.Evaluate(ctx, "pl10m.height", top.Id, "repl")
	if err != nil {
		b.Fatal(err)
	}
	rows, _ := strconv.ParseInt(n.Result, 10, 64)
	opts := inspect.Options{Timeout: 10, RequestTimeout: 300}
	var step int64
	later := func() *inspect.RowWindow { step++; return window(10_000+(step*7_919_993)%(rows-20_000), 100) }
	laterFiltered := func() *inspect.RowWindow { step++; return window(1_000+(step*7_919)%(rows/20), 100) }
	const q = `a > 1000 and city == "Nice"`
	var floor float64 // ns per trivial evaluate, this run
	timed := func(b *testing.B, f func()) float64 {
		f()
		for b.Loop() {
			f()
		}
		return float64(b.Elapsed().Nanoseconds()) / float64(b.N)
	}
	b.Run("floor", func(b *testing.B) {
		floor = timed(b, func() {
			if _, err := s.Evaluate(ctx, "1", top.Id, "repl"); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("floor_10KB", func(b *testing.B) {
		args := map[string]any{"expression": "'x' * 10240", "frameId": top.Id, "context": "repl", "format": map[string]any{"rawString": true}}
		ns := timed(b, func() {
			var out struct{ Result string }
			if err := s.Request(ctx, "evaluate", args, &out); err != nil || len(out.Result) < 10240 {
				b.Fatalf("%d bytes, %v", len(out.Result), err)
			}
		})
		b.ReportMetric(ns/floor, "x_floor")
	})
	for _, c := range []struct {
		name, expr string
		sel        func() inspect.Selection
	}{
		{"polars/unsorted_later", "pl10m", func() inspect.Selection { return inspect.Selection{Rows: later()} }},
		{"polars/sorted_later", "pl10m", func() inspect.Selection { return inspect.Selection{Sort: sortBy("a", false), Rows: later()} }},
		{"polars/filtered_later", "pl10m", func() inspect.Selection { return inspect.Selection{Filter: q, Rows: laterFiltered()} }},
		{"duckdb/unsorted_later", "dk10m", func() inspect.Selection { return inspect.Selection{Rows: later()} }},
		{"duckdb/sorted_later", "dk10m", func() inspect.Selection { return inspect.Selection{Sort: sortBy("a", false), Rows: later()} }},
		{"duckdb/filtered_later", "dk10m", func() inspect.Selection { return inspect.Selection{Filter: q, Rows: laterFiltered()} }},
	} {
		b.Run(c.name, func(b *testing.B) {
			probe, calls := 0.0, 0
			ns := timed(b, func() {
				r, err := inspect.Browse(ctx, s, top.Id, c.expr, c.sel(), opts)
				if err != nil || r.Error != nil || r.Page == nil || len(r.Page.Rows) != 100 {
					b.Fatalf("%v %+v", err, r)
				}
				if calls++; calls > 1 { // the first call computes the order (before the timing)
					probe += r.ProbeMs
				}
			})
			b.ReportMetric(probe/float64(b.N), "probe_ms/op")
			b.ReportMetric(ns/floor, "x_floor")
		})
		// each page right after a trivial evaluate, under the same load
		// (x_plain); that evaluate is sent read-only, as the probe's are: a
		// user's evaluate would start a new generation of values and drop
		// the kept orders
		floorArgs := map[string]any{"expression": "1", "frameId": top.Id, "context": "repl"}
		b.Run(c.name+"_paired", func(b *testing.B) {
			inspect.PairedRatio(b, func() {
				var out struct{ Result string }
				if err := s.Request(mux.ReadOnly(ctx), "evaluate", floorArgs, &out); err != nil || out.Result != "1" {
					b.Fatal(err, out.Result)
				}
			}, func() {
				if r, err := inspect.Browse(ctx, s, top.Id, c.expr, c.sel(), opts); err != nil || r.Error != nil || r.Page == nil {
					b.Fatalf("%v %+v", err, r)
				}
			})
		})
	}
}
