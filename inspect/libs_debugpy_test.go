// Tests of real torch tensors and xarray values against real debugpy
// (through server/session): one shared session on testdata/python/tensors.py
// stopped at its BREAK line; every case of libCases must give the same
// answer as the harness, and lazy (dask) xarray data is never computed.

package inspect_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/session"
)

const libsProgram = "testdata/python/tensors.py"

var libsShared struct {
	once sync.Once
	s    *session.Session
	err  error
}

// libsSession is the one debugpy session on tensors.py shared by tests.
func libsSession(tb testing.TB) *session.Session {
	testpython.Require(tb, "torch")
	tb.Helper()
	libsShared.once.Do(func() {
		line := breakLine(tb, libsProgram)
		var mgr *session.Manager
		mgr, libsShared.s, libsShared.err = launchStopped(tb, "debugpy", libsProgram, session.Breakpoint{File: libsProgram, Line: line})
		if mgr != nil {
			inspect.AfterTests = append(inspect.AfterTests, func() { mgr.Close() })
		}
	})
	if libsShared.err != nil {
		tb.Fatalf("debugpy session on %s: %v", libsProgram, libsShared.err)
	}
	return libsShared.s
}

func TestDebugpyLibraryGoldens(t *testing.T) {
	s := libsSession(t)
	inspect.RunCaseList(t, s, 0, "harness", inspect.LibCases)
}

// Facts the goldens hold, asserted by name so a regenerated golden cannot
// silently lose them.
func TestDebugpyLibraryFacts(t *testing.T) {
	s := libsSession(t)
	ctx := context.Background()
	get := func(expr string) *inspect.Result {
		t.Helper()
		r, err := inspect.Inspect(ctx, s, 0, expr, inspect.Options{Timeout: 10})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return r
	}
	r := get("grad")
	if r.DetectedType != inspect.TypeTensor || r.Structure.Dtype != "torch.float32" || r.Structure.Device != "cpu" ||
		r.Structure.RequiresGr == nil || !*r.Structure.RequiresGr || r.Statistics == nil || fmt.Sprint(r.Statistics.Max) != "6.5" ||
		r.Summary != "Tensor float32 (2, 3), 24 B, on cpu, requires_grad" {
		t.Errorf("grad: %+v %+v %q", r.Structure, r.Statistics, r.Summary)
	}
	r = get("nan_t")
	if st := r.Statistics; st == nil || *st.NaNCount != 1 || *st.InfCount != 2 || fmt.Sprint(st.Min)+" "+fmt.Sprint(st.Max) != "0.0 2.0" {
		t.Errorf("nan_t statistics: %+v", st)
	}
	for _, expr := range []string{"transposed", "strided"} {
		if r = get(expr); r.Structure.CContig == nil || *r.Structure.CContig || r.Statistics == nil {
			t.Errorf("%s: want a non-contiguous view with statistics: %+v", expr, r.Structure)
		}
	}
	r = get("bf16")
	if r.Statistics == nil || fmt.Sprint(r.Statistics.Min) != "-2.25" || fmt.Sprint(r.Statistics.Mean) != "0.5625" || len(r.Warnings) != 0 {
		t.Errorf("bfloat16: statistics on the tensor's device, nothing to warn about: %+v %v", r.Statistics, r.Warnings)
	}
	r = get("meta_t")
	if r.Statistics != nil || r.Preview != nil || len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], "no data") {
		t.Errorf("a meta tensor has no data to read: %+v %v", r.Preview, r.Warnings)
	}
	r = get("out")
	if r.Structure.GradFn != "MulBackward0" || r.Structure.HasGrad != nil {
		t.Errorf("out (computed by autograd): %+v", r.Structure)
	}
	if r = get("w"); r.Structure.HasGrad == nil || !*r.Structure.HasGrad {
		t.Errorf("w.grad is set: %+v", r.Structure)
	}
	r = get("model")
	if m := r.Structure.Model; r.DetectedType != inspect.TypeModel || m == nil || m.Params != 74 || m.Trainable != 42 || m.LayerCount != 5 ||
		fmt.Sprint(m.NaN, m.Inf, m.Frozen) != "[3.bias] [3.weight] [0.weight]" || m.Training == nil || *m.Training || !m.TrainingMixed ||
		m.Layers[1].Type != "Linear" || fmt.Sprint(m.Layers[1].Shapes["weight"]) != "[8 4]" {
		t.Errorf("model: %+v", r.Structure.Model)
	}
	r = get("state")
	if m := r.Structure.Model; r.DetectedType != inspect.TypeStateDict || m == nil || m.EntryCount != 9 || m.Params != 91 || fmt.Sprint(m.NaN) != "[3.bias]" {
		t.Errorf("state_dict: %+v", r.Structure.Model)
	}
	r = get("huge_t")
	if r.Statistics == nil || !r.Statistics.Sampled || *r.Statistics.SampleSize != 1_000_000 {
		t.Errorf("12M elements: statistics from a 1M sample: %+v", r.Statistics)
	}
	r = get("da")
	if r.DetectedType != inspect.TypeDataArray || len(r.Structure.Dims) != 2 || r.Structure.Dims[1].Name != "city" ||
		len(r.Structure.Coords) != 3 || !r.Structure.Coords[0].Index || r.Statistics == nil || *r.Statistics.NaNCount != 1 {
		t.Errorf("da: %+v %+v", r.Structure, r.Statistics)
	}
	r = get("ds")
	if r.DetectedType != inspect.TypeDataset || len(r.Structure.DataVars) != 3 || *r.Structure.DataVars[2].NullCount != 1 {
		t.Errorf("ds: %+v", r.Structure)
	}
}

// Lazy xarray data (a dask graph whose task records that it ran) is never
// computed by an inspection or a summary.
func TestDebugpyLazyXarrayNeverComputed(t *testing.T) {
	s := libsSession(t)
	ctx := context.Background()
	for _, expr := range []string{"lazy_da", "lazy_ds", "lazy_ds['lazy']"} {
		r, err := inspect.Inspect(ctx, s, 0, expr, inspect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Statistics != nil || r.Preview != nil || len(r.Warnings) == 0 {
			t.Errorf("%s: lazy data must not be read: %+v", expr, r)
		}
	}
	p, _ := inspect.ParsePath("lazy_da")
	if _, err := inspect.Summaries(ctx, s, 0, []inspect.Path{p}, 5*time.Second); err != nil {
		t.Fatal(err)
	}
	r, err := inspect.Inspect(ctx, s, 0, "computed", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *r.Structure.Length != 0 {
		t.Fatalf("the dask graph was computed: computed = %+v", r.Preview)
	}
}
