// launch_test.go: a CommonJS program under the Node adapter — launch,
// breakpoints verified on their actual lines, the stop, stack, scopes,
// variables, stepping, output by category, and the exit code.

package node

import (
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestLaunchStopStepAndExit(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "basic.js")
	loop, sq, call := line(t, prog, "loop"), line(t, prog, "square"), line(t, prog, "call")
	// → launch (answered after configurationDone) ← initialized
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	pid := daptest.ExpectEvent[*godap.ProcessEvent](c).Body.SystemProcessId
	if pid <= 0 {
		t.Fatalf("process event without a pid")
	}
	// → setBreakpoints(@loop, @square) ← both verified on their lines
	bps := c.SetBreakpoints(prog, loop, sq)
	if len(bps) != 2 || !bps[0].Verified || bps[0].Line != loop || !bps[1].Verified || bps[1].Line != sq {
		t.Fatalf("breakpoints = %+v", bps)
	}
	// → configurationDone ← response, ← launch response, ← stopped (breakpoint) at @loop
	c.ConfigurationDone()
	c.OK(launch)
	st := c.Stopped()
	if st.Body.Reason != "breakpoint" || st.Body.ThreadId != ThreadID || len(st.Body.HitBreakpointIds) != 1 || st.Body.HitBreakpointIds[0] != bps[0].Id {
		t.Fatalf("stopped = %+v", st.Body)
	}
	if th := c.Threads(); len(th) != 1 || th[0].Id != ThreadID {
		t.Fatalf("threads = %+v", th)
	}
	// → stackTrace ← main at @loop, then the module's top level at @call
	frames := c.StackTrace(ThreadID, 0)
	if len(frames) < 2 || frames[0].Name != "main" || frames[0].Line != loop || frames[0].Source == nil || frames[0].Source.Path != prog {
		t.Fatalf("frames = %+v", frames)
	}
	if frames[1].Line != call || frames[1].Source.Path != prog {
		t.Fatalf("caller frame = %+v", frames[1])
	}
	// → stackTrace(startFrame 1, levels 1) ← one frame, the total counted
	page := daptest.Call[*godap.StackTraceResponse](c, "stackTrace", godap.StackTraceArguments{ThreadId: ThreadID, StartFrame: 1, Levels: 1}).Body
	if len(page.StackFrames) != 1 || page.StackFrames[0].Line != call || page.TotalFrames != len(frames) {
		t.Fatalf("stack page = %+v", page)
	}
	// → scopes ← Block (i), Local (counted), …, Global (expensive)
	scopes := c.Scopes(frames[0].Id)
	names := make([]string, len(scopes))
	for i, s := range scopes {
		names[i] = s.Name
	}
	if len(scopes) < 3 || scopes[0].Name != "Block" || scopes[1].Name != "Local" || scopes[len(scopes)-1].Name != "Global" {
		t.Fatalf("scopes = %v", names)
	}
	local, global := scopes[1], scopes[len(scopes)-1]
	if local.Expensive || local.PresentationHint != "locals" || local.NamedVariables < 9 || !global.Expensive {
		t.Fatalf("local %+v, global %+v", local, global)
	}
	if v := varsByName(c.Variables(scopes[0].VariablesReference)); v["i"].Value != "0" {
		t.Fatalf("block scope = %+v", v)
	}
	// → variables(Local) ← the values, typed, as JavaScript shows them
	vars := c.Variables(local.VariablesReference)
	if len(vars) != local.NamedVariables {
		t.Errorf("local scope counted %d, listed %d", local.NamedVariables, len(vars))
	}
	v := varsByName(vars)
	for name, want := range map[string]string{
		"greeting": "'héllo 🌍'", "big": "12345678901234567890n", "nothing": "null", "total": "0",
		"rows": "(2) [{…}, {…}]", "pt": "Point {x: 3, y: 4}", "tags": "Set(3) {'x', 'y', 'z'}",
		"byName": "Map(2) {'one' => 1, 'two' => {n: 2}}",
	} {
		if v[name].Value != want {
			t.Errorf("%s = %q, want %q", name, v[name].Value, want)
		}
	}
	if v["pt"].Type != "Point" || v["big"].Type != "bigint" || v["greeting"].Type != "string" {
		t.Errorf("types: pt %q big %q greeting %q", v["pt"].Type, v["big"].Type, v["greeting"].Type)
	}
	if v["this"].Name != "" {
		t.Errorf("strict-mode main has no this, got %+v", v["this"])
	}
	checkArrays(t, c, v)
	checkObjects(t, c, v)

	// → continue ← stopped (breakpoint) in square
	c.Continue(ThreadID)
	st = c.Stopped()
	top := c.TopFrame(ThreadID)
	if st.Body.Reason != "breakpoint" || top.Name != "square" || top.Line != sq {
		t.Fatalf("stopped %+v at %+v", st.Body, top)
	}
	// → next ← stopped (step) on the next line of square
	c.Next(ThreadID)
	if st = c.Stopped(); st.Body.Reason != "step" || c.TopFrame(ThreadID).Line != sq+1 {
		t.Fatalf("after next: %+v at %+v", st.Body, c.TopFrame(ThreadID))
	}
	// → stepOut ← stopped (step) back in main
	daptest.Call[*godap.StepOutResponse](c, "stepOut", godap.StepOutArguments{ThreadId: ThreadID})
	if st = c.Stopped(); st.Body.Reason != "step" || c.TopFrame(ThreadID).Name != "main" {
		t.Fatalf("after stepOut: %+v at %+v", st.Body, c.TopFrame(ThreadID))
	}
	// → stepIn (twice: the rest of the loop line, then into square)
	for c.TopFrame(ThreadID).Name != "square" {
		daptest.Call[*godap.StepInResponse](c, "stepIn", godap.StepInArguments{ThreadId: ThreadID})
		c.Stopped()
	}
	// A stale frame is refused once the program ran.
	if m := c.Response(c.Send("scopes", godap.ScopesArguments{FrameId: frames[0].Id})); m.Success() {
		t.Fatalf("scopes of a frame from an earlier stop succeeded: %s", m.Raw)
	}
	// → setBreakpoints(none) → continue ← stopped at the debugger statement
	c.SetBreakpoints(prog)
	c.Continue(ThreadID)
	st = c.Stopped()
	if st.Body.Reason != "pause" || c.TopFrame(ThreadID).Line != line(t, prog, "debugger") {
		t.Fatalf("debugger statement: %+v at %+v", st.Body, c.TopFrame(ThreadID))
	}
	// → continue ← output, exited (3), terminated
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 3 {
		t.Fatalf("exit code %d, want 3", code)
	}
	if out := output(c, "stdout"); out != "start 2\ndone\n" {
		t.Errorf("stdout = %q", out)
	}
	if errOut := output(c, "stderr"); errOut != "total on stderr 14\n" {
		t.Errorf("stderr = %q", errOut)
	}
	// → disconnect ← response
	c.Disconnect(true)
	if u := c.Unanswered(); len(u) != 0 {
		t.Errorf("unanswered: %v", u)
	}
	if f := c.Foreign(); len(f) != 0 {
		t.Errorf("foreign: %v", f)
	}
}

