// cmd_inspect_test.go runs `dapscope inspect` (the command function, in
// process) against real debugpy on the bundled example, and checks that the
// Makefile's `make run` line points at the example's "inspect here" line.

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
)

func TestInspectCLIJSON(t *testing.T) {
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "sales", "prices", "--format", "json",
		"config", "model", "config['regions'][-1]", "nope", "--rows", "3", "--", "ignored-arg"}, &out)
	if rc != 1 {
		t.Fatalf("want exit 1 (one expression fails), got %d\n%s", rc, out.String())
	}
	var results []inspect.Result
	if err := json.Unmarshal(out.Bytes(), &results); err != nil {
		t.Fatalf("output is not one JSON array: %v\n%s", err, out.String())
	}
	want := []string{inspect.TypeDataFrame, inspect.TypeNDArray, inspect.TypeDict, inspect.TypeObject, inspect.TypeStr, ""}
	if len(results) != len(want) {
		t.Fatalf("want %d results, got %d", len(want), len(results))
	}
	for i, w := range want {
		if results[i].DetectedType != w {
			t.Errorf("result %d (%s): detected %q, want %q", i, results[i].Name, results[i].DetectedType, w)
		}
	}
	if h := results[0].Preview.Head; len(h) != 3 {
		t.Errorf("--rows 3: got %d head rows", len(h))
	}
	if results[4].Preview.Text != "west" {
		t.Errorf("config['regions'][-1] = %q", results[4].Preview.Text)
	}
	if e := results[5].Error; e == nil || e.Code != errcode.VariableNotFound || !strings.Contains(strings.Join(e.AvailableVariables, ","), "sales") {
		t.Errorf("nope: want VARIABLE_NOT_FOUND listing sales, got %+v", e)
	}
}

func TestInspectCLITUIAndUnreached(t *testing.T) {
	var out bytes.Buffer
	if rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "model", "--width", "72"}, &out); rc != 0 {
		t.Fatalf("rc %d\n%s", rc, out.String())
	}
	if !strings.Contains(out.String(), "Model (dataclass) 4 attributes") || !strings.Contains(out.String(), "+- model -") {
		t.Fatalf("tui output:\n%s", out.String())
	}
	// never_called() is never called: its line is never reached.
	out.Reset()
	if rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:38", "x", "--wait", "20s"}, &out); rc != 1 {
		t.Fatalf("a line that is never reached must exit 1, got %d\n%s", rc, out.String())
	}
	if rc := inspectCLI(t.Context(), []string{"testdata/python/example.py"}, &out); rc != 2 {
		t.Fatalf("bad usage must exit 2, got %d", rc)
	}
}

func TestInspectCLIFrame(t *testing.T) {
	var out bytes.Buffer
	// Frame 1 is the module: analyse is a global there, sales is not.
	rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "--frame", "1", "--format", "json", "analyse", "sales"}, &out)
	var results []inspect.Result
	if err := json.Unmarshal(out.Bytes(), &results); err != nil || len(results) != 2 {
		t.Fatalf("rc %d, output %s (%v)", rc, out.String(), err)
	}
	if results[0].DetectedType != inspect.TypeCallable || results[0].Structure.Signature != "(n_rows)" {
		t.Errorf("analyse in frame 1: %+v", results[0])
	}
	if results[1].Error == nil || results[1].Error.Code != errcode.VariableNotFound || rc != 1 {
		t.Errorf("sales must not resolve in frame 1 (rc %d): %+v", rc, results[1])
	}
}

func TestMakeRunLine(t *testing.T) {
	mk, err := os.ReadFile("Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`dapscope inspect (?:--python \S+ )?testdata/python/example\.py:(\d+)`).FindSubmatch(mk)
	if m == nil {
		t.Fatal("make run does not run dapscope inspect on the example")
	}
	n, _ := strconv.Atoi(string(m[1]))
	src, err := os.ReadFile("testdata/python/example.py")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	if n < 1 || n > len(lines) || !strings.Contains(lines[n-1], "# inspect here") {
		t.Fatalf("Makefile line %d is not the example's '# inspect here' line", n)
	}
}

// TestInspectCLIMaxBytes: --max-bytes fits each JSON result, saying what
// it dropped (issue 12).
func TestInspectCLIMaxBytes(t *testing.T) {
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "sales", "--format", "json", "--max-bytes", "1500"}, &out)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	var results []json.RawMessage
	if err := json.Unmarshal(out.Bytes(), &results); err != nil || len(results) != 1 {
		t.Fatalf("output: %v\n%s", err, out.String())
	}
	var r inspect.Result
	_ = json.Unmarshal(results[0], &r)
	compact := new(bytes.Buffer)
	_ = json.Compact(compact, results[0])
	if compact.Len() > 1500 || r.Budget == nil || len(r.Budget.Dropped) == 0 || r.Budget.Dropped[0].What != "tail rows" {
		t.Fatalf("%d bytes, budget %+v", compact.Len(), r.Budget)
	}
	if rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "sales", "--max-bytes", "10"}, &out); rc != 2 {
		t.Errorf("--max-bytes 10: exit %d", rc)
	}
}

// TestInspectCLIStatsFollowSelection: with --filter, the statistics are
// the selected rows', labelled as MCP labels them; markdown under
// --max-bytes says what the budget left out (issue 35).
func TestInspectCLIStatsFollowSelection(t *testing.T) {
	var out bytes.Buffer
	rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "sales", "--format", "json", "--filter", "units > 45"}, &out)
	if rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	var results []inspect.Result
	if err := json.Unmarshal(out.Bytes(), &results); err != nil || len(results) != 1 {
		t.Fatalf("output: %v\n%s", err, out.String())
	}
	st := results[0].Statistics
	if st == nil || !strings.HasPrefix(st.Rows, "filtered, ") || !strings.HasSuffix(st.Rows, " of 1,000") || st.Count == nil || *st.Count >= 1000 {
		t.Fatalf("statistics do not follow the filter: %+v", st)
	}
	for _, c := range st.Columns {
		if c.Name == "units" && (c.Min == nil || fmt.Sprint(c.Min) != "46") {
			t.Errorf("units min %v over the filtered rows, want 46", c.Min)
		}
	}
	out.Reset()
	if rc := inspectCLI(t.Context(), []string{"testdata/python/example.py:34", "sales", "--format", "markdown", "--max-bytes", "1100"}, &out); rc != 0 {
		t.Fatalf("exit %d\n%s", rc, out.String())
	}
	if !strings.Contains(out.String(), "left out to fit `max_bytes=1100`: ") {
		t.Errorf("markdown does not say what --max-bytes left out:\n%s", out.String())
	}
}
