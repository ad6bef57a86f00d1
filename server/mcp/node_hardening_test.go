// node_hardening_test.go: Node sessions through MCP on what used to go
// wrong (real node): compiled TypeScript debugged through its source maps
// (the stop, its source lines, the stack and the outcome's traceback name
// the .ts files; code_inspect at the stop reads the .ts), a breakpoint
// whose condition throws (the stop, debug_breakpoints and the outcome say
// why it never stopped), lone UTF-16 surrogates in locals and in an
// error's message (issue #28.1), a program that closes its own inspector
// (lost, never completed: #28.2), Node's internal frames folded, and a
// worker thread (its stop, evaluate and inspect in its frame, its end).

package mcp

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/session"
)

// tscBuild compiles testdata/node/tsproject into its dist-NAME/ (ignored
// by git) with the root's typescript on Node 24; it returns main.js,
// workspace-relative.
func tscBuild(t *testing.T, name string) string {
	t.Helper()
	root := repoRoot(t)
	out := "testdata/node/tsproject/dist-" + name
	cmd := exec.Command(filepath.Join(root, node24Rel(t)), filepath.Join(root, "node_modules/.bin/tsc"),
		"-p", filepath.Join(root, "testdata/node/tsproject"), "--outDir", filepath.Join(root, out))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc: %v\n%s", err, b)
	}
	t.Cleanup(func() { _ = os.RemoveAll(filepath.Join(root, out)) })
	return out + "/main.js"
}

func TestNodeSourceMapsThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 0)
	prog := tscBuild(t, "mcp")
	const shapes, main = "testdata/node/tsproject/src/shapes.ts", "testdata/node/tsproject/src/main.ts"
	area := lineWith(t, shapes, "// @area")
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "args": []string{"fail"},
		"breakpoints": []map[string]any{{"file": shapes, "line": area}}}, &stop)
	if stop.Status != "paused" || stop.Location.File != shapes || stop.Location.Line != area || stop.Location.Function != "area" {
		t.Fatalf("stop = %+v", stop.Location)
	}
	current := ""
	for _, l := range stop.Source {
		if l.Current {
			current = l.Text
		}
	}
	if !strings.Contains(current, "return s.side * s.side; // @area") {
		t.Errorf("the stop's source lines are not the .ts's: %+v", stop.Source)
	}
	var bps BreakpointsResult
	if a.call("debug_breakpoints", nil, &bps); len(bps.Breakpoints) != 1 || !bps.Breakpoints[0].Verified || bps.Breakpoints[0].Line != area ||
		bps.Breakpoints[0].HitCount != 1 || bps.Breakpoints[0].Column == 0 {
		t.Errorf("breakpoints = %+v", bps.Breakpoints)
	}
	var st StackResult
	if a.call("debug_stack", nil, &st); len(st.Frames) < 2 || st.Frames[1].File != main || st.Frames[1].Line != lineWith(t, main, "// @paint") {
		t.Errorf("stack = %+v", st.Frames)
	}
	var code CodeResult
	if a.call("code_inspect", nil, &code); code.Result == nil || !strings.Contains(code.Result.Text(), "area") || !strings.Contains(code.Result.Text(), "shapes.ts") {
		t.Errorf("code_inspect at the stop = %+v", code.Result)
	}
	// → continue ← the uncaught TypeError of fail(), at its .ts line; the
	// outcome's traceback names the .ts lines.
	a.call("debug_continue", nil, &stop)
	throw := lineWith(t, shapes, "// @throw")
	if stop.Reason != "exception" || stop.Location.File != shapes || stop.Location.Line != throw {
		t.Fatalf("exception stop = %+v", stop.Location)
	}
	a.call("debug_continue", nil, &stop)
	o := stop.Outcome
	if o == nil || o.ErrorType != "TypeError" || !strings.Contains(o.Traceback, "shapes.ts:"+itoa(throw)+":") || !strings.Contains(o.Traceback, "main.ts:"+itoa(lineWith(t, main, "// @fail"))+":") {
		t.Fatalf("outcome = %+v", o)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

func TestNodeHonestBreakpointsThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 0)
	const prog = "testdata/node/basic.js"
	sq := lineWith(t, prog, "// @square")
	var stop StopReport
	r := a.call("debug_launch", map[string]any{"program": prog,
		"breakpoints": []map[string]any{{"file": prog, "line": sq, "condition": "bestt.length > 0"}}}, &stop)
	// ← the debugger statement: the condition threw, and the stop says so
	if stop.Status != "paused" || stop.Location.Line != lineWith(t, prog, "// @debugger") || stop.Description != "Paused on debugger statement" {
		t.Fatalf("stop = %+v", stop)
	}
	if len(stop.BreakpointErrors) != 1 || stop.BreakpointErrors[0].Kind != "condition" || stop.BreakpointErrors[0].Error != "ReferenceError: bestt is not defined" ||
		stop.BreakpointErrors[0].File != prog || stop.BreakpointErrors[0].Line != sq {
		t.Fatalf("breakpoint errors at the stop = %+v", stop.BreakpointErrors)
	}
	if !strings.Contains(textOf(r), "its condition threw ReferenceError: bestt is not defined") {
		t.Errorf("stop text = %q", textOf(r))
	}
	var bps BreakpointsResult
	a.call("debug_breakpoints", nil, &bps)
	if b := bps.Breakpoints; len(b) != 1 || !b[0].Verified || b[0].HitCount != 0 || b[0].Error == nil || !strings.Contains(b[0].Message, "bestt is not defined") || b[0].Column == 0 {
		t.Fatalf("breakpoints = %+v", b)
	}
	var out OutputResult
	if a.call("debug_output", map[string]any{"category": "debugger"}, &out); !strings.Contains(out.Data, "breakpoint 1 at basic.js:"+itoa(sq)+": its condition threw") {
		t.Errorf("debugger output = %q", out.Data)
	}
	// Node's internal frames: folded into one entry, or listed on request.
	var st StackResult
	a.call("debug_stack", nil, &st)
	last := st.Frames[len(st.Frames)-1]
	if last.Folded == 0 || !strings.HasPrefix(last.File, "node:internal/") {
		t.Errorf("the stack's end = %+v, want the internal frames folded", last)
	}
	var all StackResult
	a.call("debug_stack", map[string]any{"internal": true}, &all)
	if len(all.Frames) != len(st.Frames)-1+last.Folded || !all.Frames[len(all.Frames)-1].Internal {
		t.Errorf("stack with internal frames = %d frames, folded %d + %d", len(all.Frames), len(st.Frames)-1, last.Folded)
	}
	for _, f := range all.Frames {
		if f.Internal && (!strings.HasPrefix(f.File, "node:") || f.Name == "(anonymous)") {
			t.Errorf("internal frame = %+v", f)
		}
	}
	// → continue ← completed; the outcome says why the breakpoint never hit
	a.call("debug_continue", nil, &stop)
	if stop.Status != session.StatusCompleted || stop.Outcome == nil || stop.Outcome.Reached || len(stop.Outcome.BreakpointErrors) != 1 ||
		!strings.Contains(stop.Hint, "condition threw") {
		t.Fatalf("end = %+v %+v", stop, stop.Outcome)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

func TestNodeHostileValuesThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 0)
	// Lone surrogates: the stop report's locals, evaluate and inspect
	// answer; the uncaught error's message reaches the outcome.
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/node/surrogates.js"}, &stop)
	if stop.Status != "paused" || local(t, stop, "half") != "'\uFFFD'" {
		t.Fatalf("stop = %+v", stop)
	}
	var ev EvaluateResult
	if a.call("debug_evaluate", map[string]any{"expression": "half.length + whole.length"}, &ev); ev.Result != "3" {
		t.Errorf("evaluate = %+v", ev)
	}
	if r := a.call("debug_inspect_variable", map[string]any{"expression": "half"}, nil); !strings.Contains(textOf(r), "**half**") {
		t.Errorf("inspect half = %q", textOf(r))
	}
	a.call("debug_continue", nil, &stop)
	if stop.Reason != "exception" || stop.Outcome == nil || stop.Outcome.ErrorMessage != "bad \uFFFD😀" {
		t.Fatalf("exception = %+v %+v", stop, stop.Outcome)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)

	// A program that closes its own inspector: lost, not completed.
	r := a.call("debug_launch", map[string]any{"program": "testdata/node/closes_inspector.js"}, &stop)
	if stop.Status != session.StatusError || stop.Outcome == nil || stop.Outcome.Ended != session.EndedLost || stop.Outcome.ErrorType != "InspectorLost" ||
		!strings.Contains(stop.Outcome.ErrorMessage, "inspector connection is closed") || stop.Outcome.Signal != 0 {
		t.Fatalf("lost = %+v %+v", stop, stop.Outcome)
	}
	if txt := textOf(r); !strings.Contains(txt, "outcome: lost") || strings.Contains(txt, "completed") {
		t.Errorf("lost text = %q", txt)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

// A worker thread through MCP: the stop names its thread, evaluate and the
// inspector (the JavaScript probe) run in its frame; its end is noted.
func TestNodeWorkerThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 0)
	const prog = "testdata/node/workers.js"
	work, answer := lineWith(t, prog, "// @work"), lineWith(t, prog, "// @answer")
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog,
		"breakpoints": []map[string]any{{"file": prog, "line": work}, {"file": prog, "line": answer}}}, &stop)
	if stop.Status != "paused" || stop.Location.Line != work || stop.Location.ThreadID == 1 || !strings.Contains(stop.Description, "worker") || local(t, stop, "n") != "20" {
		t.Fatalf("stop in the worker = %+v %+v", stop, stop.Location)
	}
	var ev EvaluateResult
	if a.call("debug_evaluate", map[string]any{"expression": "where"}, &ev); ev.Result != "'worker'" {
		t.Errorf("evaluate in the worker = %+v", ev)
	}
	if r := a.call("debug_inspect_variable", map[string]any{"expression": "n"}, nil); !strings.Contains(textOf(r), "**n**") || !strings.Contains(textOf(r), "20") {
		t.Errorf("inspect in the worker = %q", textOf(r))
	}
	a.call("debug_continue", nil, &stop)
	if stop.Status != "paused" || stop.Location.Line != answer || stop.Location.ThreadID != 1 || local(t, stop, "answer") != "41" {
		t.Fatalf("stop in the main thread = %+v %+v", stop, stop.Location)
	}
	a.call("debug_continue", nil, &stop)
	var out OutputResult
	if a.call("debug_output", map[string]any{"category": "debugger"}, &out); stop.Status != session.StatusCompleted || !strings.Contains(out.Data, "(workers.js) (thread 2) ended") {
		t.Fatalf("end = %+v, debugger output %q", stop, out.Data)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
