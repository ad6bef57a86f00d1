// Benchmarks against real debugpy, one shared session (go test -bench
// Debugpy ./inspect): for each value, the trivial-evaluate floor, one
// dapscope inspection, and the per-expression approach (one evaluate per
// fact, sequential, reprs to parse) that the inspector replaces.

package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

// perExpression is what a client does without the inspector: one evaluate
// per fact (a frame's per-column facts for each of its cols columns).
func perExpression(name, kind string, cols int) []string {
	switch kind {
	case "dataframe":
		exprs := []string{
			"type(%[1]s).__name__", "%[1]s.shape", "str(%[1]s.dtypes.to_dict())", "%[1]s.columns.tolist()",
			"str(%[1]s.index)", "int(%[1]s.memory_usage(deep=False).sum())", "%[1]s.isna().sum().to_dict()",
			"%[1]s.head(5).to_dict()", "%[1]s.tail(2).to_dict()", "%[1]s.describe().to_dict()",
		}
		for i := 0; i < cols; i++ {
			exprs = append(exprs, fmt.Sprintf("%%[1]s.iloc[:, %d].nunique()", i),
				fmt.Sprintf("%%[1]s.iloc[:, %d].value_counts().head(5).to_dict()", i))
		}
		return fill(exprs, name)
	case "ndarray":
		return fill([]string{
			"type(%[1]s).__name__", "%[1]s.shape", "str(%[1]s.dtype)", "%[1]s.nbytes", "float(%[1]s.min())",
			"float(%[1]s.max())", "float(%[1]s.mean())", "float(%[1]s.std())", "int(np.isnan(%[1]s).sum())",
			"int(np.isinf(%[1]s).sum())", "np.percentile(%[1]s, [5, 25, 50, 75, 95]).tolist()",
			"np.histogram(%[1]s, 10)[0].tolist()", "%[1]s[:5].tolist()", "%[1]s[-5:].tolist()",
		}, name)
	default: // dict
		return fill([]string{
			"type(%[1]s).__name__", "len(%[1]s)", "sorted({type(k).__name__ for k in %[1]s})",
			"sorted({type(v).__name__ for v in %[1]s.values()})", "list(%[1]s.items())[:10]", "list(%[1]s)[-3:]",
		}, name)
	}
}

func fill(exprs []string, name string) []string {
	out := make([]string, len(exprs))
	for i, e := range exprs {
		out[i] = fmt.Sprintf(e, name)
	}
	return out
}

func BenchmarkDebugpy(b *testing.B) {
	// The fixture builds its 100K×50 frame only for the benchmarks (the
	// tests' goldens list the frame's names); a session that tests started
	// earlier in this run has none, and that case is skipped.
	os.Setenv("DAPSCOPE_BENCH_100KX50", "1")
	s := debugpySession(b)
	ctx := context.Background()
	top, err := s.TopFrame(ctx)
	if err != nil {
		b.Fatal(err)
	}
	// DataFrame2500x6Ledger (testdata/python/inspect_values.py's
	// ledger_frame) is a held-out shape: a date, an id-like key with
	// duplicates, an account, an amount with NaNs, a memo, a flag.
	for _, c := range []struct {
		label, name, kind string
		cols              int
	}{
		{"DataFrame1Kx10", "df", "dataframe", 10},
		{"DataFrame100Kx50", "df100kx50", "dataframe", 10},
		{"DataFrame2500x6Ledger", "ledger", "dataframe", 6},
		{"DataFrame1Mx10", "big_df", "dataframe", 10},
		{"Float64Array1M", "arr1m", "ndarray", 0},
		{"Dict1K", "big_dict", "dict", 0},
	} {
		b.Run(c.label+"/floor", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Evaluate(ctx, "1", top.Id, "repl"); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.label+"/inspect", func(b *testing.B) {
			if _, err := s.Evaluate(ctx, "len("+c.name+")", top.Id, "repl"); err != nil {
				b.Skipf("%s: not in this session's frame (%v)", c.name, err)
			}
			var size int
			var probeMs float64
			for b.Loop() {
				res, err := inspect.Inspect(ctx, s, top.Id, c.name, inspect.Options{})
				if err != nil {
					b.Fatal(err)
				}
				if res.Partial {
					b.Fatalf("partial result (timed out: %v)", res.TimedOut)
				}
				raw, _ := json.Marshal(res)
				size = len(raw)
				probeMs += res.ProbeMs
			}
			b.ReportMetric(float64(size), "json_bytes")
			b.ReportMetric(probeMs/float64(b.N), "probe_ms/op")
		})
		exprs := perExpression(c.name, c.kind, c.cols)
		b.Run(c.label+"/per_expression", func(b *testing.B) {
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
}
