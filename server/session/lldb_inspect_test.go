// lldb_inspect_test.go: the lldb probe on the native test programs: C
// arrays with NaNs, pointers with a length, structs, strings; C++
// containers; Rust Vec, slices, String, HashMap, Option, enums, Box, Rc,
// Arc; and proof that no getter, operator<< or Display ran.

package session

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

// stopAt launches k's program stopped at the line holding marker.
func stopAt(t testing.TB, k nativetest.Kind, marker string, args ...string) *Session {
	t.Helper()
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, k)
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	s, err := m.Launch(testCtx(t), LaunchSpec{Adapter: "lldb", Program: bin, Args: args,
		Breakpoints: []Breakpoint{{File: nativetest.Source(t, k), Line: nativetest.Line(t, k, marker)}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	return s
}

func inspectJSON(t *testing.T, s *Session, expr string) (*inspect.Result, string) {
	t.Helper()
	r, err := inspect.Inspect(testCtx(t), s, 0, expr, inspect.Options{})
	if err != nil {
		t.Fatalf("inspect %s: %v", expr, err)
	}
	b, _ := json.Marshal(r)
	return r, string(b)
}

func num(v any) float64 {
	f, _ := strconv.ParseFloat(fmt.Sprint(v), 64)
	return f
}

// evalInt reads an int variable through lldb-dap's own evaluate.
func evalInt(t *testing.T, s *Session, expr string) string {
	t.Helper()
	ev, err := s.Evaluate(testCtx(t), expr, 0, "watch")
	if err != nil {
		t.Fatal(err)
	}
	return ev.Result
}

func TestLLDBProbeC(t *testing.T) {
	s := stopAt(t, nativetest.C, "// break here")
	r, js := inspectJSON(t, s, "values")
	st := r.Statistics
	if r.DetectedType != "ndarray" || st == nil || *st.Count != 100 || st.NaNCount == nil || *st.NaNCount != 2 {
		t.Fatalf("values: %s", js)
	}
	// 98 finite values 0, 0.5, … 49.5 without 5 and 10: mean 2460/98,
	// std (ddof=1) 14.43.
	if num(st.Min) != 0 || num(st.Max) != 49.5 || num(st.Mean) != 25.1 || num(st.Std) != 14.43 || st.Histogram == nil || len(st.Histogram.Counts) != 10 {
		t.Fatalf("values stats: %s", js)
	}
	r, js = inspectJSON(t, s, "ints@1000")
	if r.DetectedType != "ndarray" || *r.Statistics.Count != 1000 || r.Structure.Dtype != "int32" {
		t.Fatalf("ints@1000: %s", js)
	}
	r, js = inspectJSON(t, s, "origin")
	if r.DetectedType != "object" || !strings.Contains(js, `"name":"label"`) || !strings.Contains(js, `"type":"double"`) {
		t.Fatalf("origin: %s", js)
	}
	r, js = inspectJSON(t, s, "greeting")
	if r.DetectedType != "str" || r.Preview.Text != "hello, lldb" {
		t.Fatalf("greeting: %s", js)
	}
	r, js = inspectJSON(t, s, "pts[1].label")
	if r.Preview == nil || r.Preview.Text != "bb" {
		t.Fatalf("pts[1].label: %s", js)
	}
	r, js = inspectJSON(t, s, "counter")
	if r.DetectedType != "int" || num(r.Structure.Value) != 42 {
		t.Fatalf("static counter: %s", js)
	}
	if _, err := inspect.Inspect(testCtx(t), s, 0, "nosuch", inspect.Options{}); err == nil || !strings.Contains(err.Error(), "nosuch") {
		t.Fatalf("nosuch: %v", err)
	}
	if got := evalInt(t, s, "getter_calls"); got != "3" {
		t.Fatalf("getter_calls = %s after inspecting, want 3 (the program's own calls)", got)
	}
}

func TestLLDBProbeCPP(t *testing.T) {
	s := stopAt(t, nativetest.CPP, "// break here")
	for _, tc := range []struct{ expr, want string }{
		{"prices", `"detected_type":"ndarray"`},
		{"prices", `"nan_count":1`},
		{"small", `"values":[5,4,3,2,1]`},
		{"counts", `"key":"apple","value":3`},
		{"rates", `"detected_type":"dict"`},
		{"title", `"text":"quarterly report"`},
		{"maybe", `"value":"Some(42)"`},
		{"nothing", `"detected_type":"none"`},
		{"acct", `"name":"owner"`},
		{"accounts", `"length":2`},
	} {
		_, js := inspectJSON(t, s, tc.expr)
		if !strings.Contains(js, tc.want) {
			t.Errorf("%s: want %s in %s", tc.expr, tc.want, js)
		}
	}
	if got := evalInt(t, s, "calls"); got != "2" {
		t.Fatalf("calls = %s after inspecting, want 2 (the program's own get_balance calls)", got)
	}
}

func TestLLDBProbeRust(t *testing.T) {
	s := stopAt(t, nativetest.Rust, "// break here")
	for _, tc := range []struct{ expr, want string }{
		{"prices", `"count":1000`},
		{"prices", `"nan_count":1`},
		{"slice", `"shape":[10]`},
		{"arr", `"values":[1,2,3,4]`},
		{"name", `"text":"ACME corp"`},
		{"tag", `"text":"equity"`},
		{"counts", `"detected_type":"dict"`},
		{"ordered", `"items":[{"key":1,"value":"one","type":"\u0026str"},{"key":2,"value":"two"`},
		{"big", `"length":100`},
		{"big", `{"key":0,"value":0,"type":"int"},{"key":1,"value":1,"type":"int"},{"key":2,"value":4,"type":"int"}`},
		{"seen", `"detected_type":"set","structure":{"length":40,"element_type":"int"}`},
		{"seen", `"items":[{"value":0,"type":"int"},{"value":3,"type":"int"},{"value":6,"type":"int"}`},
		{"seen", `{"value":27,"type":"int"}],"is_truncated":true}`},
		{"some", `"value":"Some(5)"`},
		{"none", `"detected_type":"none"`},
		{"ok", `"kind":"Ok"`},
		{"shape", `"value":"Circle { r: 1.5 }"`},
		{"square", `Square(2`},
		{"boxed", `"value":9`},
		{"shared", `"values":[1,2,3]`},
		{"atomic", `"text":"arc"`},
		{"quote", `"name":"symbol"`},
		{"LIMIT", `"value":17`},
	} {
		_, js := inspectJSON(t, s, tc.expr)
		if !strings.Contains(js, tc.want) {
			t.Errorf("%s: want %s in %s", tc.expr, tc.want, js)
		}
	}
	if out := s.Output(0, 1<<20).Data; strings.Contains(out, "type summary add") || strings.Contains(out, "dapscope_probe_") {
		t.Fatalf("the formatters' commands or the probe reached the program's output: %q", out)
	}
	if ev, err := s.Evaluate(testCtx(t), "DISPLAY_CALLS.v.value", 0, "watch"); err != nil || ev.Result != "1" {
		t.Fatalf("DISPLAY_CALLS = %q, %v", ev.Result, err)
	}
}

// An -O2 build: values the compiler dropped are said to be optimized
// out (or unavailable), never a crash of the probe.
func TestLLDBProbeOptimized(t *testing.T) {
	s := stopAt(t, nativetest.Optimized, "// break here")
	said := 0
	for _, expr := range []string{"values", "ints", "pts", "origin", "greeting", "name", "total", "n"} {
		r, err := inspect.Inspect(testCtx(t), s, 0, expr, inspect.Options{})
		if err != nil {
			if strings.Contains(err.Error(), "INTERNAL") || strings.Contains(err.Error(), "probe failed") {
				t.Fatalf("%s: %v", expr, err)
			}
			continue
		}
		if strings.Contains(strings.Join(r.Warnings, " "), "optimized out") || strings.Contains(r.Summary, "optimized out") {
			said++
		}
	}
	if said == 0 {
		t.Fatal("no variable of the -O2 build was said to be optimized out")
	}
}
