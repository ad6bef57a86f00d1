// Tests of the probe and the engine through pyHarness (plain python3, no
// debugger): goldens for every case, the time budget, caching of the probe,
// and non-mutation.

package inspect

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

const fixture = "../testdata/python/inspect_values.py"

func runCases(t *testing.T, tgt Target, frame int, skip string) {
	runCaseList(t, tgt, frame, skip, inspectCases)
}

// runCaseList checks each case (but those marked only for `skip`'s
// opposite) against its golden.
func runCaseList(t *testing.T, tgt Target, frame int, skip string, cases []inspectCase) {
	for _, c := range cases {
		if c.only == skip {
			continue
		}
		t.Run(c.name, func(t *testing.T) {
			res, err := Inspect(context.Background(), tgt, frame, c.expr, c.opts)
			if c.errCode != "" {
				var ie *errcode.Error
				if !errors.As(err, &ie) {
					t.Fatalf("want %s error, got %v (result %+v)", c.errCode, err, res)
				}
				if ie.Code != c.errCode {
					t.Fatalf("want code %s, got %s: %s", c.errCode, ie.Code, ie.Message)
				}
				checkGolden(t, c.name, normalize(t, ie))
				return
			}
			if err != nil {
				t.Fatalf("Inspect(%q): %v", c.expr, err)
			}
			if n := Size(res); n > MaxResultBytes {
				t.Errorf("result is %d bytes, over the %d cap", n, MaxResultBytes)
			}
			if res.Partial {
				t.Errorf("unexpected partial result (timed out: %v)", res.TimedOut)
			}
			checkGolden(t, c.name, normalize(t, res))
		})
	}
}

func TestProbeGoldens(t *testing.T) {
	h := startHarness(t, fixture)
	runCases(t, h, 0, "debugpy")
}

func TestProbeSentOnce(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	for i := 0; i < 3; i++ {
		if _, err := Inspect(ctx, h, 0, "flag", Options{}); err != nil {
			t.Fatal(err)
		}
	}
	if h.evals != 3 {
		t.Fatalf("want one evaluate per inspection, got %d for 3", h.evals)
	}
	if !strings.Contains(h.last[0], "exec(compile(") {
		t.Errorf("first call does not install the probe: %.120s", h.last[0])
	}
	for _, e := range h.last[1:] {
		if len(e) > 600 || strings.Contains(e, "exec(") {
			t.Errorf("later call is not the short form (%d bytes): %.120s", len(e), e)
		}
	}
	// A new debuggee that lost the module: the short call reports it missing
	// and the probe is sent again, transparently.
	h.values.Range(func(k, _ any) bool { h.values.Delete(k); return true })
	if _, err := Inspect(ctx, h, 0, "flag", Options{}); err != nil {
		t.Fatal(err)
	}
	h2 := startHarness(t, fixture)
	h.values.Range(func(k, v any) bool { h2.values.Store(k, v); return true })
	res, err := Inspect(ctx, h2, 0, "ratio", Options{})
	if err != nil {
		t.Fatalf("stale cache: %v", err)
	}
	if h2.evals != 2 || res.DetectedType != TypeFloat {
		t.Fatalf("want a reinstall (2 evaluates), got %d; result %+v", h2.evals, res)
	}
}

func TestProbeBudget(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	// SlowLen.__len__ sleeps 1.5 s; the budget is 0.3 s.
	res, err := Inspect(ctx, h, 0, "slow", Options{Timeout: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || !contains(res.TimedOut, "length") {
		t.Fatalf("want a partial result with length timed out, got partial=%v timed_out=%v", res.Partial, res.TimedOut)
	}
	if res.Structure == nil || res.Structure.Class != "SlowLen" || len(res.Structure.Attributes) != 1 {
		t.Fatalf("cheap facts missing from the partial result: %+v", res.Structure)
	}
	// The tiny budget on a big frame: cheap facts are there, stats are cut.
	res, err = Inspect(ctx, h, 0, "big_df", Options{Timeout: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Structure == nil || len(res.Structure.Shape) != 2 || res.Structure.Shape[0] != 1_000_000 {
		t.Fatalf("shape missing: %+v", res.Structure)
	}
	if res.Partial && len(res.TimedOut) == 0 {
		t.Fatalf("partial without timed_out")
	}
	// Still usable afterwards.
	res, err = Inspect(ctx, h, 0, "flag", Options{})
	if err != nil || res.Structure.Value != true {
		t.Fatalf("after the budget tests: %v %+v", err, res)
	}
}

func TestInspectDoesNotMutate(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	if _, err := Inspect(ctx, h, 0, "dd['missing']", Options{}); err == nil {
		t.Fatal("want VARIABLE_NOT_FOUND for a missing defaultdict key")
	}
	res, err := Inspect(ctx, h, 0, "dd", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if *res.Structure.Length != 1 {
		t.Fatalf("the defaultdict grew to %d keys", *res.Structure.Length)
	}
	res, err = Inspect(ctx, h, 0, "plain", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !contains(res.Structure.Properties, "computed") {
		t.Fatalf("properties should be listed (not evaluated): %+v", res.Structure.Properties)
	}
}

func TestInspectNotPaused(t *testing.T) {
	h := startHarness(t, fixture)
	h.paused = false
	_, err := Inspect(context.Background(), h, 0, "df", Options{})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.NotPaused || ie.State != "running" {
		t.Fatalf("want NOT_PAUSED with state running, got %v", err)
	}
	if h.evals != 0 {
		t.Fatalf("no evaluate may be sent when not paused")
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
