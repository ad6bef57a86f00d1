// tree_test.go: a multiprocessing run as one debugging session over MCP:
// debug_wait on the root reports a worker's stop, debug_sessions shows the
// tree, one debug_evaluate / debug_inspect_variable asks every process
// (allprocs.go), a child's id works like any session's, and
// debug_terminate on the root leaves no process of the run behind.

package mcp

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

func TestProcessTreeOverMCP(t *testing.T) {
	a, _ := newHTTPAgent(t, Options{})
	prog := "testdata/python/mp_tree.py"
	line := markerLine(t, filepath.Join(repoRoot(t), prog), "WORKER BREAKPOINT")
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "args": []string{"pool-fork"}, "wait": false,
		"breakpoints": []map[string]any{{"file": prog, "line": line}}}, &stop)
	root := stop.SessionID

	// debug_wait on the root (the active session: children become active
	// only when they stop): a worker stopped.
	a.call("debug_wait", map[string]any{"timeout": 90}, &stop)
	if stop.Status != "paused" || stop.SessionID == root || stop.ParentID != root || stop.Location.Line != line {
		t.Fatalf("wait on the root = %+v", stop)
	}
	child := stop.SessionID

	// Both workers paused, as debug_sessions shows them.
	var list SessionsResult
	var paused []session.Summary
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		a.call("debug_sessions", nil, &list)
		paused = paused[:0]
		for _, s := range list.Sessions {
			if s.ParentID == root && s.Status == session.StatusPaused && s.Stop != nil {
				paused = append(paused, s)
			}
		}
		if len(paused) == 2 || time.Now().After(deadline) {
			break
		}
	}
	if len(paused) != 2 {
		t.Fatalf("paused children: %+v", list.Sessions)
	}
	pids := []int{}
	for _, s := range list.Sessions {
		if s.ID == root && len(s.Children) < 2 {
			t.Errorf("root lists children %v", s.Children)
		}
		if s.PID == 0 {
			t.Errorf("session %s without a pid", s.ID)
		}
		pids = append(pids, s.PID)
		if s.ParentID == root && (s.Stop == nil || s.Stop.Line != line) {
			t.Errorf("child %s stop %+v", s.ID, s.Stop)
		}
	}

	// A child's id works like any session's.
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"session_id": child, "expression": "data['n'] * 2"}, &ev)
	if ev.Result != "20" && ev.Result != "40" {
		t.Fatalf("evaluate in the child = %+v", ev)
	}

	// One question to every process of the tree.
	a.call("debug_evaluate", map[string]any{"session_id": root, "expression": "data['n']"}, &ev)
	if ev.Processes == nil {
		t.Fatalf("no table: %+v", ev)
	}
	got := map[string]bool{}
	for _, r := range ev.Processes.Rows {
		if r.Status == session.StatusPaused {
			got[r.Summary] = true
		} else if r.Error == "" {
			t.Errorf("a row without an answer or a reason: %+v", r)
		}
	}
	if !got["10"] || !got["20"] {
		t.Fatalf("rows %+v", ev.Processes.Rows)
	}
	var ins InspectResult
	r := a.call("debug_inspect_variable", map[string]any{"session_id": "all", "expression": "data", "max_bytes": 2048}, &ins)
	if ins.Processes == nil || len(ins.Processes.Rows)+ins.Processes.Omitted < 3 {
		t.Fatalf("inspect all = %+v", ins)
	}
	if n := responseBytes(t, r); n > 2048+envelopeSlack {
		t.Errorf("answer of %d bytes for max_bytes 2048", n)
	}
	a.call("debug_inspect_variable", map[string]any{"session_id": root, "expression": "no_such_name"}, &ins)
	for _, r := range ins.Processes.Rows {
		if r.Error == "" {
			t.Errorf("no reason for %+v", r)
		}
	}

	// Ending the root ends the whole tree.
	a.call("debug_terminate", map[string]any{"session_id": root}, nil)
	a.call("debug_sessions", nil, &list)
	for _, s := range list.Sessions {
		if s.Status == session.StatusPaused || s.Status == session.StatusRunning {
			t.Errorf("session %s still %s", s.ID, s.Status)
		}
	}
	for _, pid := range pids {
		for deadline := time.Now().Add(10 * time.Second); procAlive(pid); time.Sleep(50 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Errorf("process %d of the run is left behind", pid)
				break
			}
		}
	}
}

func markerLine(t *testing.T, path, marker string) int { return markerLineOf(t, path, marker) }

func markerLineOf(t testing.TB, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "# "+marker) {
			return i + 1
		}
	}
	t.Fatalf("no %s in %s", marker, path)
	return 0
}

// procAlive: pid is a live, unreaped process.
func procAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	return len(f) > 0 && f[0] != "Z"
}
