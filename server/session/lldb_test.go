//go:build !windows

// lldb_test.go: lldb-dap sessions on the native test programs
// (testdata/native, built by internal/nativetest): launch, breakpoints of
// every kind, evaluate, setVariable, stepping, stack, scopes, attach to a
// pid, and a terminate that leaves no process behind.

package session

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/nativetest"
)

// debuggeePid reads the stopped debuggee's pid from lldb's process status.
func debuggeePid(t *testing.T, s *Session) int {
	t.Helper()
	ev, err := s.Evaluate(testCtx(t), "`process status", 0, "repl")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`Process (\d+)`).FindStringSubmatch(ev.Result)
	if m == nil {
		t.Fatalf("process status = %q", ev.Result)
	}
	pid, _ := strconv.Atoi(m[1])
	return pid
}

// gone reports whether pid no longer runs (a zombie counts as gone).
func gone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+1:]))
	return len(f) > 0 && f[0] == "Z"
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	ctx := testCtx(t)
	for !gone(pid) {
		select {
		case <-ctx.Done():
			t.Fatalf("process %d still runs after the session ended", pid)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

func TestLLDBLaunchBreakpointsEvaluate(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.C)
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	ctx := testCtx(t)
	src := nativetest.Source(t, nativetest.C)
	loop := nativetest.Line(t, nativetest.C, "total += point_norm")
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "lldb", Program: bin, Breakpoints: []Breakpoint{
		{File: src, Line: loop, Condition: "i == 2"},
		{File: src, Line: nativetest.Line(t, nativetest.C, "// break here"), LogMessage: "total is {total}"},
		{File: src, Line: nativetest.Line(t, nativetest.C, "counter++;"), HitCondition: "1"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Function != "main" || st.Location.Line != loop {
		t.Fatalf("stop = %+v", st.Location)
	}
	if ev, err := s.Evaluate(ctx, "i", 0, "watch"); err != nil || ev.Result != "2" {
		t.Fatalf("condition i == 2: i = %q, %v", ev.Result, err)
	}
	if ev, err := s.Evaluate(ctx, "counter", 0, "watch"); err != nil || ev.Result != "41" {
		t.Fatalf("static counter = %q, %v", ev.Result, err)
	}
	if old, updated, err := s.SetVariable(ctx, 0, "n", "999"); err != nil || updated != "999" {
		t.Fatalf("setVariable n = %q (was %q), %v", updated, old, err)
	}
	if ev, err := s.Evaluate(ctx, "n", 0, "watch"); err != nil || ev.Result != "999" {
		t.Fatalf("n after setVariable = %q, %v", ev.Result, err)
	}
	frame, err := s.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	scopes, err := s.Scopes(ctx, frame.Id)
	if err != nil || len(scopes) == 0 {
		t.Fatalf("scopes = %+v, %v", scopes, err)
	}
	vars, err := s.Variables(ctx, scopes[0].VariablesReference)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vars {
		names = append(names, v.Name)
	}
	if !strings.Contains(","+strings.Join(names, ",")+",", ",values,") {
		t.Fatalf("locals = %v", names)
	}
	// Step into point_norm, then out.
	if err := s.Step(ctx, "in"); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s); st.Location.Function != "point_norm" {
		t.Fatalf("step in: %+v", st.Location)
	}
	if err := s.Step(ctx, "out"); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s); st.Location.Function != "main" {
		t.Fatalf("step out: %+v", st.Location)
	}
	// The hit-count breakpoint on counter++.
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	if st := waitStop(t, s); st.Location.Line != nativetest.Line(t, nativetest.C, "counter++;") {
		t.Fatalf("hit-count stop = %+v", st.Location)
	}
	pid := debuggeePid(t, s)
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	out := s.Output(0, 1<<20).Data
	if !strings.Contains(out, "hello, lldb dapscope 15.0") {
		t.Fatalf("program output = %q", out)
	}
	logs, _ := s.OutputOf("debugger", 0, 1<<20)
	if !strings.Contains(logs.Data+out, "total is 15") {
		t.Fatalf("logpoint output = %q / %q", logs.Data, out)
	}
	waitGone(t, pid)
}

func TestLLDBFunctionBreakpointAndTerminate(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.C)
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "lldb", Program: bin,
		Breakpoints: []Breakpoint{{File: nativetest.Source(t, nativetest.C), Line: nativetest.Line(t, nativetest.C, "int n = 1000;")}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	// A function breakpoint, as an editor sets it (the session passes DAP through).
	var fb struct {
		Breakpoints []struct{ Verified bool } `json:"breakpoints"`
	}
	if err := s.Request(ctx, "setFunctionBreakpoints", map[string]any{"breakpoints": []map[string]any{{"name": "point_norm"}}}, &fb); err != nil || len(fb.Breakpoints) != 1 || !fb.Breakpoints[0].Verified {
		t.Fatalf("setFunctionBreakpoints = %+v, %v", fb, err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Function != "point_norm" {
		t.Fatalf("stop = %+v", st.Location)
	}
	frames, err := s.StackTrace(ctx, 0, 10)
	if err != nil || len(frames) < 2 || frames[1].Name != "main" {
		t.Fatalf("stack = %+v, %v", frames, err)
	}
	pid := debuggeePid(t, s)
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}

func TestLLDBAttachPid(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.C)
	waiter := exec.Command(bin, "wait")
	if err := waiter.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = waiter.Process.Kill(); _ = waiter.Wait() }()
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	ctx := testCtx(t)
	line := nativetest.Line(t, nativetest.C, "// tick line")
	s, err := m.Attach(ctx, AttachSpec{Adapter: "lldb", Pid: waiter.Process.Pid, Program: bin,
		Breakpoints: []Breakpoint{{File: nativetest.Source(t, nativetest.C), Line: line}}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Function != "tick" || st.Location.Line != line {
		t.Fatalf("stop = %+v", st.Location)
	}
	if got := debuggeePid(t, s); got != waiter.Process.Pid {
		t.Fatalf("attached to %d, want %d", got, waiter.Process.Pid)
	}
	if _, err := m.Attach(ctx, AttachSpec{Adapter: "debugpy", Pid: 1}); err == nil {
		t.Fatal("debugpy accepted a pid")
	}
}

func TestLLDBSignalStops(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.C)
	m := newTestManager(t, ManagerOptions{Workspace: nativetest.Workspace(t)})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Adapter: "lldb", Program: bin, Args: []string{"crash"}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Line != nativetest.Line(t, nativetest.C, "// crash line") {
		t.Fatalf("SIGSEGV stop = %+v", st.Location)
	}
	pid := debuggeePid(t, s)
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	waitGone(t, pid)
}
