// setvar_test.go: debug_set_variable on nested paths (issue 13.4): on
// debugpy through setExpression (attribute, dict key, list item), on Delve
// through the variables tree (struct field through a pointer, map key); a
// path that cannot be set names the alternatives. Real adapters.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestSetNestedVariableDebugpy(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	launchTo(t, a, prog, prog, "# STOP", nil)
	for _, tc := range []struct{ name, value, prev, now, check, want string }{
		{"self.rows_seen", "0", "19", "0", "self.rows_seen", "0"},
		{"self.by_region['north']", "1.5", "293.17", "1.5", "self.by_region['north']", "1.5"},
		{`self.by_region["south"]`, "7", "0.0", "7", "self.by_region['south']", "7"},
		{"self.tags[0]", "'z'", "'a'", "'z'", "self.tags", "['z']"},
	} {
		var r SetVariableResult
		a.call("debug_set_variable", map[string]any{"name": tc.name, "value": tc.value}, &r)
		if r.Previous != tc.prev || r.Value != tc.now {
			t.Errorf("set %s: %+v", tc.name, r)
		}
		var ev EvaluateResult
		a.call("debug_evaluate", map[string]any{"expression": tc.check}, &ev)
		if ev.Result != tc.want {
			t.Errorf("after set %s: %s = %s, want %s", tc.name, tc.check, ev.Result, tc.want)
		}
	}
	e := a.fail("debug_set_variable", map[string]any{"name": "self.nope.x", "value": "1"})
	if e.Code != errcode.NotFound || !strings.Contains(e.Message, "cannot set self.nope.x") || !strings.Contains(e.Message, "AttributeError") ||
		!strings.Contains(e.Message, `debug_evaluate {"expression": "self.nope.x = 1"`) {
		t.Errorf("unsettable path = %+v", e)
	}
}

func TestSetNestedVariableDelve(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const file = "testdata/go/valdiff/main.go"
	stop := launchTo(t, a, "testdata/go/valdiff", file, "// STOP", map[string]any{"adapter": "dlv", "timeout": 120})
	for _, tc := range []struct{ name, value, prev, check, want string }{
		{"t.RowsSeen", "0", "4", "t.RowsSeen", "0"},
		{`t.ByRegion["north"]`, "1.25", "10", `t.ByRegion["north"]`, "1.25"},
	} {
		var r SetVariableResult
		a.call("debug_set_variable", map[string]any{"name": tc.name, "value": tc.value}, &r)
		if r.Previous != tc.prev {
			t.Errorf("set %s: %+v", tc.name, r)
		}
		var ev EvaluateResult
		a.call("debug_evaluate", map[string]any{"expression": tc.check}, &ev)
		if ev.Result != tc.want {
			t.Errorf("after set %s: %s = %s, want %s", tc.name, tc.check, ev.Result, tc.want)
		}
	}
	// → continue: the program goes on with the new values (0+2 rows, 1.25+3).
	a.call("debug_continue", nil, &stop)
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "t.RowsSeen"}, &ev)
	if ev.Result != "2" {
		t.Errorf("rows after continue = %s", ev.Result)
	}
}
