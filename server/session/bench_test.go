// bench_test.go: real-debugpy benchmarks, each compared side by side with
// the plain alternative in the same run:
//   - an evaluate round trip, direct to the adapter vs through the proxy;
//   - editor stepping (next + stackTrace + scopes + variables) with and
//     without the pydevd TCP_NODELAY fix.
//
// make bench, or: go test -run '^$' -bench . -count 5 ./server/session/

package session

import (
	"context"
	"net"
	"path/filepath"
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

func BenchmarkEvaluate(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "loop.py")
	run := func(b *testing.B, ed *daptest.Client) {
		_, frame := startStopped(ed, program, 14)
		// Same footing for both: the TCP_NODELAY fix applied once.
		ed.Evaluate(adapter.NoDelayExpr, frame, "hover")
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → evaluate ← response
			ed.Evaluate("total + 1", frame, "watch")
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	b.Run("mode=direct", func(b *testing.B) {
		ad, err := adapter.StartDebugpy(context.Background(), adapter.DebugpyConfig{})
		if err != nil {
			b.Fatal(err)
		}
		ed := daptest.New(b, ad.Conn())
		run(b, ed)
		ed.Close()
		_ = ad.Close()
	})
	b.Run("mode=proxied", func(b *testing.B) {
		m := newTestManager(b, ManagerOptions{DisableNoDelay: true})
		edSide, muxSide := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
		ed := daptest.New(b, edSide)
		run(b, ed)
		ed.Close()
		<-served
	})
}

func BenchmarkStepping(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "steps.py")
	for _, tc := range []struct {
		name    string
		noDelay bool
	}{{"nodelay=off", false}, {"nodelay=on", true}} {
		b.Run(tc.name, func(b *testing.B) {
			m := newTestManager(b, ManagerOptions{DisableNoDelay: !tc.noDelay})
			edSide, muxSide := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
			ed := daptest.New(b, edSide)
			tid, _ := startStopped(ed, program, 5)
			ed.SetBreakpoints(program)
			// Let the sidecar's first-stop work (and the fix, when on) finish.
			s, _ := m.Get("")
			if _, err := s.Wait(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
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
			ed.Close()
			<-served
		})
	}
}
