// flow_test.go: ES modules, exceptions (caught and uncaught), conditions,
// hit conditions and logpoints, stop on entry, pause, a disconnect that
// ends node, and programs that cannot run.

package node

import (
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestESModules(t *testing.T) {
	c := start(t, Options{})
	prog, lib := program(t, "esm.mjs"), program(t, "lib.mjs")
	// → launch ← initialized → setBreakpoints in both modules: verified
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	for path, marker := range map[string]string{lib: "double", prog: "esm"} {
		if bps := c.SetBreakpoints(path, line(t, path, marker)); !bps[0].Verified || bps[0].Line != line(t, path, marker) {
			t.Fatalf("%s breakpoints = %+v", path, bps)
		}
	}
	c.ConfigurationDone()
	c.OK(launch)
	// ← stopped in lib.mjs's double: Local and Module scopes
	c.Stopped()
	top := c.TopFrame(ThreadID)
	if top.Name != "double" || top.Source.Path != lib {
		t.Fatalf("top = %+v", top)
	}
	var names []string
	for _, s := range c.Scopes(top.Id) {
		names = append(names, s.Name)
	}
	if strings.Join(names, ",") != "Local,Module,Global" {
		t.Errorf("scopes = %v", names)
	}
	if r := c.Evaluate("v", top.Id, "watch"); r.Result != "21" {
		t.Errorf("v = %q", r.Result)
	}
	// → continue ← stopped in esm.mjs with n
	c.Continue(ThreadID)
	c.Stopped()
	if r := c.Evaluate("n", c.TopFrame(ThreadID).Id, "watch"); r.Result != "42" {
		t.Errorf("n = %q", r.Result)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 0 || output(c, "stdout") != "esm 42\n" {
		t.Fatalf("exit %d, stdout %q", code, output(c, "stdout"))
	}
}

func TestExceptions(t *testing.T) {
	c := start(t, Options{Logger: testLogger()})
	prog := program(t, "throws.js")
	throw := line(t, prog, "throw")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	// → setExceptionBreakpoints(all): the caught one stops too
	c.SetExceptionBreakpoints("all")
	c.ConfigurationDone()
	c.OK(launch)
	st := c.Stopped()
	if st.Body.Reason != "exception" || st.Body.Description != "TypeError: too big: 5" || c.TopFrame(ThreadID).Line != throw {
		t.Fatalf("caught: %+v", st.Body)
	}
	// → setExceptionBreakpoints(uncaught): the caught one no more
	c.SetExceptionBreakpoints("uncaught")
	c.Continue(ThreadID)
	st = c.Stopped()
	if st.Body.Reason != "exception" || st.Body.Description != "TypeError: too big: 7" || !strings.Contains(st.Body.Text, "at risky") {
		t.Fatalf("uncaught: %+v", st.Body)
	}
	// → exceptionInfo ← the class, message, stack; unhandled
	info := daptest.Call[*godap.ExceptionInfoResponse](c, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: ThreadID}).Body
	if info.ExceptionId != "TypeError" || info.Description != "too big: 7" || info.BreakMode != "unhandled" || !strings.Contains(info.Details.StackTrace, "throws.js:4") {
		t.Errorf("exceptionInfo = %+v %+v", info, info.Details)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 1 {
		t.Fatalf("exit code %d, want 1", code)
	}
	if out := output(c, "stdout"); out != "caught too big: 5\n" {
		t.Errorf("stdout = %q", out)
	}
	if errOut := output(c, "stderr"); !strings.Contains(errOut, "TypeError: too big: 7") {
		t.Errorf("stderr = %q", errOut)
	}
}

func TestConditionsHitCountsLogpoints(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "basic.js")
	sq, loop := line(t, prog, "square"), line(t, prog, "loop")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	// square runs with x = 0, 1, 2, 3: x >= 1 holds from the second call,
	// and the second time it holds x is 2. The loop logs each i.
	c.SetBreakpointsArgs(godap.SetBreakpointsArguments{Source: godap.Source{Path: prog}, Breakpoints: []godap.SourceBreakpoint{
		{Line: sq, Condition: "x >= 1", HitCondition: "2"},
		{Line: loop, LogMessage: "loop {i} of `{rows.length * 2}` {{a: i}.a}"},
	}})
	// A hit condition that is not one is reported, not set.
	bad := c.SetBreakpointsArgs(godap.SetBreakpointsArguments{Source: godap.Source{Path: program(t, "lib.mjs")},
		Breakpoints: []godap.SourceBreakpoint{{Line: 3, HitCondition: "often"}}})
	if bad[0].Verified || !strings.Contains(bad[0].Message, "hit condition") {
		t.Errorf("bad hit condition = %+v", bad[0])
	}
	c.ConfigurationDone()
	c.OK(launch)
	c.Stopped()
	if r := c.Evaluate("x", c.TopFrame(ThreadID).Id, "watch"); r.Result != "2" {
		t.Fatalf("stopped with x = %s, want 2", r.Result)
	}
	c.Continue(ThreadID)
	c.Stopped() // the debugger statement: square's breakpoint hit only once
	if got := c.TopFrame(ThreadID).Line; got != line(t, prog, "debugger") {
		t.Fatalf("second stop at line %d", got)
	}
	c.Continue(ThreadID)
	waitEnd(t, c)
	want := "start 2\nloop 0 of `4` 0\nloop 1 of `4` 1\nloop 2 of `4` 2\nloop 3 of `4` 3\ndone\n"
	if out := output(c, "stdout"); out != want {
		t.Errorf("stdout = %q\nwant %q", out, want)
	}
}

func TestStopOnEntryPauseAndDisconnect(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "spin.js")
	cfg := launchConfig(prog)
	cfg["stopOnEntry"] = true
	launch := c.StartLaunch(cfg)
	c.Event("initialized")
	pid := daptest.ExpectEvent[*godap.ProcessEvent](c).Body.SystemProcessId
	c.ConfigurationDone()
	c.OK(launch)
	// ← stopped (entry) on the first line
	if st := c.Stopped(); st.Body.Reason != "entry" || c.TopFrame(ThreadID).Line != 2 {
		t.Fatalf("entry: %+v", st.Body)
	}
	c.Continue(ThreadID)
	c.Event("continued")
	// → evaluate while running: the global scope answers
	// (globalThis.: the first statement may not have run yet)
	for i := 0; c.Evaluate("globalThis.ticks > 3", 0, "repl").Result != "true"; i++ {
		if i == 2000 {
			t.Fatal("the program does not tick")
		}
		time.Sleep(5 * time.Millisecond)
	}
	// → pause ← stopped (pause)
	daptest.Call[*godap.PauseResponse](c, "pause", godap.PauseArguments{ThreadId: ThreadID})
	if st := c.Stopped(); st.Body.Reason != "pause" {
		t.Fatalf("pause: %+v", st.Body)
	}
	if frames := c.StackTrace(ThreadID, 0); len(frames) == 0 {
		t.Fatal("paused without frames")
	}
	// → disconnect: node is killed, exited and terminated come first
	c.Disconnect(true)
	if code := waitEnd(t, c); code != platform.KilledExitCode {
		t.Errorf("exit code %d, want %d (killed)", code, platform.KilledExitCode)
	}
	if _, ok := platform.ProcessStart(pid); ok {
		t.Errorf("node %d still runs after disconnect", pid)
	}
}

func TestProgramsThatCannotRun(t *testing.T) {
	c := start(t, Options{})
	// A missing program: the launch fails and says so.
	m := c.Response(c.StartLaunch(launchConfig(program(t, "missing.js"))))
	if m.Success() || !strings.Contains(string(m.Raw), "missing.js is not a file") {
		t.Fatalf("missing program: %s", m.Raw)
	}
	// A syntax error: the launch completes, node's error is the output,
	// the exit code 1. The program is over before the client configures
	// it: the exception filters an editor sends then are still accepted.
	prog := program(t, "syntax_error.js")
	launch := c.StartLaunch(launchConfig(prog))
	initialized(t, c, launch)
	c.SetBreakpoints(prog, 2)
	c.SetExceptionBreakpoints("uncaught")
	c.ConfigurationDone()
	c.OK(launch)
	if code := waitEnd(t, c); code != 1 {
		t.Fatalf("exit code %d", code)
	}
	if errOut := output(c, "stderr"); !strings.Contains(errOut, "SyntaxError: Unexpected token ';'") || !strings.Contains(errOut, "syntax_error.js:2") {
		t.Errorf("stderr = %q", errOut)
	}
}
