// evaluate_test.go: evaluate in a frame and globally, a thrown exception
// as an error, a hover that would have side effects refused, a runaway
// expression terminated by the timeout with the session still usable.

package node

import (
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"
)

func TestEvaluate(t *testing.T) {
	c := start(t, Options{EvalTimeout: 500 * time.Millisecond})
	prog := program(t, "basic.js")
	// → launch … ← stopped at @loop (the first iteration)
	_, frame := c.LaunchToFrame(launchConfig(prog), prog, line(t, prog, "loop"))
	// → evaluate in the frame
	if r := c.Evaluate("rows[1].name + '!'", frame.Id, "watch"); r.Result != "'b!'" || r.Type != "string" {
		t.Errorf("rows[1].name = %+v", r)
	}
	if r := c.Evaluate("rows", frame.Id, "watch"); r.IndexedVariables != 2 || r.VariablesReference == 0 {
		t.Errorf("rows = %+v", r)
	} else if el := c.Variables(r.VariablesReference); len(el) < 2 || el[0].EvaluateName != "rows[0]" {
		t.Errorf("rows elements = %+v", el)
	}
	// → evaluate without a frame: the global scope
	if r := c.Evaluate("typeof process.version", 0, "repl"); r.Result != "'string'" {
		t.Errorf("global evaluate = %+v", r)
	}
	// A thrown exception is an error response naming it.
	fail := func(expr, context, want string) {
		t.Helper()
		m := c.Response(c.Send("evaluate", godap.EvaluateArguments{Expression: expr, FrameId: frame.Id, Context: context}))
		if m.Success() || !strings.Contains(string(m.Raw), want) {
			t.Errorf("evaluate %q (%s) = %s, want an error with %q", expr, context, m.Raw, want)
		}
	}
	fail("nope.x", "watch", "ReferenceError: nope is not defined")
	// A hover must not change the program: refused, and total unchanged.
	fail("total = 99", "hover", "side effects")
	if r := c.Evaluate("total", frame.Id, "hover"); r.Result != "0" {
		t.Errorf("total after a refused hover = %q", r.Result)
	}
	// A runaway loop is terminated by the timeout; the session goes on.
	fail("while (true) {}", "repl", "timed out")
	if r := c.Evaluate("total + 1", frame.Id, "repl"); r.Result != "1" {
		t.Errorf("after the timeout: %+v", r)
	}
	// A watch may assign: the program sees it.
	c.Evaluate("total = 100", frame.Id, "repl")
	c.SetBreakpoints(prog)
	c.Continue(ThreadID)
	c.Stopped() // the debugger statement
	if r := c.Evaluate("total", c.TopFrame(ThreadID).Id, "watch"); r.Result != "114" {
		t.Errorf("total at the end = %q, want 114 (100 + 0 + 1 + 4 + 9)", r.Result)
	}
	c.Disconnect(true)
}
