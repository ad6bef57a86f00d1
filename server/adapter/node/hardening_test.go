// hardening_test.go: the inspector's hostile values and a connection that
// ends (real node): a lone UTF-16 surrogate in a local and in an uncaught
// error's message (issue #28.1: it used to hang the session), a local
// string larger than an inspector message may be (#28.2: read cut, never
// whole; an evaluation of it fails alone), a program that closes its own
// inspector (reported lost, never completed), and a launch whose node
// exits before it answers.

package node

import (
	"context"
	"fmt"
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestLoneSurrogates(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "surrogates.js")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	c.SetExceptionBreakpoints("uncaught")
	c.ConfigurationDone()
	c.OK(launch)
	c.Stopped()
	top := c.TopFrame(ThreadID)
	if top.Line != line(t, prog, "stop") {
		t.Fatalf("top = %+v", top)
	}
	// → variables, evaluate: answered; the lone half reads as U+FFFD
	locals := varsByName(c.Variables(c.Scopes(top.Id)[0].VariablesReference))
	if locals["half"].Value != "'\uFFFD'" || locals["whole"].Value != "'😀'" {
		t.Errorf("locals = %+v", locals)
	}
	if r := c.Evaluate("half.length + whole.length", top.Id, "watch"); r.Result != "3" {
		t.Errorf("lengths = %q", r.Result)
	}
	if r := c.Evaluate("half", top.Id, "clipboard"); r.Result != "\uFFFD" {
		t.Errorf("half = %q", r.Result)
	}
	// → continue ← the uncaught error, its message with the half
	c.Continue(ThreadID)
	st := c.Stopped()
	if st.Body.Reason != "exception" || st.Body.Description != "Error: bad \uFFFD😀" {
		t.Fatalf("exception = %+v", st.Body)
	}
	info := daptest.Call[*godap.ExceptionInfoResponse](c, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: ThreadID}).Body
	if info.Description != "bad \uFFFD😀" {
		t.Errorf("exceptionInfo = %+v", info)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 1 {
		t.Fatalf("exit code %d", code)
	}
}

func TestStringTooLargeToRead(t *testing.T) {
	c, srv := startServer(t, Options{})
	prog := program(t, "big_string.js")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	c.ConfigurationDone()
	c.OK(launch)
	c.Stopped()
	cdp, err := srv.inspector()
	if err != nil {
		t.Fatal(err)
	}
	top := c.TopFrame(ThreadID)
	before := cdp.read.Load()
	// → scopes, variables: the 40 MB string is read cut, V8 never sends it
	scopes := c.Scopes(top.Id)
	locals := varsByName(c.Variables(scopes[0].VariablesReference))
	if read := cdp.read.Load() - before; read > 256<<10 {
		t.Errorf("scopes and variables read %d bytes from the inspector (the string whole)", read)
	}
	if v := locals["big"].Value; !strings.HasPrefix(v, "'xxxx") || !strings.HasSuffix(v, "…'") || locals["small"].Value != "'ok'" {
		t.Errorf("locals = big %.40q…, small %q", v, locals["small"].Value)
	}
	// → evaluate it whole: a clear error, the session goes on
	m := c.Response(c.Send("evaluate", godap.EvaluateArguments{Expression: "big", FrameId: top.Id, Context: "repl"}))
	if m.Success() || !strings.Contains(m.Env.Message, "too large") {
		t.Errorf("evaluate big = %s", m)
	}
	if r := c.Evaluate("big.length", top.Id, "watch"); r.Result != fmt.Sprint(40<<20) {
		t.Errorf("big.length = %q", r.Result)
	}
	// → hover: read again, cut inside V8
	if r := c.Evaluate("big", top.Id, "hover"); !strings.HasPrefix(r.Result, "'xxxx") {
		t.Errorf("hover big = %.40q", r.Result)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 0 || output(c, "stdout") != fmt.Sprintf("length %d\n", 40<<20+2) {
		t.Fatalf("exit %d, stdout %q", code, output(c, "stdout"))
	}
}

// A program that closes its own inspector: the session hears that the
// connection was lost, and why; node is ended.
func TestInspectorLost(t *testing.T) {
	c := start(t, Options{})
	launch := c.StartLaunch(launchConfig(program(t, "closes_inspector.js")))
	c.Event("initialized")
	c.ConfigurationDone()
	c.OK(launch)
	m := c.Event(InspectorLostEvent)
	var lost InspectorLost
	if err := m.Unmarshal(&lost); err != nil || !lost.Killed || !strings.Contains(lost.Reason, "inspector connection is closed") {
		t.Fatalf("lost = %+v, %v", lost, err)
	}
	if code := waitEnd(t, c); code != platform.KilledExitCode {
		t.Errorf("exit code %d, want %d (ended by the adapter)", code, platform.KilledExitCode)
	}
}

// A node that exits before it answers runIfWaitingForDebugger (a syntax
// error, under load) is not a failed launch: its end tells the story.
func TestStartErrWaitsForTheProgram(t *testing.T) {
	s := New(nopRW{}, Options{})
	done := make(chan struct{})
	close(done)
	s.proc = &process{done: done}
	err := fmt.Errorf("Runtime.runIfWaitingForDebugger: %w", ErrClosed)
	if got := s.startErr(context.Background(), err); got != nil {
		t.Errorf("startErr after node exited = %v", got)
	}
	other := fmt.Errorf("Runtime.enable: %w", &CDPError{Message: "nope"})
	if got := s.startErr(context.Background(), other); got != other {
		t.Errorf("startErr of another error = %v", got)
	}
}
