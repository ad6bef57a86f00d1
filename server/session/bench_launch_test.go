// bench_launch_test.go: launch to the first stop with debugpy, side by side
// in one run:
//   - plain: an editor client straight on `python -m debugpy.adapter`, the
//     adapter's start included, as VS Code does it;
//   - dapscope: the headless session API (Manager.Launch, then the stop),
//     starting its adapter through the boot that re-arms TCP_QUICKACK
//     (adapter/debugpy_boot.py);
//   - dapscope-warm: the same with a spare adapter ready (WarmAdapters
//     with NoSpareDebuggee), the adapter's start taken out;
//   - dapscope-spare: a spare adapter and a spare debuggee ready
//     (WarmAdapters, as dapscope mcp and serve run): the launcher, the
//     program's interpreter and pydevd's imports taken out too (spare.go).
//
// Two programs: loop.py (the debugger's own cost) and the bundled
// example.py (which imports pandas and numpy, as users' programs do).
//
//	go test -run '^$' -bench LaunchToFirstStop -benchtime 5x -count 5 ./server/session/

package session

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func BenchmarkLaunchToFirstStop(b *testing.B) {
	root := repoRoot(b)
	for _, p := range []struct {
		name, rel string
		line      int
	}{{"loop", "testdata/core/loop.py", 14}, {"example", "testdata/python/example.py", 34}} {
		program := filepath.Join(root, p.rel)
		b.Run("program="+p.name+"/mode=plain", func(b *testing.B) {
			b.Setenv("DAPSCOPE_DEBUGPY_PLAIN_ADAPTER", "1")
			for b.Loop() {
				ad, err := adapter.StartDebugpy(context.Background(), adapter.DebugpyConfig{})
				if err != nil {
					b.Fatal(err)
				}
				ed := daptest.New(b, ad.Conn())
				ed.Initialize(daptest.InitArgs("bench", "python"))
				ed.LaunchToFrame(daptest.PythonLaunch(program), program, p.line)
				b.StopTimer()
				ed.Disconnect(true)
				ed.Close()
				_ = ad.Close()
				b.StartTimer()
			}
		})
		for _, mode := range []string{"dapscope", "dapscope-warm", "dapscope-spare"} {
			b.Run("program="+p.name+"/mode="+mode, func(b *testing.B) {
				spares := map[string]int{"dapscope-warm": 1, "dapscope-spare": 2}[mode]
				m := newTestManager(b, ManagerOptions{WarmAdapters: spares > 0, NoSpareDebuggee: spares == 1})
				for b.Loop() {
					b.StopTimer()
					for deadline := time.Now().Add(time.Minute); m.warm.Ready() < spares; {
						if time.Now().After(deadline) {
							b.Fatal("no spare adapter")
						}
						time.Sleep(20 * time.Millisecond) // polling while the clock is stopped
					}
					b.StartTimer()
					ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
					s, err := m.Launch(ctx, LaunchSpec{Program: p.rel, Breakpoints: []Breakpoint{{File: p.rel, Line: p.line}}})
					if err != nil {
						b.Fatal(err)
					}
					if st, err := s.Wait(ctx, time.Minute); err != nil || st.Location == nil {
						b.Fatalf("no stop: %+v %v", st, err)
					}
					if (s.spare != nil) != (spares == 2) {
						b.Fatalf("%s: ran in a spare debuggee: %v", mode, s.spare != nil)
					}
					b.StopTimer()
					_ = s.Terminate(ctx)
					cancel()
					b.StartTimer()
				}
			})
		}
	}
}
