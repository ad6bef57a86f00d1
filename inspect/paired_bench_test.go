package inspect

import (
	"slices"
	"testing"
	"time"
)

// PairedRatio runs plain then mine in each iteration of b's loop and
// reports the median time of each (plain_ms, mine_ms) and the median of
// their ratios (x_plain): on a shared machine whose load drifts between
// sub-benchmarks, the pair is measured under the same load. Each runs once
// before the timing.
func PairedRatio(b *testing.B, plain, mine func()) {
	var ps, ms, rs []float64
	plain() // warm: the probe installed, a later page's order kept
	mine()
	for b.Loop() {
		t0 := time.Now()
		plain()
		t1 := time.Now()
		mine()
		t2 := time.Now()
		p, m := t1.Sub(t0).Seconds(), t2.Sub(t1).Seconds()
		ps, ms, rs = append(ps, p), append(ms, m), append(rs, m/p)
	}
	med := func(x []float64) float64 { slices.Sort(x); return x[len(x)/2] }
	b.ReportMetric(med(ps)*1e3, "plain_ms")
	b.ReportMetric(med(ms)*1e3, "mine_ms")
	b.ReportMetric(med(rs), "x_plain")
}
