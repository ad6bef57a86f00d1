// ray_test.go: a real local Ray cluster with two tasks paused at
// breakpoint(), each on its own shard, one shard with a planted anomaly
// (its price column all NaN): ray_list finds them, debug_attach reaches
// each like any debugpy.listen and puts it under the cluster's one root, and ONE debug_inspect_variable on the root finds
// the anomaly in the task that has it; debug_terminate on the root
// detaches them and the tasks finish.

package mcp

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/ray/raytest"
	"github.com/dapscope/dapscope/server/session"
)

func TestRayPausedTasksOverMCP(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	c := raytest.Start(t, testpython.Path(), repoRoot(t), "shards")
	a, _ := newHTTPAgent(t, Options{})
	where := map[string]any{"address": c.Dashboard, "token_file": c.TokenFile}

	list := waitRayTasks(t, a, where, "shard", "shard")

	// A listed task is a debugpy.listen endpoint: debug_attach reaches it
	// (stopping in the task: Ray's set_trace steps out of Ray's own code),
	// and each attached task joins the cluster's root.
	line := markerLine(t, raytest.Script(repoRoot(t)), "RAY TASK BREAKPOINT") + 1 // Ray stops on breakpoint()'s line
	rootID := ""
	for _, tk := range list.Tasks {
		var own StopReport
		a.call("debug_attach", map[string]any{"host": tk.Host, "port": tk.Port, "wait": true, "timeout": 60}, &own)
		if own.Status != session.StatusPaused || own.Location == nil || own.Location.Line != line || own.ParentID == "" {
			t.Fatalf("debug_attach to a listed task = %+v", own)
		}
		if rootID != "" && own.ParentID != rootID {
			t.Fatalf("two roots for one cluster: %s, %s", rootID, own.ParentID)
		}
		rootID = own.ParentID
	}
	a.call("ray_list", where, &list)
	if list.RootID != rootID || len(list.Tasks) != 0 || len(list.Debugging) != 2 {
		t.Errorf("ray_list after the attaches = %+v", list)
	}

	// debug_sessions: the root with its two tasks.
	var sessions SessionsResult
	a.call("debug_sessions", nil, &sessions)
	members := 0
	for _, s := range sessions.Sessions {
		if s.ID == rootID && (s.Status != session.StatusRunning || len(s.Children) != 2) {
			t.Errorf("root %+v", s)
		}
		if s.ParentID == rootID {
			members++
		}
	}
	if members != 2 {
		t.Fatalf("members of the root: %d in %+v", members, sessions.Sessions)
	}

	// One question to every paused task: the anomaly is in one row only.
	var ins InspectResult
	a.call("debug_inspect_variable", map[string]any{"session_id": rootID, "expression": "df"}, &ins)
	if ins.Processes == nil || len(ins.Processes.Rows) != 2 {
		t.Fatalf("inspect on the root = %+v", ins)
	}
	anomalous := 0
	for _, r := range ins.Processes.Rows {
		if r.Status != session.StatusPaused || r.Error != "" || !strings.Contains(r.Summary, "100") {
			t.Errorf("row %+v", r)
		}
		if strings.Contains(strings.Join(r.Problems, "; "), "price") {
			anomalous++
		}
	}
	if anomalous != 1 {
		t.Fatalf("rows naming the NaN column: %d in\n%s", anomalous, ins.Processes.Text())
	}
	t.Logf("one call, every task:\n%s", ins.Processes.Text())

	// "all" asks the same tasks (the root, running no code, is no row).
	a.call("debug_evaluate", map[string]any{"session_id": "all", "expression": "int(df['price'].isna().sum())"}, new(EvaluateResult))

	// Ending the root detaches the tasks: they run on and finish.
	a.call("debug_terminate", map[string]any{"session_id": rootID}, nil)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		a.call("ray_list", where, &list)
		running := 0
		for _, tk := range list.Debugging {
			if tk.Name != "" {
				running++
			}
		}
		if len(list.Tasks) == 0 && len(list.Debugging) == 2 && running == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("tasks still running after the root ended: %+v", list)
		}
	}
}

