//go:build linux

// Tests of dapscope/inspectProcesses against real debugpy following a
// multiprocessing Pool (testdata/python/mp_tree.py): both workers paused
// at the same line, each answers with its own data; the parent, running
// inside pool.map, gets a row saying it is not paused; a name no process
// has gets a reason on every paused row; a VS Code session the sidecar
// does not know is a row saying so.

package editor_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/session"
)

func TestInspectProcessesTree(t *testing.T) {
	prog, _ := filepath.Abs("../testdata/python/mp_tree.py")
	line := lineWith(t, readFile(t, prog), "    total = sum(range(n))  # WORKER BREAKPOINT") + 1
	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(prog), Logger: testLogger(t)})
	c := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	c.Initialize()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	root, err := mgr.Launch(ctx, session.LaunchSpec{Program: prog, Args: []string{"pool-fork"},
		Breakpoints: []session.Breakpoint{{File: prog, Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	for paused := 0; paused < 2; time.Sleep(100 * time.Millisecond) {
		paused = 0
		for _, s := range root.Tree()[1:] {
			if s.Status() == session.StatusPaused {
				paused++
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("%d workers paused:\n%s", paused, root.Output(0, 1<<16).Data)
		}
	}

	ask := func(p editor.ProcessesParams) allprocs.Table {
		t.Helper()
		var tb allprocs.Table
		if err := c.Call("dapscope/inspectProcesses", p, &tb); err != nil {
			t.Fatal(err)
		}
		return tb
	}
	tb := ask(editor.ProcessesParams{SessionID: root.ID(), VSCodeSessionIDs: []string{"vs-unknown"}, Expression: "data['n']"})
	if len(tb.Rows) != 4 || tb.Expression != "data['n']" {
		t.Fatalf("rows %+v", tb.Rows)
	}
	got := map[string]bool{}
	for _, r := range tb.Rows {
		switch {
		case r.SessionID == root.ID():
			if r.Status != session.StatusRunning || r.Error != "not paused" || r.Summary != "" {
				t.Errorf("the parent's row %+v", r)
			}
		case r.VSCodeSessionID == "vs-unknown":
			if r.Error == "" || r.Summary != "" {
				t.Errorf("the unknown session's row %+v", r)
			}
		default:
			if r.ParentID != root.ID() || r.PID == 0 || r.Status != session.StatusPaused || !strings.HasSuffix(r.Location, ":"+strconv.Itoa(line)) {
				t.Errorf("a worker's row %+v", r)
			}
			got[r.Summary] = true
		}
	}
	if !got["int 10"] || !got["int 20"] {
		t.Fatalf("the workers' summaries %v, want int 10 and int 20: %+v", got, tb.Rows)
	}

	// A name no process has: every paused row says why it has no summary.
	tb = ask(editor.ProcessesParams{SessionID: root.ID(), Expression: "no_such_name"})
	for _, r := range tb.Rows {
		if r.Error == "" || r.Summary != "" {
			t.Errorf("row without a reason: %+v", r)
		}
	}
	// A small budget drops rows from the end and says how many.
	tb = ask(editor.ProcessesParams{SessionID: root.ID(), Expression: "data", MaxBytes: 600})
	if tb.Omitted == 0 || len(tb.Rows)+tb.Omitted != 3 {
		t.Errorf("600 bytes: %d rows, %d omitted", len(tb.Rows), tb.Omitted)
	}
	if err := c.Call("dapscope/inspectProcesses", editor.ProcessesParams{Expression: "x"}, nil); err == nil {
		t.Error("no session named: no error")
	}
	tctx, tcancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer tcancel()
	if err := root.Terminate(tctx); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
