// watches_test.go: watches bound to a function are evaluated in its
// innermost frame; a name that does not resolve is `not in scope` (not an
// error repeated at each stop); an exception is EVALUATION_ERROR with its
// type (issue 13.5). Real debugpy.

package mcp

import (
	"strings"
	"testing"
)

func TestWatchesInTheirFrame(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	stop := launchTo(t, a, prog, prog, "# STOP", nil)
	if stop.Status != "paused" || stop.Location.Function != "add" {
		t.Fatalf("first stop = %+v", stop)
	}
	var w WatchResult
	for _, add := range []map[string]any{
		{"expression": "self.rows_seen"},                                   // top frame: add
		{"expression": "float(prices['price'].sum())", "function": "main"}, // main's frame
		{"expression": "prices.shape"},                                     // not in add's scope
		{"expression": "1/0"},                                              // raises
		{"expression": "x", "function": "no_such_function"},                // never on the stack
	} {
		add["action"] = "add"
		a.call("debug_watch", add, &w)
	}
	check := func(when string, want map[string]string) {
		t.Helper()
		got := map[string]string{}
		for _, v := range w.Watches {
			switch {
			case v.NotInScope != "":
				got[v.Expression] = "not in scope: " + v.NotInScope
			case v.Error != "":
				got[v.Expression] = "error: " + v.Error
			default:
				got[v.Expression] = v.Value + " @" + v.Frame
			}
		}
		for e, prefix := range want {
			if !strings.HasPrefix(got[e], prefix) {
				t.Errorf("%s: watch %s = %q, want prefix %q", when, e, got[e], prefix)
			}
		}
	}
	a.call("debug_watch", map[string]any{"action": "list"}, &w)
	check("first stop", map[string]string{
		"self.rows_seen":               "19 @",
		"float(prices['price'].sum())": "6.75 @main",
		"prices.shape":                 "not in scope: NameError: name 'prices' is not defined",
		"1/0":                          "error: EVALUATION_ERROR: expression: ZeroDivisionError: division by zero",
		"x":                            "not in scope: no frame of no_such_function on the stack",
	})
	// → continue: the stop report carries the watches, the main-bound one
	// changed in main's frame (prices.loc[1] became 9.75).
	a.call("debug_continue", nil, &stop)
	w.Watches = stop.Watches
	check("second stop", map[string]string{
		"self.rows_seen":               "44 @",
		"float(prices['price'].sum())": "14.5 @main",
		"prices.shape":                 "not in scope: NameError",
	})
	for _, v := range stop.Watches {
		if v.Expression == "float(prices['price'].sum())" && (!v.Changed || v.Previous != "6.75") {
			t.Errorf("main-bound watch not reported as changed: %+v", v)
		}
		if v.Expression == "prices.shape" && v.Changed {
			t.Errorf("a watch not in scope changed: %+v", v)
		}
	}
}