// checkArrays pages an array by index and lists its named properties.
func checkArrays(t *testing.T, c *daptest.Client, v map[string]godap.Variable) {
	t.Helper()
	many := v["many"]
	if many.IndexedVariables != 2500 || many.Value != "(2500) [0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, …]" {
		t.Errorf("many = %+v", many)
	}
	// → variables(many, indexed, start 2000, count 3)
	el := daptest.Call[*godap.VariablesResponse](c, "variables", godap.VariablesArguments{
		VariablesReference: many.VariablesReference, Filter: "indexed", Start: 2000, Count: 3}).Body.Variables
	if len(el) != 3 || el[0].Name != "2000" || el[0].Value != "4000" || el[2].Name != "2002" || el[2].Value != "4004" || el[1].EvaluateName != "many[2001]" {
		t.Errorf("many[2000:2003] = %+v", el)
	}
	// → variables(many, named) ← length and the prototype, no elements
	named := varsByName(daptest.Call[*godap.VariablesResponse](c, "variables", godap.VariablesArguments{
		VariablesReference: many.VariablesReference, Filter: "named"}).Body.Variables)
	if named["length"].Value != "2500" || named["0"].Name != "" {
		t.Errorf("many, named = %+v", named)
	}
	// The elements of rows are objects with their own references.
	rows := c.Variables(v["rows"].VariablesReference)
	if len(rows) < 2 || rows[1].Value != "{id: 2, name: 'b'}" || rows[1].VariablesReference == 0 {
		t.Fatalf("rows = %+v", rows)
	}
	if r := varsByName(c.Variables(rows[1].VariablesReference)); r["name"].Value != "'b'" || r["name"].EvaluateName != "rows[1].name" {
		t.Errorf("rows[1] = %+v", r)
	}
}

// checkObjects expands a Map's entries and a class instance; a getter is
// listed, not run.
func checkObjects(t *testing.T, c *daptest.Client, v map[string]godap.Variable) {
	t.Helper()
	m := varsByName(c.Variables(v["byName"].VariablesReference))
	entries := m["[[Entries]]"]
	if entries.IndexedVariables != 2 || entries.VariablesReference == 0 {
		t.Fatalf("Map internals = %+v", m)
	}
	ev := c.Variables(entries.VariablesReference)
	if len(ev) < 2 || ev[0].Value != `{"one" => 1}` {
		t.Errorf("Map entries = %+v", ev)
	}
	pt := varsByName(c.Variables(v["pt"].VariablesReference))
	if pt["x"].Value != "3" || pt["y"].Value != "4" || pt["[[Prototype]]"].VariablesReference == 0 {
		t.Fatalf("pt = %+v", pt)
	}
	proto := varsByName(c.Variables(pt["[[Prototype]]"].VariablesReference))
	if proto["norm"].Value != "(getter)" || !strings.HasPrefix(proto["constructor"].Value, "class Point") {
		t.Errorf("Point.prototype = %+v", proto)
	}
}
