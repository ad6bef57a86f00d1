//go:build !windows

// heapwatch_node_test.go: the JavaScript probe's heap watch (issue #37) on
// real Node 24 under a small heap (--max-old-space-size=100): a sorted page
// of 2,000,000 distinct strings, which without the watch grows the heap
// until V8 aborts the program out of memory, answers INSPECTION_MEMORY;
// the program lives on, the session keeps working (an evaluate, a page, an
// inspection), and ordinary inspections of the same program are not
// stopped.

package inspect_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func TestJSProbeHeapWatch(t *testing.T) {
	const program = "testdata/node/heapwatch.js"
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), InterruptTimeout: time.Minute})
	defer mgr.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	s, err := mgr.Launch(ctx, session.LaunchSpec{Adapter: "node", Program: program, RuntimeExecutable: node24Exe,
		Env:         map[string]string{"NODE_OPTIONS": "--max-old-space-size=120"},
		Breakpoints: []session.Breakpoint{{File: program, Line: jsBreakLine(t, program)}}})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := s.Wait(ctx, 2*time.Minute); err != nil || st.Running || st.Exited {
		t.Fatalf("the program did not stop at its BREAK line: %+v, %v, outcome %+v", st, err, s.Outcome())
	}
	top, err := s.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	opts := inspect.Options{Timeout: 10, RequestTimeout: 120}
	if r, err := s.Evaluate(ctx, "String(process.getBuiltinModule('node:v8').getHeapStatistics().heap_size_limit >> 20)", top.Id, "repl"); err != nil {
		t.Fatal(err)
	} else {
		t.Logf("heap limit %s MiB", r.Result)
	}

	// ordinary inspections first: none is stopped
	page := func(expr string, sel inspect.Selection) (*inspect.PageResult, error) {
		return inspect.Browse(ctx, s, top.Id, expr, sel, opts)
	}
	if r, err := page("some", inspect.Selection{Sort: []inspect.SortKey{{Column: 0}}, Rows: window(0, 3)}); err != nil || len(r.Page.Rows) != 3 || r.Page.Total() != 50000 {
		t.Fatalf("a sorted page of 50,000 strings: %+v, %v", r, err)
	}

	// the sorted page of 2,000,000 distinct strings: stopped, typed
	_, err = page("words", inspect.Selection{Sort: []inspect.SortKey{{Column: 0}}, Rows: window(0, 3)})
	if e := errcode.As(err); e == nil || e.Code != errcode.InspectionMemory {
		t.Fatalf("sorted page of 2,000,000 distinct strings under a 120 MB heap: %v (%T), want %s; outcome %+v", err, err, errcode.InspectionMemory, s.Outcome())
	}
	t.Logf("stopped: %v", err)

	// the program and the session live on
	if r, err := s.Evaluate(ctx, "small.length + words.length", top.Id, "repl"); err != nil || r.Result != "2000003" {
		t.Fatalf("evaluate after the stopped inspection: %+v, %v (outcome %+v)", r, err, s.Outcome())
	}
	if r, err := page("words", inspect.Selection{Rows: window(1_999_998, 5)}); err != nil || len(r.Page.Rows) != 2 || r.Page.Total() != 2_000_000 {
		t.Fatalf("an unsorted page of words after the stopped inspection: %+v, %v", r, err)
	}
	if r, err := inspect.Inspect(ctx, s, top.Id, "small", opts); err != nil || r.Error != nil || r.Structure == nil || r.Structure.Length == nil || *r.Structure.Length != 3 {
		t.Fatalf("inspect small after the stopped inspection: %+v, %v", r, err)
	}
	if _, paused := s.Paused(); !paused {
		t.Fatalf("the program is no longer paused: outcome %+v", s.Outcome())
	}
}
