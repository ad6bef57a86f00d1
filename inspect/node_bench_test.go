// Benchmarks of the JavaScript probe against real Node (go test -bench Node
// ./inspect), side by side in one run on the shared session: a 10,000-row
// array of records with 10 fields, inspected by dapscope (one evaluate), the
// trivial-evaluate floor, and one evaluate per fact (what a client does
// without the probe: each statistic of each column separately).

package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

// perFactJS is one evaluate per fact of a table of records: the shape, the
// keys, then per column its types, nulls, min, max, mean, distinct and top
// values, and the head and tail rows.
func perFactJS(name string, cols []string) []string {
	out := []string{
		name + ".length",
		"JSON.stringify(Object.keys(" + name + "[0]))",
		"JSON.stringify(" + name + ".slice(0, 5))",
		"JSON.stringify(" + name + ".slice(-2))",
	}
	for _, c := range cols {
		v := fmt.Sprintf("%s.map((r) => r[%q])", name, c)
		out = append(out,
			"JSON.stringify([...new Set("+v+".map((x) => x === null ? 'null' : typeof x))])",
			v+".filter((x) => x == null).length",
			"Math.min(..."+v+".filter((x) => typeof x === 'number'))",
			"Math.max(..."+v+".filter((x) => typeof x === 'number'))",
			v+".filter((x) => typeof x === 'number').reduce((a, b) => a + b, 0) / "+name+".length",
			"new Set("+v+").size",
			"JSON.stringify([..."+v+".reduce((m, x) => m.set(x, (m.get(x) || 0) + 1), new Map())].sort((a, b) => b[1] - a[1]).slice(0, 5))",
		)
	}
	return out
}

func BenchmarkNode(b *testing.B) {
	s := nodeSession(b)
	ctx := context.Background()
	top, err := s.TopFrame(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Records10Kx10/floor", func(b *testing.B) {
		for b.Loop() {
			if _, err := s.Evaluate(ctx, "1", top.Id, "repl"); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Records10Kx10/inspect", func(b *testing.B) {
		var size int
		var probe float64
		for b.Loop() {
			res, err := inspect.Inspect(ctx, s, top.Id, "bench", inspect.Options{Timeout: 10})
			if err != nil {
				b.Fatal(err)
			}
			if res.Partial || res.DetectedType != inspect.TypeDataFrame {
				b.Fatalf("%s, partial %v (timed out: %v)", res.DetectedType, res.Partial, res.TimedOut)
			}
			raw, _ := json.Marshal(res)
			size, probe = len(raw), res.ProbeMs
		}
		b.ReportMetric(float64(size), "json_bytes")
		b.ReportMetric(probe, "probe_ms")
	})
	exprs := perFactJS("bench", []string{"id", "x", "y", "k", "name", "flag", "score", "cat", "w", "z"})
	b.Run("Records10Kx10/per_fact", func(b *testing.B) {
		for b.Loop() {
			for _, e := range exprs {
				if _, err := s.Evaluate(ctx, e, top.Id, "repl"); err != nil {
					b.Fatalf("%s: %v", e, err)
				}
			}
		}
		b.ReportMetric(float64(len(exprs)), "evaluates")
	})
}
