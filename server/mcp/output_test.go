// output_test.go: debug_output separates the program's output (stdout,
// stderr, console) from the debug adapter's own notices (category
// debugger), with a category filter (issue 13.12). Real debugpy and Delve.

package mcp

import (
	"strings"
	"testing"
)

func readOutput(t *testing.T, a *agent, category string) string {
	t.Helper()
	var out OutputResult
	args := map[string]any{}
	if category != "" {
		args["category"] = category
	}
	a.call("debug_output", args, &out)
	return out.Data
}

func TestOutputCategoriesDelve(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_launch", map[string]any{"adapter": "dlv", "program": "testdata/go/hello", "timeout": 120}, &stop)
	if stop.Status != "completed" {
		a.call("debug_continue", nil, &stop)
	}
	program, stdout, debugger := readOutput(t, a, ""), readOutput(t, a, "stdout"), readOutput(t, a, "debugger")
	// Delve's "Building …" (sent on stdout before the program runs) and
	// its console messages are its own.
	if program != "10 2 p\n" || stdout != "10 2 p\n" {
		t.Errorf("the program's output: %q, stdout %q", program, stdout)
	}
	if !strings.Contains(debugger, "Building ") || !strings.Contains(debugger, "dlv help") || strings.Contains(debugger, "10 2 p") {
		t.Errorf("Delve's notices: %q", debugger)
	}
	if e := a.fail("debug_output", map[string]any{"category": "telemetry"}); e.Code != "INVALID_ARGUMENT" {
		t.Errorf("unknown category = %+v", e)
	}
}

func TestOutputCategoriesDebugpy(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/raises.py"}, &stop)
	a.call("debug_continue", nil, &stop)
	program, stdout, stderr := readOutput(t, a, ""), readOutput(t, a, "stdout"), readOutput(t, a, "stderr")
	if stdout != "loading\n" || !strings.Contains(stderr, "ValueError") || strings.Contains(stderr, "loading") {
		t.Errorf("stdout %q, stderr %q", stdout, stderr)
	}
	if !strings.HasPrefix(program, "loading\n") || !strings.Contains(program, "ValueError") {
		t.Errorf("program output in order: %q", program)
	}
}
