// tree_bench_test.go: what following a subprocess headless costs over
// plain debugpy's own child attach, side by side: the time from the launch
// to the child's first stop at a breakpoint, (a) headless (children.go
// dials the adapter and attaches), (b) as an editor does it through the
// proxy (the debugpyAttach event, then the editor's own attach session).
// Run with `go test -run '^$' -bench ChildFirstStop -count 5 ./server/session`.

package session

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func BenchmarkChildFirstStop(b *testing.B) {
	parent := "testdata/python/subproc_parent.py"
	childAbs := filepath.Join(repoRoot(b), "testdata", "python", "subproc_child.py")
	line := lineOf(b, childAbs, "CHILD BREAKPOINT")
	report := func(b *testing.B, total time.Duration) {
		b.ReportMetric(float64(total.Milliseconds())/float64(b.N), "ms-to-child-stop/op")
	}
	b.Run("headless", func(b *testing.B) {
		m := newTestManager(b, ManagerOptions{})
		var total time.Duration
		for b.Loop() {
			t0 := time.Now()
			s, err := m.Launch(context.Background(), LaunchSpec{Program: parent,
				Breakpoints: []Breakpoint{{File: "testdata/python/subproc_child.py", Line: line}}})
			if err != nil {
				b.Fatal(err)
			}
			var child *Session
			for child == nil {
				for _, c := range s.Tree()[1:] {
					if c.Status() == StatusPaused {
						child = c
					}
				}
				if child == nil {
					<-time.After(time.Millisecond)
				}
			}
			waitStop(b, child)
			total += time.Since(t0)
			_ = s.Terminate(context.Background())
		}
		report(b, total)
	})
	b.Run("editor-proxy", func(b *testing.B) {
		m := newTestManager(b, ManagerOptions{})
		var total time.Duration
		for b.Loop() {
			edSide, muxSide := net.Pipe()
			served := make(chan error, 2)
			go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
			ed := daptest.New(b, edSide)
			t0 := time.Now()
			ed.Initialize(daptest.InitArgs("test-editor", "python"))
			launch := ed.StartLaunch(daptest.PythonLaunch(filepath.Join(repoRoot(b), parent)))
			ed.Event("initialized")
			ed.ConfigurationDone()
			ed.OK(launch)
			var body map[string]any
			if err := ed.Event("debugpyAttach").Unmarshal(&body); err != nil {
				b.Fatal(err)
			}
			connect, _ := body["connect"].(map[string]any)
			port, _ := connect["port"].(float64)
			cedSide, cmuxSide := net.Pipe()
			go func() {
				served <- m.ServeEditor(context.Background(), cmuxSide, ProxySpec{Connect: net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port)))})
			}()
			ced := daptest.New(b, cedSide)
			ced.Initialize(daptest.InitArgs("test-editor", "python"))
			attach := ced.Send("attach", body)
			ced.Event("initialized")
			ced.SetBreakpoints(childAbs, line)
			ced.ConfigurationDone()
			ced.OK(attach)
			stopped := ced.Stopped()
			total += time.Since(t0)
			ced.Continue(stopped.Body.ThreadId)
			ed.Event("terminated")
			ced.Close()
			ed.Close()
			<-served
			<-served
		}
		report(b, total)
	})
}
