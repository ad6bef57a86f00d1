// slowrepr_test.go: a local whose __repr__ sleeps a minute never stalls
// an agent. The stop report, snapshots and diffs summarise locals through
// the probe without running user code; an explicit evaluate of another
// expression answers at once. (Before, the stop report read locals with
// debugpy's variables request, which calls every __repr__.)

package mcp

import (
	"strings"
	"testing"
	"time"
)

func TestSlowReprNeverStalls(t *testing.T) {
	t.Parallel()
	a := stdioAgent(t)
	start := time.Now()
	// → debug_launch with a breakpoint, waiting for the stop
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/slow_repr.py", "breakpoints": []map[string]any{{"file": "testdata/mcp/slow_repr.py", "line": 23}}}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != 23 {
		t.Fatalf("launch: %+v", stop)
	}
	locals := map[string]string{}
	for _, l := range stop.Locals {
		locals[l.Name] = l.Value
	}
	if locals["k"] != "6" || locals["obj"] != "Slow (1 attribute)" || len(stop.Missing) > 0 {
		t.Fatalf("stop report locals %v missing %v: want k=6 and obj by class, nothing missing", locals, stop.Missing)
	}
	// → debug_evaluate of an expression that does not touch obj
	var ev struct {
		Result string `json:"result"`
	}
	a.call("debug_evaluate", map[string]any{"expression": "k*7"}, &ev)
	if ev.Result != "42" {
		t.Fatalf("evaluate = %+v", ev)
	}
	// → snapshot, step, diff: none of them calls Slow.__repr__ either
	a.call("debug_snapshot", map[string]any{}, nil)
	a.call("debug_step", map[string]any{"direction": "over"}, &stop)
	r := a.call("debug_diff", map[string]any{"from": "s1"}, nil)
	if !strings.Contains(textOf(r), "total") {
		t.Fatalf("diff should show total appearing: %s", textOf(r))
	}
	// Every call above would have waited a minute on the __repr__; a bound
	// far above what they need, far below one __repr__.
	if took := time.Since(start); took > 45*time.Second {
		t.Fatalf("the agent's calls took %v: something called the sleeping __repr__", took)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
