// probe_bench_test.go: the probe through pyHarness (no debugger, any
// Python: DAPSCOPE_PYTHON), each beside its plain alternative in the same
// run. A 1K×10 DataFrame: the floor (a trivial evaluate) and one
// inspection. A 50M-element tensor (testdata/python/bench_tensor.py: on
// CUDA when there is one): the floor, one device synchronisation
// (torch.cuda.synchronize, nothing on the CPU), the plain reductions a
// person would evaluate (min, max, mean, std, NaN count; each a host
// round trip), and one inspection (statistics on the device, a 1M sample
// over 10M elements, one transfer).

package inspect

import (
	"context"
	"testing"
	"time"
)

func benchEval(b *testing.B, h *pyHarness, expr string) {
	b.Helper()
	for i := 0; i < b.N; i++ {
		if _, err := h.EvaluateProbe(context.Background(), EvalRequest{Expression: expr, RawString: true}); err != nil {
			b.Fatal(err)
		}
	}
}

func benchInspect(b *testing.B, h *pyHarness, expr string) {
	b.Helper()
	opts := Options{Timeout: 10, RequestTimeout: 60}
	if _, err := Inspect(context.Background(), h, 0, expr, opts); err != nil { // the probe installed
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r, err := Inspect(context.Background(), h, 0, expr, opts)
		if err != nil || r.Partial {
			b.Fatalf("%v %v", err, r)
		}
	}
}

func BenchmarkProbeDataFrame1Kx10(b *testing.B) {
	h := startHarness(b, fixture)
	b.Run("floor", func(b *testing.B) { benchEval(b, h, "'x'") })
	b.Run("inspect", func(b *testing.B) { benchInspect(b, h, "df") })
}

func BenchmarkProbeTensor50M(b *testing.B) {
	h := startHarness(b, "../testdata/python/bench_tensor.py")
	b.Run("floor", func(b *testing.B) { benchEval(b, h, "'x'") })
	b.Run("synchronize", func(b *testing.B) { benchEval(b, h, "str(sync())") })
	b.Run("plain_reductions", func(b *testing.B) {
		benchEval(b, h, "str([float(t50m.nan_to_num(0).min()), float(t50m.nan_to_num(0).max()), float(t50m.nanmean()), "+
			"float(t50m[~t50m.isnan()].std()), int(t50m.isnan().sum())])")
	})
	b.Run("inspect", func(b *testing.B) { benchInspect(b, h, "t50m") })
}

// BenchmarkProbeFingerprints50x1M: the one-line summaries of 50 locals of
// 1M cells each (testdata/python/bench_fingerprint.py), without and with
// their fingerprints (what debug_diff compares at each stop), side by side.
func BenchmarkProbeFingerprints50x1M(b *testing.B) {
	h := startHarness(b, "../testdata/python/bench_fingerprint.py")
	// the probe installed and every value touched once, before either is timed
	if _, err := SummariesWith(context.Background(), h, 0, nil, SummaryOptions{Timeout: 30 * time.Second, Fingerprints: true}); err != nil {
		b.Fatal(err)
	}
	for _, fp := range []bool{false, true, false, true} {
		name := "summaries"
		if fp {
			name = "summaries+fingerprints"
		}
		b.Run(name, func(b *testing.B) {
			o := SummaryOptions{Timeout: 30 * time.Second, Fingerprints: fp}
			for b.Loop() {
				items, err := SummariesWith(context.Background(), h, 0, nil, o)
				if err != nil || len(items) < 50 {
					b.Fatalf("%v: %d items", err, len(items))
				}
				if fp && items[0].Fingerprint == "" {
					b.Fatalf("no fingerprint: %+v", items[0])
				}
			}
		})
	}
}
