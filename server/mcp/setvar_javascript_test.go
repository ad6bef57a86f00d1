// setvar_javascript_test.go: debug_set_variable on a Node program takes JavaScript
// paths — names with $, reserved words as property names — which the
// Python path grammar refused. Real Node, testdata/node/libs/tables.js.

package mcp

import "testing"

func TestSetVariableJavaScriptPaths(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/node/libs/tables.js"
	// The debugger statement on the BREAK line stops the program.
	stop := launchTo(t, a, prog, prog, "debugger; // BREAK", nil)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != lineWith(t, prog, "debugger; // BREAK") {
		t.Fatalf("stop = %+v", stop)
	}
	for _, c := range []struct{ name, value, previous, now string }{
		{"$opts.default", "4", "3", "4"},
		{"$opts.$inner.new", "false", "true", "false"},
	} {
		var sv SetVariableResult
		if a.call("debug_set_variable", map[string]any{"name": c.name, "value": c.value}, &sv); sv.Previous != c.previous || sv.Value != c.now {
			t.Errorf("set %s = %+v, want %s → %s", c.name, sv, c.previous, c.now)
		}
	}
	var ev EvaluateResult
	if a.call("debug_evaluate", map[string]any{"expression": "$opts.default + ($opts.$inner.new ? 100 : 0)"}, &ev); ev.Result != "4" {
		t.Fatalf("after the sets: %+v", ev)
	}
}
