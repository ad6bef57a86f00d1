// tree_breakpoints_test.go: breakpoints set on a tree's root in the middle
// of the run, after its children exist, reach the children (as in VS
// Code): two pool workers paused at one line, the root's breakpoints
// moved to the next line, and each worker, continued, stops there.

package mcp

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

func TestTreeBreakpointsSetMidRun(t *testing.T) {
	a, _ := newHTTPAgent(t, Options{})
	prog := "testdata/python/mp_tree.py"
	first := markerLine(t, filepath.Join(repoRoot(t), prog), "WORKER BREAKPOINT")
	next := first + 1 // return total + len(data)
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "args": []string{"pool-fork"}, "wait": false,
		"breakpoints": []map[string]any{{"file": prog, "line": first}}}, &stop)
	root := stop.SessionID
	defer a.call("debug_terminate", map[string]any{"session_id": root}, nil)

	var list SessionsResult
	var kids []string
	for deadline := time.Now().Add(90 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		a.call("debug_sessions", nil, &list)
		kids = kids[:0]
		for _, s := range list.Sessions {
			if s.ParentID == root && s.Status == session.StatusPaused && s.Stop != nil && s.Stop.Line == first {
				kids = append(kids, s.ID)
			}
		}
		if len(kids) == 2 || time.Now().After(deadline) {
			break
		}
	}
	if len(kids) != 2 {
		t.Fatalf("workers paused at %d: %+v", first, list.Sessions)
	}

	// Mid-run, on the root: the file's breakpoints are now the next line only.
	a.call("debug_set_breakpoints", map[string]any{"session_id": root, "file": prog, "breakpoints": []map[string]any{{"line": next}}}, nil)
	for _, id := range kids {
		a.call("debug_continue", map[string]any{"session_id": id, "timeout": 60}, &stop)
		if stop.SessionID != id || stop.Status != session.StatusPaused || stop.Location == nil || stop.Location.Line != next {
			t.Errorf("worker %s continued: %+v, want a stop at line %d", id, stop, next)
		}
	}
}
