// workflow_test.go: the full agent workflow against real debugpy, over
// stdio (the dapscope binary as a subprocess) and over streamable HTTP:
// launch with breakpoints, wait, evaluate, watches changing across stops,
// set a variable and see its effect after a step, snapshot + diff, stack,
// scopes, variables, continue to the end, outcome, output paging; and a
// program that raises → outcome with traceback.

package mcp

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const agentPy = "testdata/mcp/agent.py"

func TestStdioWorkflow(t *testing.T) {
	t.Parallel()
	a := stdioAgent(t)
	runWorkflow(t, a)
	runRaises(t, a)
	runProgress(t, a)
}

// runProgress: a wait on a running program times out as running, with
// progress notifications; a pause then stops it.
func runProgress(t *testing.T, a *agent) {
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/sleeper.py", "wait": false}, &stop)
	r, err := a.callCtx(testCtx(t), "debug_wait", map[string]any{"timeout": 1.5}, true)
	if err != nil || r.IsError {
		t.Fatalf("wait: %v %s", err, textOf(r))
	}
	decodeStructured(t, r, &stop)
	if stop.Status != "running" || len(a.progressMessages()) == 0 || !strings.HasPrefix(a.progressMessages()[0], "running for") {
		t.Fatalf("wait = %+v, progress %q", stop, a.progressMessages())
	}
	a.call("debug_pause", nil, &stop)
	if stop.Status != "paused" || stop.Location.File != "testdata/mcp/sleeper.py" {
		t.Fatalf("pause = %+v", stop)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

func TestHTTPWorkflow(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	runWorkflow(t, a)
	runRaises(t, a)
}

func local(t *testing.T, r StopReport, name string) string {
	t.Helper()
	for _, l := range r.Locals {
		if l.Name == name {
			return l.Value
		}
	}
	t.Fatalf("no local %s in %+v", name, r.Locals)
	return ""
}

func runWorkflow(t *testing.T, a *agent) {
	// Every tool is listed with a strict input schema, an output schema and annotations.
	tools, err := a.c.ListTools(testCtx(t), mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]mcpgo.Tool{}
	for _, tl := range tools.Tools {
		names[tl.Name] = tl
		if tl.InputSchema.AdditionalProperties != false {
			t.Errorf("%s: input schema is not strict: %+v", tl.Name, tl.InputSchema.AdditionalProperties)
		}
		if tl.OutputSchema.Type != "object" || tl.Annotations.ReadOnlyHint == nil || tl.Annotations.DestructiveHint == nil || tl.Annotations.IdempotentHint == nil {
			t.Errorf("%s: missing output schema or annotations: %+v %+v", tl.Name, tl.OutputSchema, tl.Annotations)
		}
	}
	for _, want := range []string{"debug_sessions", "debug_launch", "debug_attach", "debug_terminate", "debug_set_breakpoints", "debug_breakpoints",
		"debug_continue", "debug_step", "debug_pause", "debug_wait", "debug_stack", "debug_scopes", "debug_variables", "debug_evaluate",
		"debug_set_variable", "debug_watch", "debug_snapshot", "debug_diff", "debug_output", "debug_outcome"} {
		if _, ok := names[want]; !ok {
			t.Errorf("tool %s is not listed", want)
		}
	}
	if !*names["debug_stack"].Annotations.ReadOnlyHint || *names["debug_terminate"].Annotations.ReadOnlyHint || !*names["debug_terminate"].Annotations.DestructiveHint {
		t.Errorf("annotations: stack %+v terminate %+v", names["debug_stack"].Annotations, names["debug_terminate"].Annotations)
	}

	// Launch with two breakpoints; the launch waits for the first stop.
	var stop StopReport
	a.call("debug_launch", map[string]any{
		"program":     agentPy,
		"breakpoints": []map[string]any{{"file": agentPy, "line": 33}, {"file": agentPy, "line": 35}},
	}, &stop)
	if stop.Status != "paused" || stop.Reason != "breakpoint" || stop.Location.Line != 33 || stop.Location.File != agentPy || stop.Location.Function != "main" {
		t.Fatalf("first stop = %+v", stop)
	}
	sid := stop.SessionID
	cur := false
	for _, l := range stop.Source {
		if l.Current {
			cur = l.Line == 33 && strings.Contains(l.Text, `print("rows", len(df))`)
		}
	}
	if !cur || len(stop.Source) != 7 {
		t.Fatalf("source lines = %+v", stop.Source)
	}
	if local(t, stop, "threshold") != "10" || local(t, stop, "n") != "50" || stop.Breakpoint == nil || stop.Breakpoint.HitCount != 1 {
		t.Fatalf("stop locals/breakpoint = %+v %+v", stop.Locals, stop.Breakpoint)
	}

	// A watch on the null count of b.
	var w WatchResult
	a.call("debug_watch", map[string]any{"action": "add", "expression": "int(df['b'].isna().sum())"}, &w)
	if len(w.Watches) != 1 || w.Watches[0].Value != "10" || w.Watches[0].Changed {
		t.Fatalf("watch add = %+v", w)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "len(df.columns) * 100 + len(df)"}, &ev)
	if ev.Result != "1050" {
		t.Fatalf("evaluate = %+v", ev)
	}
	// The smart inspector on the 10-column DataFrame.
	var ins inspect.Result
	r := a.call("debug_inspect_variable", map[string]any{"expression": "df"}, &ins)
	if ins.DetectedType != "dataframe" || ins.Structure == nil || len(ins.Structure.Shape) != 2 || ins.Structure.Shape[0] != 50 || ins.Structure.Shape[1] != 10 {
		t.Fatalf("inspect df = %+v", ins)
	}
	if len(ins.Structure.Columns) != 10 || ins.Structure.Columns[1].Name != "b" || *ins.Structure.Columns[1].NullCount != 10 {
		t.Fatalf("inspect df columns = %+v", ins.Structure.Columns)
	}
	if !strings.HasPrefix(textOf(r), "**df** — DataFrame 50 rows × 10 columns") || !strings.Contains(textOf(r), "| b | float64 | 10 |") {
		t.Fatalf("inspect text = %q", textOf(r))
	}
	t.Logf("debug_inspect_variable df (10 columns): %d bytes (structured %d, text %d)", responseBytes(t, r), structuredBytes(t, r), len(textOf(r)))
	r = a.call("debug_inspect_variable", map[string]any{"expression": "df['b']", "format": "json"}, &ins)
	var asText inspect.Result
	if err := json.Unmarshal([]byte(textOf(r)), &asText); err != nil || asText.DetectedType != "series" || asText.Summary != ins.Summary {
		t.Fatalf("format json text = %q (%v)", textOf(r), err)
	}
	t.Logf("debug_inspect_variable df['b'] format=json: %d bytes", responseBytes(t, r))
	r = a.call("debug_inspect_variable", map[string]any{"expression": "df", "format": "markdown", "max_preview_rows": "3"}, &ins)
	if md := textOf(r); !strings.HasPrefix(md, "**df** — DataFrame 50 rows × 10 columns") || !strings.Contains(md, "| b | float64 | 10 |") || len(ins.Preview.Head) != 3 {
		t.Fatalf("inspect markdown = %q / %d rows", textOf(r), len(ins.Preview.Head))
	}
	r = a.call("debug_inspect_variable", map[string]any{"expression": "df", "format": "tui", "width": 80}, &ins)
	tui := textOf(r)
	t.Logf("debug_inspect_variable df format=tui: %d bytes (text %d)", responseBytes(t, r), len(tui))
	for _, l := range strings.Split(tui, "\n") {
		if utf8.RuneCountInString(l) > 80 {
			t.Fatalf("tui line wider than 80: %q", l)
		}
	}
	if !strings.Contains(tui, "COLUMNS") || !strings.Contains(tui, "PREVIEW") {
		t.Fatalf("inspect tui = %q", tui)
	}
	a.fail("debug_inspect_variable", map[string]any{"expression": "df", "format": "tui", "width": 10})
	if e := a.fail("debug_inspect_variable", map[string]any{"expression": "dff"}); e.Code != "VARIABLE_NOT_FOUND" || !slices.Contains(e.AvailableVariables, "df") || e.Hint == "" {
		t.Fatalf("inspect dff = %+v", e)
	}
	if e := a.fail("debug_inspect_variable", map[string]any{"expression": "df.head()"}); e.Code != "INVALID_EXPRESSION" || e.Hint == "" {
		t.Fatalf("inspect df.head() = %+v", e)
	}

	var snap1 SnapshotResult
	a.call("debug_snapshot", map[string]any{"label": "before clean", "inspect": []string{"df"}}, &snap1)
	if snap1.Snapshot == nil || snap1.Snapshot.Variables < 4 || snap1.StoredBytes <= 0 || !strings.Contains(snap1.Snapshot.Inspected["df"], "50 rows") {
		t.Fatalf("snapshot = %+v", snap1)
	}

	// Continue to the second breakpoint: the watch changed (nulls filled).
	r = a.call("debug_continue", map[string]any{"session_id": sid}, &stop)
	if stop.Status != "paused" || stop.Location.Line != 35 {
		t.Fatalf("second stop = %+v", stop)
	}
	t.Logf("debug_continue stop response: %d bytes (structured %d, text %d)", responseBytes(t, r), structuredBytes(t, r), len(textOf(r)))
	if len(stop.Watches) != 1 || stop.Watches[0].Value != "0" || !stop.Watches[0].Changed || stop.Watches[0].Previous != "10" {
		t.Fatalf("watch at second stop = %+v", stop.Watches)
	}
	// Set the threshold before it is used, step over, and see the effect.
	var sv SetVariableResult
	a.call("debug_set_variable", map[string]any{"name": "threshold", "value": "40"}, &sv)
	if sv.Previous != "10" || sv.Value != "40" {
		t.Fatalf("set variable = %+v", sv)
	}
	a.call("debug_wait", nil, &stop) // the same stop, with current locals
	if stop.Location.Line != 35 || local(t, stop, "threshold") != "40" {
		t.Fatalf("wait after set variable: line %d, locals %+v", stop.Location.Line, stop.Locals)
	}
	a.call("debug_step", map[string]any{"direction": "over"}, &stop)
	if stop.Location.Line != 36 || local(t, stop, "total") != "9" {
		t.Fatalf("after step: line %d, locals %+v", stop.Location.Line, stop.Locals)
	}
	if len(stop.Watches) != 1 || stop.Watches[0].Changed {
		t.Fatalf("watch after step = %+v", stop.Watches)
	}

	// Diff: since the previous stop, and between a snapshot and now.
	var d DiffResult
	a.call("debug_diff", map[string]any{}, &d)
	if len(d.Added) != 1 || d.Added[0].Name != "total" || d.Added[0].Value != "9" {
		t.Fatalf("diff since last stop = %+v", d)
	}
	a.call("debug_diff", map[string]any{"from": snap1.Snapshot.ID}, &d)
	changed := map[string]VarChange{}
	for _, c := range d.Changed {
		changed[c.Name] = c
	}
	if changed["threshold"].Before != "10" || changed["threshold"].After != "40" || len(d.Added) != 1 {
		t.Fatalf("diff from snapshot = %+v", d)
	}
	facts := map[string]FieldChange{}
	for _, in := range d.Inspections {
		for _, c := range in.Changes {
			facts[c.Field] = c
		}
	}
	if c := facts["columns.b.null_count"]; fmt.Sprint(c.Before) != "10" || fmt.Sprint(c.After) != "0" {
		t.Fatalf("diff of df: %+v", d.Inspections)
	}
	if c := facts["shape"]; fmt.Sprint(c.Before) != "[50 10]" || fmt.Sprint(c.After) != "[50 11]" || facts["columns.k"].After != "added" {
		t.Fatalf("diff of df shape/columns: %+v", d.Inspections)
	}
	if _, ok := facts["statistics.b.mean"]; !ok {
		t.Fatalf("diff of df statistics: %+v", d.Inspections)
	}

	// Stack, scopes, variables.
	var st StackResult
	a.call("debug_stack", map[string]any{"levels": "5"}, &st) // numeric string accepted
	if len(st.Frames) == 0 || st.Frames[0].Name != "main" || st.Frames[0].Line != 36 || !strings.Contains(st.Frames[0].Source, `print("total", total)`) {
		t.Fatalf("stack = %+v", st)
	}
	var sc ScopesResult
	a.call("debug_scopes", map[string]any{"frame_id": st.Frames[0].ID}, &sc)
	if len(sc.Scopes) < 2 || sc.Scopes[0].Count < 5 {
		t.Fatalf("scopes = %+v", sc)
	}
	var vars VariablesResult
	a.call("debug_variables", map[string]any{"names": []string{"threshold", "nope"}}, &vars)
	if len(vars.Variables) != 1 || vars.Variables[0].Value != "40" || len(vars.Missing) != 1 || vars.Missing[0] != "nope" {
		t.Fatalf("variables = %+v", vars)
	}
	// depth 2: the DataFrame reads as its summary and is not expanded into
	// pandas internals (a note says so); its reference still expands on
	// request, max_items bounding it.
	a.call("debug_variables", map[string]any{"names": []string{"df"}, "depth": 2}, &vars)
	if len(vars.Variables) != 1 || !strings.HasPrefix(vars.Variables[0].Value, "DataFrame 50 × 11") || len(vars.Variables[0].Children) != 0 || len(vars.Notes) != 1 {
		t.Fatalf("variables depth 2 = %+v", vars)
	}
	ref := vars.Variables[0].VariablesReference
	vars = VariablesResult{}
	a.call("debug_variables", map[string]any{"variables_reference": ref, "max_items": 3}, &vars)
	if len(vars.Variables) != 3 || vars.Omitted == 0 {
		t.Fatalf("df's children = %+v", vars)
	}
	var bps BreakpointsResult
	a.call("debug_breakpoints", nil, &bps)
	if len(bps.Breakpoints) != 2 || bps.Breakpoints[0].HitCount+bps.Breakpoints[1].HitCount != 2 {
		t.Fatalf("breakpoints = %+v", bps)
	}
	a.call("debug_set_breakpoints", map[string]any{"file": agentPy, "breakpoints": []any{}}, &bps)
	if len(bps.Breakpoints) != 0 {
		t.Fatalf("cleared breakpoints = %+v", bps)
	}

	// To the end.
	a.call("debug_continue", nil, &stop)
	if stop.Status != "completed" || stop.Outcome == nil || stop.Outcome.ExitCode == nil || *stop.Outcome.ExitCode != 0 {
		t.Fatalf("end = %+v", stop)
	}
	var oc OutcomeResult
	a.call("debug_outcome", nil, &oc)
	if oc.Outcome == nil || oc.Outcome.Ended != session.EndedExited || !oc.Outcome.Reached || oc.Outcome.ErrorType != "" {
		t.Fatalf("outcome = %+v", oc)
	}

	// Output, paged 1000 bytes at a time.
	var all strings.Builder
	var off int64
	pages := 0
	for {
		var page OutputResult
		r := a.call("debug_output", map[string]any{"offset": off, "limit": 1000}, &page)
		if len(page.Data) > 1000 || page.Offset != off {
			t.Fatalf("page at %d: %d bytes, offset %d", off, len(page.Data), page.Offset)
		}
		if page.More != (page.Truncated != nil) || (page.More && !strings.Contains(textOf(r), fmt.Sprintf("offset=%d", page.NextOffset))) {
			t.Fatalf("page paging hints: %+v / %q", page.Truncated, textOf(r))
		}
		all.WriteString(page.Data)
		pages++
		off = page.NextOffset
		if !page.More {
			break
		}
	}
	out := all.String()
	if pages < 5 || !strings.Contains(out, "rows 50\n") || !strings.Contains(out, "total 9\n") || !strings.HasSuffix(out, "line 119 "+strings.Repeat(".", 40)+"\n") {
		t.Fatalf("%d pages; output = %q", pages, out)
	}

	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
	if len(ss.Sessions) == 0 || ss.Active != sid {
		t.Fatalf("sessions = %+v", ss)
	}
	var term TerminateResult
	a.call("debug_terminate", map[string]any{"session_id": sid, "remove": true}, &term)
	if term.Status != session.StatusCompleted || !term.Removed {
		t.Fatalf("terminate = %+v", term)
	}
	if e := a.fail("debug_outcome", map[string]any{"session_id": sid}); e.Code != errcode.NotFound || e.Hint == "" {
		t.Fatalf("outcome of a removed session = %+v", e)
	}
}

// runRaises: an uncaught exception stops the program; the outcome has the
// exception and traceback, at the stop and after the end.
func runRaises(t *testing.T, a *agent) {
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/raises.py"}, &stop)
	if stop.Status != "paused" || stop.Reason != "exception" || stop.Location.Function != "parse" || stop.Outcome == nil {
		t.Fatalf("exception stop = %+v", stop)
	}
	if !strings.Contains(stop.Outcome.ErrorType, "ValueError") || !strings.Contains(stop.Outcome.ErrorMessage, "three") {
		t.Fatalf("exception outcome = %+v", stop.Outcome)
	}
	a.call("debug_continue", nil, &stop)
	if stop.Status != session.StatusError && stop.Status != session.StatusCompleted {
		t.Fatalf("after the exception: %+v", stop)
	}
	var oc OutcomeResult
	r := a.call("debug_outcome", nil, &oc)
	o := oc.Outcome
	if o == nil || !strings.Contains(o.ErrorType, "ValueError") || !strings.Contains(o.Traceback, "parse") || !strings.Contains(o.Traceback, "load") {
		t.Fatalf("outcome = %+v", o)
	}
	if !strings.Contains(textOf(r), "ValueError") || !strings.Contains(textOf(r), "Traceback") && !strings.Contains(textOf(r), "line") {
		t.Fatalf("outcome text = %q", textOf(r))
	}
	// The program has ended: frame tools say so.
	if e := a.fail("debug_evaluate", map[string]any{"expression": "1"}); e.Code != errcode.AdapterExited && e.Code != errcode.NotPaused || !strings.Contains(e.Hint, "debug_outcome") {
		t.Fatalf("evaluate after the end = %+v", e)
	}
	var page OutputResult
	a.call("debug_output", nil, &page)
	if !strings.Contains(page.Data, "loading") {
		t.Fatalf("output = %q", page.Data)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

// TestLaunchModule: a module launch (python -m) with args and env, stopping
// on entry.
func TestLaunchModule(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_launch", map[string]any{"module": "testdata.mcp.raises", "args": []string{"x"}, "env": map[string]string{"DAPSCOPE_T": "1"}, "stop_on_entry": true}, &stop)
	if stop.Status != "paused" || stop.Reason != "entry" || stop.Location.File != "testdata/mcp/raises.py" {
		t.Fatalf("module launch = %+v", stop)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "__import__('os').environ['DAPSCOPE_T'] + __import__('sys').argv[-1]"}, &ev)
	if ev.Result != "'1x'" {
		t.Fatalf("env/args in the debuggee = %+v", ev)
	}
	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
	if len(ss.Sessions) != 1 || ss.Sessions[0].Module != "testdata.mcp.raises" {
		t.Fatalf("sessions = %+v", ss)
	}
	a.call("debug_terminate", nil, nil)
}
