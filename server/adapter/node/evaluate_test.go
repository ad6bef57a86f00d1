// evaluate_test.go: evaluate in a frame and globally, a thrown exception
// as an error, a hover that would have side effects refused, a runaway
// expression terminated by the timeout with the session still usable;
// setVariable in a scope and on objects, setExpression.

package node

import (
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestEvaluateAndSetVariable(t *testing.T) {
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
	// → evaluate for the clipboard: a string comes back raw and whole
	if r := c.Evaluate("'it\\'s ' + 'x'.repeat(3000)", frame.Id, "clipboard"); r.Result != "it's "+strings.Repeat("x", 3000) {
		t.Errorf("clipboard string = %.40q… (%d bytes), want it raw and untruncated", r.Result, len(r.Result))
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
	// → setVariable(Local, total, 100): the program sees it
	scopes := c.Scopes(frame.Id)
	set := daptest.Call[*godap.SetVariableResponse](c, "setVariable", godap.SetVariableArguments{
		VariablesReference: scopes[1].VariablesReference, Name: "total", Value: "50 * 2"}).Body
	if set.Value != "100" || set.Type != "number" {
		t.Errorf("setVariable total = %+v", set)
	}
	// → setVariable on an object's property, an array's element
	rows := c.Evaluate("rows", frame.Id, "watch")
	row0 := c.Variables(rows.VariablesReference)[0]
	daptest.Call[*godap.SetVariableResponse](c, "setVariable", godap.SetVariableArguments{
		VariablesReference: row0.VariablesReference, Name: "name", Value: "'z' + total"})
	daptest.Call[*godap.SetVariableResponse](c, "setVariable", godap.SetVariableArguments{
		VariablesReference: rows.VariablesReference, Name: "1", Value: "null"})
	if r := c.Evaluate("JSON.stringify(rows)", frame.Id, "watch"); r.Result != `'[{"id":1,"name":"z100"},null]'` {
		t.Errorf("rows after setVariable = %s", r.Result)
	}
	// → setExpression(pt.x, 7 * 2)
	expr := daptest.Call[*godap.SetExpressionResponse](c, "setExpression", godap.SetExpressionArguments{
		Expression: "pt.x", Value: "7 * 2", FrameId: frame.Id}).Body
	if expr.Value != "14" || c.Evaluate("pt.x", frame.Id, "watch").Result != "14" {
		t.Errorf("setExpression = %+v", expr)
	}
	c.SetBreakpoints(prog)
	c.Continue(ThreadID)
	c.Stopped() // the debugger statement
	if r := c.Evaluate("total", c.TopFrame(ThreadID).Id, "watch"); r.Result != "114" {
		t.Errorf("total at the end = %q, want 114 (100 + 0 + 1 + 4 + 9)", r.Result)
	}
	c.Disconnect(true)
}
