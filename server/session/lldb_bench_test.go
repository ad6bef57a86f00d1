// lldb_bench_test.go: the lldb probe on a 1M-element Vec<f64> (structure,
// preview and statistics over every element) beside lldb-dap's own
// variables request for the same value (its first page, as an editor
// asks), in one run.

package session

import (
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

func BenchmarkLLDBVec1M(b *testing.B) {
	s := stopAt(b, nativetest.Rust, "// break here", "1000000")
	ctx := testCtx(b)
	r, err := inspect.Inspect(ctx, s, 0, "prices", inspect.Options{})
	if err != nil || r.Statistics == nil || r.Statistics.Count == nil || *r.Statistics.Count != 1_000_000 {
		b.Fatalf("prices: %+v, %v", r, err)
	}
	b.Run("probe", func(b *testing.B) {
		var probeMs float64
		for b.Loop() {
			r, err := inspect.Inspect(ctx, s, 0, "prices", inspect.Options{})
			if err != nil {
				b.Fatal(err)
			}
			probeMs += r.ProbeMs
		}
		b.ReportMetric(probeMs/float64(b.N), "probe-ms/op")
	})
	b.Run("variables", func(b *testing.B) {
		frame, err := s.TopFrame(ctx)
		if err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			scopes, err := s.Scopes(ctx, frame.Id)
			if err != nil {
				b.Fatal(err)
			}
			vars, err := s.Variables(ctx, scopes[0].VariablesReference)
			if err != nil {
				b.Fatal(err)
			}
			ref := 0
			for _, v := range vars {
				if v.Name == "prices" {
					ref = v.VariablesReference
				}
			}
			var page struct {
				Variables []struct{ Name string } `json:"variables"`
			}
			if err := s.Request(ctx, "variables", map[string]any{"variablesReference": ref, "start": 0, "count": 100}, &page); err != nil || len(page.Variables) == 0 {
				b.Fatalf("variables of prices: %d, %v", len(page.Variables), err)
			}
		}
	})
}
