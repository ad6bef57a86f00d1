// evaluate_test.go: a debug_evaluate that outlives its timeout says it is
// still running, that the next call waits and that a retry re-runs it; the
// next evaluate says it waited and for what (issue 13.3). Real debugpy.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestEvaluateTimeoutIsHonest(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	stop := launchTo(t, a, prog, prog, "# STOP", nil)
	if stop.Status != "paused" {
		t.Fatalf("stop = %+v", stop)
	}
	// → evaluate (sleeps 3 s) with a 0.5 s timeout: TIMEOUT, still running.
	slow := "__import__('time').sleep(3) or self.rows_seen"
	e := a.fail("debug_evaluate", map[string]any{"expression": slow, "timeout": 0.5})
	if e.Code != errcode.Timeout || !e.StillRunning || !strings.Contains(e.Message, "still running") ||
		!strings.Contains(e.Message, "interrupts it after 15s") || !strings.Contains(e.Hint, "retrying runs the expression again") {
		t.Fatalf("timeout = %+v", e)
	}
	// → evaluate with a 0.1 s timeout while it runs: refused, nothing run.
	e = a.fail("debug_evaluate", map[string]any{"expression": "self.rows_seen + 1", "timeout": 0.1})
	if e.Code != errcode.Timeout || !e.StillRunning || !strings.Contains(e.Message, "previous evaluation (__import__('time').sleep(3)") {
		t.Fatalf("call behind a running evaluation = %+v", e)
	}
	// → evaluate with room: it waits for the earlier one, then answers and says so.
	var ev EvaluateResult
	r := a.call("debug_evaluate", map[string]any{"expression": "self.rows_seen + 1", "timeout": 30}, &ev)
	if ev.Result != "20" || ev.WaitedFor != slow || ev.WaitedMs <= 0 || !strings.Contains(textOf(r), "waited") {
		t.Fatalf("evaluate after = %+v\n%s", ev, textOf(r))
	}
	// → evaluate again: nothing to wait for.
	ev = EvaluateResult{}
	a.call("debug_evaluate", map[string]any{"expression": "1 + 1"}, &ev)
	if ev.Result != "2" || ev.WaitedFor != "" {
		t.Fatalf("evaluate later = %+v", ev)
	}
}
