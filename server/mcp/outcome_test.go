// outcome_test.go: debug_outcome prints a Python traceback as Python does:
// most recent call last, the exception line at the end (issue 13.11). Real
// debugpy.

package mcp

import (
	"strings"
	"testing"
)

func TestTracebackInPythonOrder(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/raises.py"}, &stop)
	a.call("debug_continue", nil, &stop)
	var oc OutcomeResult
	r := a.call("debug_outcome", nil, &oc)
	tb := oc.Outcome.Traceback
	load, parse := strings.Index(tb, "in load"), strings.Index(tb, "in parse")
	if !strings.HasPrefix(tb, "Traceback (most recent call last):\n") || load < 0 || parse < 0 || load > parse {
		t.Errorf("traceback not outermost-first:\n%s", tb)
	}
	lines := strings.Split(strings.TrimRight(tb, "\n"), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "ValueError: invalid literal for int()") {
		t.Errorf("last line %q, want the exception", last)
	}
	if text := textOf(r); !strings.HasSuffix(strings.TrimRight(text, "\n"), lines[len(lines)-1]) {
		t.Errorf("text does not end with the exception line:\n%s", text)
	}
}

// TestTerminatedOutcome: a session ended by debug_terminate reads
// "terminated by the user", not "completed, exit code 247" (issue 13.10).
func TestTerminatedOutcome(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	launchTo(t, a, prog, prog, "# STOP", nil)
	var oc OutcomeResult
	r := a.call("debug_terminate", nil, &oc)
	if oc.Status != "terminated" || !strings.Contains(textOf(r), "outcome: terminated by the user") || strings.Contains(textOf(r), "completed") {
		t.Errorf("terminate = %+v\n%s", oc, textOf(r))
	}
	r = a.call("debug_outcome", nil, &oc)
	if !strings.Contains(textOf(r), "terminated by the user") || strings.Contains(textOf(r), "wait for a breakpoint") {
		t.Errorf("outcome after terminate:\n%s", textOf(r))
	}
}
