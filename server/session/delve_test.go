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
	ed := newEditorClient(t, edSide)
	dir := filepath.Join(repoRoot(t), "testdata", "go", "hello")
	ed.call("initialize", map[string]any{"clientID": "test", "adapterID": "go", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"})
	launch := ed.request("launch", map[string]any{"request": "launch", "mode": "debug", "program": dir, "dlvCwd": dir, "output": filepath.Join(t.TempDir(), "hello-debug")})
	ed.event("initialized")
	ed.call("setBreakpoints", map[string]any{"source": map[string]any{"path": filepath.Join(dir, "main.go")}, "breakpoints": []map[string]any{{"line": 16}}})
	ed.call("configurationDone", nil)
	ed.response(launch)
	stopped := ed.event("stopped")
	tid := body(stopped)["threadId"]
	stack := ed.call("stackTrace", map[string]any{"threadId": tid, "levels": 10})
	frame := body(stack)["stackFrames"].([]any)[0].(map[string]any)
	if frame["name"] != "main.sum" {
		t.Fatalf("top frame = %v", frame)
	}
	// Internal client on the same Delve connection.
	s, err := m.Get("")
	if err != nil {
		t.Fatal(err)
	}
	ev, err := s.Evaluate(context.Background(), "len(xs)", int(frame["id"].(float64)), "watch")
	if err != nil || ev.Result != "4" {
		t.Fatalf("internal evaluate len(xs) = %q, %v", ev.Result, err)
	}
	scopes := ed.call("scopes", map[string]any{"frameId": frame["id"]})
	ref := body(scopes)["scopes"].([]any)[0].(map[string]any)["variablesReference"]
	vars := ed.call("variables", map[string]any{"variablesReference": ref})
	names := []string{}
	for _, v := range body(vars)["variables"].([]any) {
		names = append(names, v.(map[string]any)["name"].(string))
	}
	if !strings.Contains(strings.Join(names, ","), "xs") {
		t.Fatalf("variables = %v", names)
	}
	ed.call("continue", map[string]any{"threadId": tid})
	ed.event("terminated")
	ed.call("disconnect", nil)
	ed.close()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if len(ed.foreign) > 0 {
		t.Fatalf("editor got foreign responses: %v", ed.foreign)
	}
}
