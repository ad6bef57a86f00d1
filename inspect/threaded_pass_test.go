// threaded_pass_test.go: the Python probe's block pass shared among
// threads (order.py _pass_threads), in a program paused under real
// debugpy, where pydevd traces and suspends threads.

package inspect_test

import (
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// TestDebugpyThreadedBlockPass inspects a 60,000 × 24 frame (1.44M cells)
// whose block pass is shared among 3 threads (forced in the debuggee,
// whatever the machine's CPUs, and counted there): the answer comes back
// whole, each column's NaN count, min, max and mean are pandas' own, both
// helpers ran, none is left afterwards, debugpy lists the same threads as
// before, and the session goes on.
func TestDebugpyThreadedBlockPass(t *testing.T) {
	const prog = "testdata/python/threaded_pass.py"
	mgr, s, err := launchStopped(t, "debugpy", prog, session.Breakpoint{File: prog, Line: breakLine(t, prog)})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	ctx := context.Background()
	fr, err := s.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(expr string) string {
		t.Helper()
		r, err := s.Evaluate(ctx, expr, fr.Id, "repl")
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return r.Result
	}
	threads := func() int {
		var out struct{ Threads []struct{ ID int } }
		if err := s.Request(ctx, "threads", nil, &out); err != nil {
			t.Fatal(err)
		}
		return len(out.Threads)
	}
	before := threads()
	// The probe is installed by its first call; then its thread count is
	// forced and its helpers counted, in the debuggee.
	if _, err := inspect.Inspect(ctx, s, fr.Id, "wide.shape", inspect.Options{}); err != nil {
		t.Fatal(err)
	}
	eval("__import__('builtins').__dict__.__setitem__('_dapscope_test_probe', __import__('sys').modules['" + inspect.ProbeModule + "'])")
	eval("_dapscope_test_probe._pass_threads = lambda cells: 3")
	eval("_dapscope_test_probe.helped = []")
	eval("_dapscope_test_probe._pass_helper = (lambda h: lambda *a: (_dapscope_test_probe.helped.append(1), h(*a)))(_dapscope_test_probe._pass_helper)")

	res, err := inspect.Inspect(ctx, s, fr.Id, "wide", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Partial || res.Statistics == nil || len(res.Statistics.Columns) != 24 {
		t.Fatalf("partial %v, timed out %v, statistics %+v", res.Partial, res.TimedOut, res.Statistics)
	}
	var want [][4]float64 // pandas': NaN count, min, max, mean per column
	raw := eval("__import__('json').dumps([[float(wide[c].isna().sum()), float(wide[c].min()), float(wide[c].max()), float(wide[c].mean())] for c in wide.columns])")
	if err := json.Unmarshal([]byte(unquotePy(raw)), &want); err != nil || len(want) != 24 {
		t.Fatalf("pandas' facts %q: %v", raw, err)
	}
	for i, c := range res.Statistics.Columns {
		got := [4]float64{0, num(t, c.Min), num(t, c.Max), num(t, c.Mean)}
		if c.NaNCount != nil {
			got[0] = float64(*c.NaNCount)
		}
		for k, what := range []string{"NaN count", "min", "max", "mean"} {
			if math.Abs(got[k]-want[i][k]) > 1e-3*math.Max(1, math.Abs(want[i][k])) {
				t.Errorf("%s %s: probe %v, pandas %v", c.Name, what, got[k], want[i][k])
			}
		}
	}
	if n := eval("len(_dapscope_test_probe.helped)"); n != "2" {
		t.Errorf("helper threads that ran: %s, want 2", n)
	}
	if left := eval("[t.name for t in __import__('threading').enumerate() if t.name == 'dapscope-probe']"); left != "[]" {
		t.Errorf("helper threads left in the program: %s", left)
	}
	if after := threads(); after != before {
		t.Errorf("debugpy lists %d threads after the inspection, %d before", after, before)
	}
	if r := eval("wide.shape"); r != "(60000, 24)" {
		t.Errorf("the session after the inspection: wide.shape = %s", r)
	}
}

// num reads a statistic as a float64; anything else fails the test.
func num(t *testing.T, v any) float64 {
	t.Helper()
	switch x := v.(type) {
	case float64:
		return x
	case json.Number:
		if f, err := x.Float64(); err == nil {
			return f
		}
	}
	t.Fatalf("not a number: %#v", v)
	return 0
}

// unquotePy is a Python str repr's text (debugpy answers a repl evaluate
// of a string with its repr).
func unquotePy(r string) string {
	if len(r) >= 2 && (r[0] == '\'' || r[0] == '"') && r[len(r)-1] == r[0] {
		return strings.ReplaceAll(r[1:len(r)-1], `\'`, `'`)
	}
	return r
}
