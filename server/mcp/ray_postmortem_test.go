// ray_postmortem_test.go: a Ray task frozen post-mortem
// (RAY_DEBUG_POST_MORTEM=1: Ray's worker waits in debugpy inside the
// unhandled exception) is listed by ray_list like a task paused at
// breakpoint(), and debug_attach stops it with reason "exception" in the
// task's own frame, whose locals are inspected.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/ray/raytest"
	"github.com/dapscope/dapscope/server/session"
)

func TestRayPostMortemOverMCP(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	c := raytest.Start(t, testpython.Path(), repoRoot(t), "postmortem")
	a, _ := newHTTPAgent(t, Options{})
	where := map[string]any{"address": c.Dashboard, "token_file": c.TokenFile}

	list := waitRayTasks(t, a, where, "failing")
	if list.Tasks[0].PausedThreads != 1 {
		t.Fatalf("ray_list = %+v", list)
	}
	tk := list.Tasks[0]
	t.Logf("listed: %+v", tk)

	var stop StopReport
	a.call("debug_attach", map[string]any{"host": tk.Host, "port": tk.Port, "wait": true, "timeout": 60}, &stop)
	line := markerLine(t, raytest.Script(repoRoot(t)), "RAY TASK RAISES")
	if stop.Status != session.StatusPaused || stop.Reason != "exception" || stop.Location == nil {
		t.Fatalf("debug_attach to a task frozen post-mortem = %+v", stop)
	}
	t.Logf("stop: %s %s %s:%d in %s", stop.Reason, stop.Description, stop.Location.File, stop.Location.Line, stop.Location.Function)
	if stop.Location.Line != line || stop.Location.Function != "failing" {
		t.Errorf("post-mortem stop at %s:%d in %s, want line %d in failing", stop.Location.File, stop.Location.Line, stop.Location.Function, line)
	}
	if !strings.Contains(stop.Description, "cost") {
		t.Errorf("the exception's description %q does not name the missing key", stop.Description)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"session_id": stop.SessionID, "expression": "wanted + ' not in ' + ','.join(df.columns)"}, &ev)
	if !strings.Contains(ev.Result, "cost not in key,price") {
		t.Errorf("the task's locals: %+v", ev)
	}
	var ins InspectResult
	a.call("debug_inspect_variable", map[string]any{"session_id": stop.SessionID, "expression": "df"}, &ins)
	if ins.Result == nil || !strings.Contains(ins.Result.Summary, "100") {
		t.Errorf("inspect df in the frozen task = %+v", ins)
	}
	a.call("debug_terminate", map[string]any{"session_id": stop.SessionID}, nil)
}
