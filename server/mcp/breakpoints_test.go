// breakpoints_test.go: a moved breakpoint keeps its requested line.

package mcp

import (
	"strings"
	"testing"
)

// TestMovedBreakpoint: a breakpoint on a line without code reports both the
// requested and the actual line (issue 13.9). Real debugpy.
func TestMovedBreakpoint(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const file = "testdata/mcp/valdiff.py"
	want := lineWith(t, file, "# NOT_CODE")
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": file, "stop_on_entry": true}, &stop)
	var r BreakpointsResult
	res := a.call("debug_set_breakpoints", map[string]any{"file": file, "breakpoints": []map[string]any{{"line": want}}}, &r)
	if len(r.Breakpoints) != 1 || r.Breakpoints[0].RequestedLine != want || r.Breakpoints[0].Line == want || !r.Breakpoints[0].Verified {
		t.Fatalf("breakpoint = %+v", r.Breakpoints)
	}
	if !strings.Contains(textOf(res), "requested line "+itoa(want)) {
		t.Errorf("text: %s", textOf(res))
	}
	a.call("debug_breakpoints", nil, &r)
	if len(r.Breakpoints) != 1 || r.Breakpoints[0].RequestedLine != want {
		t.Errorf("listed = %+v", r.Breakpoints)
	}
}
