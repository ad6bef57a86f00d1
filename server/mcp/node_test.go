// node_test.go: an agent drives a Node program through MCP on dapscope's
// own Node adapter (V8's inspector): launch with a breakpoint, the stop
// report's locals, evaluate, continue to the end with the exit code and the
// program's output. Real Node.

package mcp

import (
	"strings"
	"testing"
)

func TestNodeSessionThroughMCP(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/node/basic.js"
	stop := launchTo(t, a, prog, prog, "// @square", map[string]any{"adapter": "node"})
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Function != "square" {
		t.Fatalf("stop = %+v", stop)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "x * 10"}, &ev)
	if ev.Result == "" || ev.Result == "undefined" {
		t.Fatalf("evaluate = %+v", ev)
	}
	a.call("debug_set_breakpoints", map[string]any{"file": prog, "breakpoints": []map[string]any{}}, nil)
	// → continue: the program's `debugger;` statement stops it, locals as V8 previews.
	a.call("debug_continue", nil, &stop)
	if stop.Status != "paused" || local(t, stop, "pt") != "Point {x: 3, y: 4}" || local(t, stop, "total") != "14" {
		t.Fatalf("debugger statement stop = %+v", stop)
	}
	a.call("debug_continue", nil, &stop)
	if stop.Status != "completed" || stop.Outcome == nil || stop.Outcome.ExitCode == nil {
		t.Fatalf("end = %+v", stop)
	}
	var out OutputResult
	a.call("debug_output", nil, &out)
	if !strings.Contains(out.Data, "start 2") {
		t.Errorf("output = %q", out.Data)
	}
}
