// honest_test.go: breakpoints that say what happened to them (real node):
// a condition, hit condition or log message that throws is reported (a
// notice naming the breakpoint, the breakpoint's message, a
// BreakpointErrorEvent) once, and the breakpoint does not stop; a
// verified breakpoint has its line and column; a stop requested by pause
// is not called a debugger statement; Node's internal frames are named
// and deemphasized.

package node

import (
	"slices"
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestBreakpointConditionsThatThrow(t *testing.T) {
	c := start(t, Options{Logger: testLogger()})
	prog := program(t, "basic.js")
	sq, loop, dbg := line(t, prog, "square"), line(t, prog, "loop"), line(t, prog, "debugger")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	// square runs 4 times: its condition misspells a name; the loop's log
	// message reads a name that does not exist; the debugger statement's
	// line has a plain breakpoint.
	bps := c.SetBreakpointsArgs(godap.SetBreakpointsArguments{Source: godap.Source{Path: prog}, Breakpoints: []godap.SourceBreakpoint{
		{Line: sq, Condition: "bestt.length > 0"},
		{Line: loop, LogMessage: "i is {i} of {nosuch}"},
		{Line: dbg},
	}})
	for i, want := range []int{sq, loop, dbg} {
		if !bps[i].Verified || bps[i].Line != want || bps[i].Column == 0 {
			t.Fatalf("breakpoint %d = %+v, want verified at line %d with a column", i, bps[i], want)
		}
	}
	if bps[2].Column != 3 { // "  debugger;"
		t.Errorf("debugger statement's breakpoint at column %d, want 3", bps[2].Column)
	}
	c.ConfigurationDone()
	c.OK(launch)
	// ← the first stop is the debugger statement's: square's condition
	// threw four times (reported once) and never stopped.
	st := c.Stopped()
	if top := c.TopFrame(ThreadID); top.Line != dbg {
		t.Fatalf("stopped at line %d (%+v), want %d", top.Line, st.Body, dbg)
	}
	var errs []BreakpointError
	for _, m := range c.Transcript() {
		if m.IsEvent(BreakpointErrorEvent) {
			var b BreakpointError
			if err := m.Unmarshal(&b); err != nil {
				t.Fatal(err)
			}
			errs = append(errs, b)
		}
	}
	slices.SortFunc(errs, func(a, b BreakpointError) int { return a.ID - b.ID })
	if len(errs) != 2 || errs[0].ID != bps[0].Id || errs[0].Kind != "condition" || errs[0].Error != "ReferenceError: bestt is not defined" ||
		errs[0].Line != sq || errs[0].Path != prog || errs[1].ID != bps[1].Id || errs[1].Kind != "log message" || !strings.Contains(errs[1].Error, "nosuch is not defined") {
		t.Fatalf("breakpoint errors = %+v", errs)
	}
	notes := output(c, "important")
	if strings.Count(notes, "dapscope: breakpoint ") != 2 || !strings.Contains(notes, "breakpoint 1 at basic.js:"+itoa(sq)+": its condition threw ReferenceError: bestt is not defined; it counts as false") {
		t.Errorf("notices = %q", notes)
	}
	changed := c.Expect("the condition's breakpoint changed", func(m daptest.Msg) bool {
		ev, ok := m.Decoded.(*godap.BreakpointEvent)
		return ok && ev.Body.Breakpoint.Id == bps[0].Id && strings.Contains(ev.Body.Breakpoint.Message, "bestt is not defined")
	})
	if ev := changed.Decoded.(*godap.BreakpointEvent); !ev.Body.Breakpoint.Verified {
		t.Errorf("the breakpoint became unverified: %+v", ev.Body.Breakpoint)
	}
	if out := output(c, "stdout"); strings.Contains(out, "i is") {
		t.Errorf("a log message that threw printed something: %q", out)
	}
	if st.Body.Description != "Paused on debugger statement" && st.Body.Reason != "breakpoint" {
		t.Errorf("stop = %+v", st.Body)
	}
	// Node's internal frames: named, with their node: source, deemphasized.
	frames := c.StackTrace(ThreadID, 0)
	internal := 0
	for _, f := range frames {
		if f.Source == nil || f.Source.Path != "" {
			continue
		}
		internal++
		if !strings.HasPrefix(f.Source.Name, "node:") || f.PresentationHint != "subtle" || f.Name == "" || f.Name == "(anonymous)" {
			t.Errorf("internal frame = %+v %+v", f, f.Source)
		}
	}
	if internal == 0 {
		t.Errorf("no internal frame below main: %+v", frames)
	}
	c.Continue(ThreadID)
	if code := waitEnd(t, c); code != 3 {
		t.Fatalf("exit code %d", code)
	}
}

// A pause the client asked for is not a debugger statement.
func TestPauseIsNotADebuggerStatement(t *testing.T) {
	c := start(t, Options{})
	launch := c.StartLaunch(launchConfig(program(t, "spin.js")))
	c.Event("initialized")
	c.ConfigurationDone()
	c.OK(launch)
	for i := 0; c.Evaluate("globalThis.ticks > 3", 0, "repl").Result != "true"; i++ {
		if i == 2000 {
			t.Fatal("the program does not tick")
		}
	}
	daptest.Call[*godap.PauseResponse](c, "pause", godap.PauseArguments{ThreadId: ThreadID})
	if st := c.Stopped(); st.Body.Reason != "pause" || strings.Contains(st.Body.Description, "debugger statement") {
		t.Fatalf("pause = %+v", st.Body)
	}
	c.Disconnect(true)
	waitEnd(t, c)
}
