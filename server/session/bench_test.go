// bench_test.go: real-debugpy benchmarks, each compared side by side with
// the plain alternative in the same run:
//   - an evaluate round trip on a stopped thread: plain debugpy (no fixes),
//     direct to the adapter with the sidecar's pydevd fixes applied by hand,
//     and through the proxy (the sidecar applies them at the first stop);
//     direct vs proxied is the proxy's own cost;
//   - editor stepping (next + stackTrace + scopes + variables): plain
//     debugpy, through the proxy with TCP_NODELAY only (fastWake off), and
//     through the proxy with both fixes (the default);
//   - the editor's variables request on a frame of DataFrames and twenty
//     other locals: direct, proxied with smart values off, and on.
//
// make bench, or: go test -run '^$' -bench . -count 5 ./server/session/

package session

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// startStopped runs the editor side of a launch to the first breakpoint and
// returns the thread and top frame ids.
//
//	→ initialize, launch, setBreakpoints(line), configurationDone ← stopped
//	→ stackTrace(levels 1) ← top frame
func startStopped(ed *daptest.Client, program string, line int) (tid, frameID int) {
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	stopped, frame := ed.LaunchToFrame(daptest.PythonLaunch(program), program, line)
	return stopped.Body.ThreadId, frame.Id
}

// direct runs an editor client straight on a debugpy adapter (no sidecar).
func direct(b *testing.B, run func(ed *daptest.Client)) {
	ad, err := adapter.StartDebugpy(context.Background(), adapter.DebugpyConfig{})
	if err != nil {
		b.Fatal(err)
	}
	ed := daptest.New(b, ad.Conn())
	run(ed)
	ed.Close()
	_ = ad.Close()
}

// proxied runs an editor client through the sidecar; ready is called once
// the first stop was processed (the pydevd fixes are in).
func proxied(b *testing.B, opts ManagerOptions, run func(ed *daptest.Client, ready func())) {
	m := newTestManager(b, opts)
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(b, edSide)
	run(ed, func() {
		s, err := m.Get("")
		if err == nil {
			_, err = s.Wait(context.Background(), 0)
		}
		if err != nil {
			b.Fatal(err)
		}
	})
	ed.Close()
	<-served
}

func BenchmarkEvaluate(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "loop.py")
	measure := func(b *testing.B, ed *daptest.Client, frame int) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → evaluate ← response
			ed.Evaluate("total + 1", frame, "watch")
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	b.Run("mode=plain", func(b *testing.B) {
		direct(b, func(ed *daptest.Client) {
			_, frame := startStopped(ed, program, 14)
			measure(b, ed, frame)
		})
	})
	b.Run("mode=direct", func(b *testing.B) {
		direct(b, func(ed *daptest.Client) {
			_, frame := startStopped(ed, program, 14)
			// Same footing as proxied: the sidecar's first-stop fixes, by hand.
			if r := ed.Evaluate(adapter.NoDelayWakeExpr, frame, "hover").Result; !strings.Contains(r, "nodelay: ok") {
				b.Fatalf("fixes: %s", r)
			}
			measure(b, ed, frame)
		})
	})
	b.Run("mode=proxied", func(b *testing.B) {
		proxied(b, ManagerOptions{}, func(ed *daptest.Client, ready func()) {
			_, frame := startStopped(ed, program, 14)
			ready()
			measure(b, ed, frame)
		})
	})
}

func BenchmarkStepping(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "steps.py")
	measure := func(b *testing.B, ed *daptest.Client, tid int) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → next ← response, ← stopped; → stackTrace, scopes, variables
			ed.Next(tid)
			ed.Stopped()
			frame := ed.StackTrace(tid, 20)[0]
			scope := ed.Scopes(frame.Id)[0]
			ed.Variables(scope.VariablesReference)
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	b.Run("mode=plain", func(b *testing.B) {
		direct(b, func(ed *daptest.Client) {
			tid, _ := startStopped(ed, program, 5)
			ed.SetBreakpoints(program)
			measure(b, ed, tid)
		})
	})
	for _, tc := range []struct {
		name string
		opts ManagerOptions
	}{{"mode=nodelay", ManagerOptions{DisableFastWake: true}}, {"mode=dapscope", ManagerOptions{}}} {
		b.Run(tc.name, func(b *testing.B) {
			proxied(b, tc.opts, func(ed *daptest.Client, ready func()) {
				tid, _ := startStopped(ed, program, 5)
				ed.SetBreakpoints(program)
				ready() // the sidecar's first-stop work (and fixes) done
				measure(b, ed, tid)
			})
		})
	}
}

// BenchmarkSmartVariables: the editor's variables request on a frame with
// three DataFrames, a Series, an array and twenty other locals, through the
// sidecar with smart values off and on (one summary probe call per
// response), and straight to debugpy with its fixes applied by hand.
func BenchmarkSmartVariables(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "python", "smart_values.py")
	line := lineOf(b, program, "BREAK")
	measure := func(b *testing.B, ed *daptest.Client, frame int) {
		ref := ed.Scopes(frame)[0].VariablesReference
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → variables ← response (values rewritten when smart)
			if n := len(ed.Variables(ref)); n < 25 {
				b.Fatalf("%d locals", n)
			}
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	b.Run("mode=direct", func(b *testing.B) {
		direct(b, func(ed *daptest.Client) {
			_, frame := startStopped(ed, program, line)
			ed.Evaluate(adapter.NoDelayWakeExpr, frame, "hover")
			measure(b, ed, frame)
		})
	})
	for _, tc := range []struct {
		name string
		opts ManagerOptions
	}{{"mode=smart_off", ManagerOptions{DisableSmartValues: true}}, {"mode=smart_on", ManagerOptions{}}} {
		b.Run(tc.name, func(b *testing.B) {
			proxied(b, tc.opts, func(ed *daptest.Client, ready func()) {
				_, frame := startStopped(ed, program, line)
				ready()
				measure(b, ed, frame)
			})
		})
	}
}
