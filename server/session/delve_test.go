// delve_test.go: Delve (`dlv dap`) sessions — headless through the session
// API and an editor through the proxy — on testdata/go/hello.

package session

import (
	"context"
	"net"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestDelveHeadless(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "dlv", Program: "testdata/go/hello",
		Breakpoints: []Breakpoint{{File: "testdata/go/hello/main.go", Line: 16}}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Function != "main.sum" || st.Location.Line != 16 {
		t.Fatalf("stop = %+v", st.Location)
	}
	ev, err := s.Evaluate(ctx, "total", 0, "")
	if err != nil || ev.Result != "10" {
		t.Fatalf("total = %q, %v", ev.Result, err)
	}
	if bps := s.Breakpoints(); len(bps) != 1 || bps[0].HitCount != 1 {
		t.Fatalf("breakpoints = %+v", bps)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	if !strings.Contains(s.Output(0, 1<<20).Data, "10 2 p") {
		t.Fatalf("output = %q", s.Output(0, 1<<20).Data)
	}
}

// An editor drives Delve through the proxy: initialize, launch,
// setBreakpoints, configurationDone, stopped, stackTrace, scopes,
// variables, continue, terminated — while an internal client evaluates.
func TestDelveThroughProxy(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{Adapter: "dlv", Dir: filepath.Join(repoRoot(t), "testdata", "go", "hello")})
	}()
	ed := daptest.New(t, edSide)
	dir := filepath.Join(repoRoot(t), "testdata", "go", "hello")
	// → initialize ← response
	// → launch, ← initialized, → setBreakpoints(16), → configurationDone
	// ← launch response, ← stopped
	// → stackTrace(levels 10) ← response
	ed.Initialize(daptest.InitArgs("test", "go"))
	config := map[string]any{"request": "launch", "mode": "debug", "program": dir, "dlvCwd": dir, "output": filepath.Join(t.TempDir(), "hello-debug")}
	tid := ed.LaunchTo(config, filepath.Join(dir, "main.go"), 16).Body.ThreadId
	frame := ed.StackTrace(tid, 10)[0]
	if frame.Name != "main.sum" {
		t.Fatalf("top frame = %+v", frame)
	}
	// Internal client on the same Delve connection.
	s, err := m.Get("")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Evaluate(context.Background(), "len(xs)", frame.Id, "watch")
	if err != nil || ev.Result != "4" {
		t.Fatalf("internal evaluate len(xs) = %q, %v", ev.Result, err)
	}
	// → scopes, variables ← responses
	scope := ed.Scopes(frame.Id)[0]
	names := []string{}
	for _, v := range ed.Variables(scope.VariablesReference) {
		names = append(names, v.Name)
	}
	if !strings.Contains(strings.Join(names, ","), "xs") {
		t.Fatalf("variables = %v", names)
	}
	// → continue ← response, ← terminated; → disconnect ← response
	ed.Continue(tid)
	ed.Event("terminated")
	ed.Disconnect(false)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if f := ed.Foreign(); len(f) > 0 {
		t.Fatalf("editor got foreign responses: %v", f)
	}
}
