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
)

// startStopped runs the editor side of a launch to the first breakpoint and
// returns the thread and top frame ids.
func startStopped(b *testing.B, ed *editorClient, program string, line int) (tid, frameID any) {
	ed.initialize()
	tid = ed.launchTo(program, line, nil)
	st := ed.call("stackTrace", map[string]any{"threadId": tid, "levels": 1})
	frameID = body(st)["stackFrames"].([]any)[0].(map[string]any)["id"]
	return tid, frameID
}

func BenchmarkEvaluate(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "loop.py")
	run := func(b *testing.B, ed *editorClient) {
		_, frame := startStopped(b, ed, program, 14)
		// Same footing for both: the TCP_NODELAY fix applied once.
		ed.call("evaluate", map[string]any{"expression": adapter.NoDelayExpr, "frameId": frame, "context": "hover"})
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			ed.call("evaluate", map[string]any{"expression": "total + 1", "frameId": frame, "context": "watch"})
		}
		b.StopTimer()
		ed.call("disconnect", map[string]any{"terminateDebuggee": true})
	}
	b.Run("mode=direct", func(b *testing.B) {
		ad, err := adapter.StartDebugpy(context.Background(), adapter.DebugpyConfig{})
		if err != nil {
			b.Fatal(err)
		}
		ed := newEditorClient(b, ad.Conn())
		run(b, ed)
		ed.close()
		_ = ad.Close()
	})
	b.Run("mode=proxied", func(b *testing.B) {
		m := newTestManager(b, ManagerOptions{DisableNoDelay: true})
		edSide, muxSide := net.Pipe()
		served := make(chan error, 1)
		go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
		ed := newEditorClient(b, edSide)
		run(b, ed)
		ed.close()
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
			ed := newEditorClient(b, edSide)
			tid, _ := startStopped(b, ed, program, 5)
			ed.call("setBreakpoints", map[string]any{"source": map[string]any{"path": program}, "breakpoints": []map[string]any{}})
			// Let the sidecar's first-stop work (and the fix, when on) finish.
			s, _ := m.Get("")
			if _, err := s.Wait(context.Background(), 0); err != nil {
				b.Fatal(err)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				// → next ← response, ← stopped; → stackTrace, scopes, variables
				ed.call("next", map[string]any{"threadId": tid})
				ed.event("stopped")
				st := ed.call("stackTrace", map[string]any{"threadId": tid, "levels": 20})
				frame := body(st)["stackFrames"].([]any)[0].(map[string]any)["id"]
				sc := ed.call("scopes", map[string]any{"frameId": frame})
				ref := body(sc)["scopes"].([]any)[0].(map[string]any)["variablesReference"]
				ed.call("variables", map[string]any{"variablesReference": ref})
			}
			b.StopTimer()
			ed.call("disconnect", map[string]any{"terminateDebuggee": true})
			ed.close()
			<-served
		})
	}
}
