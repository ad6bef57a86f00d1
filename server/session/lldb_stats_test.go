// lldb_stats_test.go: the lldb probe's statistics of a Vec<f64> with a
// NaN, read from memory in one piece, against the same figures computed
// here: count, NaN count, min, max, mean, std (ddof 1) and the quantiles
// of the evenly spaced sample of the finite values (30,000 elements: the
// sample bound is passed, so the sample's positions skip the NaN).

package session

import (
	"math"
	"sort"
	"strconv"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

func round4(x float64) float64 {
	f, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 4, 64), 64)
	return f
}

func TestLLDBProbeStatsExact(t *testing.T) {
	const n = 30000
	s := stopAt(t, nativetest.Rust, "// break here", strconv.Itoa(n))
	r, _ := inspectJSON(t, s, "prices")
	st := r.Statistics
	if st == nil || st.Count == nil || *st.Count != n || st.NaNCount == nil || *st.NaNCount != 1 || st.Quantiles == nil {
		t.Fatalf("statistics: %+v", st)
	}
	var fin []float64
	for i := range n {
		if i != 3 {
			fin = append(fin, 100+float64(i%50))
		}
	}
	m := len(fin)
	sum := 0.0
	for _, x := range fin {
		sum += x
	}
	mean := sum / float64(m)
	ss := 0.0
	for _, x := range fin {
		ss += (x - mean) * (x - mean)
	}
	k := inspect.ProbeLimits.Sample
	sample := make([]float64, k)
	for j := range k {
		sample[j] = fin[j*m/k]
	}
	sort.Float64s(sample)
	q := func(p float64) float64 {
		pos := p / 100 * float64(k-1)
		lo := int(math.Floor(pos))
		hi := min(lo+1, k-1)
		return sample[lo] + (sample[hi]-sample[lo])*(pos-float64(lo))
	}
	for _, c := range []struct {
		name      string
		got, want any
	}{
		{"min", st.Min, 100.0}, {"max", st.Max, 149.0},
		{"mean", st.Mean, round4(mean)}, {"std", st.Std, round4(math.Sqrt(ss / float64(m-1)))},
		{"p5", st.Quantiles.P5, round4(q(5))}, {"p25", st.Quantiles.P25, round4(q(25))},
		{"p50", st.Quantiles.P50, round4(q(50))}, {"p95", st.Quantiles.P95, round4(q(95))},
	} {
		if g := num(c.got); g != c.want.(float64) {
			t.Errorf("%s = %v, want %v", c.name, g, c.want)
		}
	}
	if !st.Sampled || st.SampleSize == nil || *st.SampleSize != int64(k) {
		t.Errorf("sample: %v %v", st.Sampled, st.SampleSize)
	}
}
