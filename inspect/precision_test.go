// precision_test.go: the compact JSON of statistics and previews through
// the probe (plain python3 harness): 4 significant digits by default and
// exact floats with precision "full" (compared with Python's own values),
// zero counters left out, histograms as start/width/counts, no RangeIndex
// first/last, and the 1K×10 DataFrame within 4 KB.

package inspect

import (
	"context"
	"encoding/json"
	"math"
	"strconv"
	"testing"
)

// pyFloat evaluates a Python float expression in the harness's frame.
func pyFloat(t *testing.T, h *pyHarness, expr string) float64 {
	t.Helper()
	out, err := h.EvaluateProbe(context.Background(), EvalRequest{Expression: "repr(float(" + expr + "))", RawString: true})
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	f, err := strconv.ParseFloat(out, 64)
	if err != nil {
		t.Fatalf("%s: %q", expr, out)
	}
	return f
}

func fnum(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			t.Fatal(err)
		}
		return f
	case float64:
		return x
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

func colStats(t *testing.T, r *Result, name string) Statistics {
	t.Helper()
	for _, c := range r.Statistics.Columns {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no statistics for %s", name)
	return Statistics{}
}

func sig4(f float64) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(f, 'g', 4, 64), 64)
	return v
}

func TestPrecisionAndCompactJSON(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	short, err := Inspect(ctx, h, 0, "df", Options{})
	if err != nil {
		t.Fatal(err)
	}
	full, err := Inspect(ctx, h, 0, "df", Options{Precision: PrecisionFull})
	if err != nil {
		t.Fatal(err)
	}
	cell := pyFloat(t, h, "df['c0'].iloc[0]")
	if got := fnum(t, short.Preview.Head[0].Values[0]); got != sig4(cell) {
		t.Errorf("short preview cell: %v, want %v (4 digits of %v)", got, sig4(cell), cell)
	}
	if got := fnum(t, full.Preview.Head[0].Values[0]); got != cell {
		t.Errorf("full preview cell: %v, want %v", got, cell)
	}
	mean := pyFloat(t, h, "df['c0'].to_numpy().mean()")
	lo, hi := pyFloat(t, h, "df['c0'].min()"), pyFloat(t, h, "df['c0'].max()")
	fs, ss := colStats(t, full, "c0"), colStats(t, short, "c0")
	if fnum(t, fs.Mean) != mean || fnum(t, fs.Min) != lo || fnum(t, fs.Max) != hi {
		t.Errorf("full stats: mean %v min %v max %v, want %v %v %v", fs.Mean, fs.Min, fs.Max, mean, lo, hi)
	}
	if fnum(t, ss.Mean) != sig4(mean) || fnum(t, ss.Min) != sig4(lo) {
		t.Errorf("short stats: mean %v min %v, want %v %v", ss.Mean, ss.Min, sig4(mean), sig4(lo))
	}
	// The histogram: 10 bins from min to max; counts cover every value.
	e := fs.Histogram.Edges()
	if len(e) != 11 || e[0] != lo || math.Abs(e[10]-hi) > 1e-12 {
		t.Errorf("full histogram edges %v, want %v..%v", e, lo, hi)
	}
	var n int64
	for _, c := range ss.Histogram.Counts {
		n += c
	}
	if n != 1000 || ss.Histogram.Start != sig4(lo) {
		t.Errorf("short histogram: %+v (sum %d)", ss.Histogram, n)
	}
	// Zero counters are left out; non-zero ones stay.
	if ss.NaNCount != nil || ss.InfCount != nil || ss.Zeros != nil {
		t.Errorf("zero counters present: %+v", ss)
	}
	if c1 := colStats(t, short, "c1"); c1.NaNCount == nil || *c1.NaNCount != 3 {
		t.Errorf("c1 nan_count %v, want 3", c1.NaNCount)
	}
	// A RangeIndex is start/stop/step only.
	ix := short.Structure.Index
	if ix.First != nil || ix.Last != nil || ix.Start == nil || *ix.Start != 0 || *ix.Stop != 1000 {
		t.Errorf("index %+v", ix)
	}
	// Large values keep their integer part.
	if big, err := Inspect(ctx, h, 0, "arr3d", Options{}); err != nil || fnum(t, big.Statistics.Mean) != 1199.5 {
		t.Errorf("arr3d mean: %v %v, want 1199.5", err, big)
	}
	// The 1K×10 DataFrame's answer, as the sidecar serializes it.
	raw, _ := json.Marshal(short)
	// 4 KB before #35 added each std's "ddof": 1 (and the clues, absent
	// when there is nothing to say).
	if len(raw) > 4096+100 {
		t.Errorf("1K×10 DataFrame: %d bytes of JSON, over 4 KB + 100", len(raw))
	}
	t.Logf("1K×10 DataFrame JSON: %d bytes short, %d full", len(raw), Size(full))
}

func TestBrowsePrecision(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	cell := pyFloat(t, h, "df['c0'].iloc[0]")
	for _, c := range []struct {
		precision string
		want      float64
	}{{"", func() float64 { v, _ := strconv.ParseFloat(strconv.FormatFloat(cell, 'g', 6, 64), 64); return v }()}, {PrecisionFull, cell}} {
		p, err := Browse(ctx, h, 0, "df", Selection{Rows: &RowWindow{Limit: 1}}, Options{Precision: c.precision})
		if err != nil {
			t.Fatal(err)
		}
		if got := fnum(t, p.Page.Rows[0][0]); got != c.want {
			t.Errorf("precision %q: page cell %v, want %v", c.precision, got, c.want)
		}
	}
}
