// tree_bench_test.go: an all-processes inspect of 4 paused multiprocessing
// workers (allprocs.go) side by side with inspecting each worker alone:
// "one" reports the slowest single worker's inspect per round
// (slowest-ns/op), "all" the one concurrent question to the 4. Run with
// `go test -run '^$' -bench ProcessTree -count 6 ./server/mcp`.

package mcp

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func BenchmarkProcessTreeInspect(b *testing.B) {
	mgr, srv := newServer(b, Options{})
	ctx := context.Background()
	prog := "testdata/python/mp_tree.py"
	line := markerLineOf(b, filepath.Join(repoRoot(b), prog), "WORKER BREAKPOINT")
	root, err := mgr.Launch(ctx, session.LaunchSpec{Program: prog, Args: []string{"pool-fork", "4"},
		Breakpoints: []session.Breakpoint{{File: prog, Line: line}}})
	if err != nil {
		b.Fatal(err)
	}
	var workers []*session.Session
	for deadline := time.Now().Add(120 * time.Second); len(workers) < 4; time.Sleep(50 * time.Millisecond) {
		workers = workers[:0]
		for _, c := range root.Tree()[1:] {
			if c.Status() == session.StatusPaused {
				workers = append(workers, c)
			}
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d workers paused", len(workers))
		}
	}
	frames := map[*session.Session]int{}
	for _, w := range workers {
		st, err := w.Wait(ctx, 30*time.Second)
		if err != nil || st.Location == nil {
			b.Fatalf("worker stop %+v %v", st, err)
		}
		frames[w] = st.Location.FrameID
	}
	frame := func(s *session.Session) int { return frames[s] }
	b.Run("one", func(b *testing.B) {
		var slowest time.Duration
		for b.Loop() {
			var worst time.Duration
			for _, w := range workers {
				t0 := time.Now()
				if _, err := srv.inspectTarget(ctx, w, frame(w), "data", inspect.Options{}); err != nil {
					b.Fatal(err)
				}
				worst = max(worst, time.Since(t0))
			}
			slowest += worst
		}
		b.ReportMetric(float64(slowest.Nanoseconds())/float64(b.N), "slowest-ns/op")
	})
	b.Run("all", func(b *testing.B) {
		for b.Loop() {
			t := srv.inspectAll(ctx, workers, &inspectArgs{Expression: "data"}, inspect.Options{}, defaultInspectBytes)
			if len(t.Processes.Rows) != 4 || t.Processes.Rows[0].Summary == "" {
				b.Fatalf("table %+v", t.Processes)
			}
		}
	})
	_ = root.Terminate(ctx)
}
