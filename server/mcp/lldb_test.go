// lldb_test.go: the debug_* tools on native programs under lldb-dap:
// launch a C++ binary with a breakpoint, the stop report, the smart
// inspector, debug_evaluate of a global, setVariable, attach to a pid,
// and terminate.

package mcp

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/nativetest"
	"github.com/dapscope/dapscope/server/session"
)

func TestLLDBTools(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.CPP)
	ws := nativetest.Workspace(t)
	mgr := session.NewManager(session.ManagerOptions{Workspace: ws, Logger: testLogger()})
	srv := New(mgr, Options{Logger: testLogger()})
	t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := httpAgent(t, ep)
	line := nativetest.Line(t, nativetest.CPP, "// break here")
	var stop StopReport
	a.call("debug_launch", map[string]any{"adapter": "lldb", "program": bin,
		"breakpoints": []map[string]any{{"file": "containers.cpp", "line": line}}, "timeout": 120}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != line {
		t.Fatalf("stop = %+v", stop)
	}
	var ins struct {
		DetectedType string `json:"detected_type"`
		Summary      string `json:"summary"`
	}
	a.call("debug_inspect_variable", map[string]any{"expression": "prices"}, &ins)
	if ins.DetectedType != "ndarray" || !strings.Contains(ins.Summary, "1,000") {
		t.Fatalf("inspect prices = %+v", ins)
	}
	var ev struct {
		Result string `json:"result"`
	}
	a.call("debug_evaluate", map[string]any{"expression": "calls"}, &ev)
	if ev.Result != "2" {
		t.Fatalf("evaluate the global calls = %+v", ev)
	}
	a.call("debug_terminate", nil, nil)

	// Attach to a C program waiting in a loop.
	cbin := nativetest.Build(t, nativetest.C)
	waiter := exec.Command(cbin, "wait")
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = waiter.Process.Kill(); _ = waiter.Wait() }()
	tick := nativetest.Line(t, nativetest.C, "// tick line")
	a.call("debug_attach", map[string]any{"adapter": "lldb", "pid": waiter.Process.Pid, "program": cbin,
		"breakpoints": []map[string]any{{"file": "arrays.c", "line": tick}}, "wait": true, "timeout": 120}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != tick {
		t.Fatalf("attach stop = %+v", stop)
	}
	a.call("debug_evaluate", map[string]any{"expression": "counter"}, &ev)
	if ev.Result != "41" {
		t.Fatalf("evaluate the static counter = %+v", ev)
	}
}