// TestRayDatasetInDriverOverMCP: a Ray Data Dataset held by a driver paused
// in debugpy is inspected lazily (nothing runs), then with compute (Ray
// runs ONE aggregate on the cluster while the driver is paused, labelled);
// ending the session ends the driver and its cluster, nothing left.
func TestRayDatasetInDriverOverMCP(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	a, _ := newHTTPAgent(t, Options{})
	prog := "testdata/python/ray_tasks.py"
	line := markerLine(t, filepath.Join(repoRoot(t), prog), "DATASET BREAKPOINT")
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "args": []string{"dataset"}, "subprocesses": false, "timeout": 180,
		"env":         map[string]string{"HOME": t.TempDir(), "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER": "0", "RAY_USAGE_STATS_ENABLED": "0"},
		"breakpoints": []map[string]any{{"file": prog, "line": line}}}, &stop)
	if stop.Status != session.StatusPaused || stop.Location == nil || stop.Location.Line != line {
		t.Fatalf("launch = %+v", stop)
	}
	var dir EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "ray._private.worker._global_node.get_session_dir_path()"}, &dir)
	sessionDir := strings.Trim(dir.Result, "'")
	defer raytest.CheckGone(t, sessionDir)

	var ins InspectResult
	a.call("debug_inspect_variable", map[string]any{"expression": "lazy"}, &ins)
	if ins.Result == nil || ins.Structure == nil || ins.Structure.Engine == nil || ins.Structure.Engine.Name != "ray" || !ins.Structure.Engine.Lazy ||
		ins.Structure.Engine.Computed != "" || ins.Statistics != nil {
		t.Fatalf("lazy = %+v", ins.Result)
	}
	// In a paused driver Ray's first executions take seconds each (they
	// may not fit the 10 s budget: then the answer says so, and the next
	// compute, warm, does).
	for i := 0; i < 4; i++ {
		a.call("debug_inspect_variable", map[string]any{"expression": "ds", "compute": true, "timeout": 10}, &ins)
		if ins.Partial || ins.Statistics == nil {
			if len(ins.Warnings) == 0 || !strings.Contains(strings.Join(ins.Warnings, " "), "did not finish within the time budget") {
				t.Fatalf("a compute past the budget without saying so: %+v %v", ins.Structure, ins.Warnings)
			}
			continue
		}
		break
	}
	if ins.Structure == nil || ins.Structure.Engine == nil || !strings.HasPrefix(ins.Structure.Engine.Computed, "computed by Ray") ||
		len(ins.Structure.Shape) == 0 || ins.Structure.Shape[0] != 200 || ins.Statistics == nil {
		t.Fatalf("ds with compute = %+v %+v %v", ins.Structure, ins.Statistics, ins.Warnings)
	}
	// The driver runs on to its end: ray.shutdown() ends the cluster.
	a.call("debug_continue", map[string]any{"timeout": 120}, &stop)
	if stop.Status != session.StatusCompleted {
		t.Errorf("the driver did not end: %+v", stop)
	}
}

// waitRayTasks calls ray_list until the paused tasks are those of functions
// (in order), for at most 120 s (a cluster's workers start slowly), and
// fails the test when they never are.
func waitRayTasks(t *testing.T, a *agent, where map[string]any, functions ...string) RayListResult {
	t.Helper()
	var list RayListResult
	are := func() bool {
		if len(list.Tasks) != len(functions) {
			return false
		}
		for i, f := range functions {
			if list.Tasks[i].Function != f {
				return false
			}
		}
		return true
	}
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		a.call("ray_list", where, &list)
		if are() {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("ray_list = %+v, want the tasks of %v", list, functions)
		}
	}
}
