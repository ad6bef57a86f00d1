// attach_test.go: attaching to a node started by someone else with
// --inspect (the inspector found through /json/list), breakpoints and a
// logpoint whose console output comes through the inspector with its
// source location, a disconnect that leaves the program running, and a
// program that ends by itself.

package node

import (
	"bufio"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// startInspected starts node --inspect=127.0.0.1:0 program and returns the
// inspector's port; node is killed when the test ends.
func startInspected(t *testing.T, prog string) (*exec.Cmd, int) {
	t.Helper()
	cmd := exec.Command("node", "--inspect=127.0.0.1:0", prog)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	tree, err := platform.StartTree(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tree.Kill(); _ = cmd.Wait(); tree.Close() })
	sc := bufio.NewScanner(stderr)
	re := regexp.MustCompile(`ws://127\.0\.0\.1:(\d+)/`)
	for sc.Scan() {
		if m := re.FindStringSubmatch(sc.Text()); m != nil {
			go func() {
				for sc.Scan() { // keep draining node's stderr
				}
			}()
			port, _ := strconv.Atoi(m[1])
			return cmd, port
		}
	}
	t.Fatal("node did not announce its inspector")
	return nil, 0
}

func TestAttach(t *testing.T) {
	prog := program(t, "spin.js")
	cmd, port := startInspected(t, prog)
	c := start(t, Options{})
	tick := line(t, prog, "tick")
	// → attach(address, port) ← initialized
	attach := c.Send("attach", map[string]any{"request": "attach", "address": "127.0.0.1", "port": port})
	c.Event("initialized")
	// → setBreakpoints(@tick: a logpoint, then a breakpoint on its third hit)
	bps := c.SetBreakpointsArgs(godap.SetBreakpointsArguments{Source: godap.Source{Path: prog}, Breakpoints: []godap.SourceBreakpoint{
		{Line: tick, LogMessage: "tick {ticks}"}}})
	if !bps[0].Verified {
		// node had not loaded spin.js yet (it announces its inspector first):
		// ← breakpoint (changed, verified) once the script is parsed
		b := c.Expect("the logpoint bound", func(m daptest.Msg) bool {
			ev, ok := m.Decoded.(*godap.BreakpointEvent)
			return ok && ev.Body.Breakpoint.Id == bps[0].Id && ev.Body.Breakpoint.Verified
		}).Decoded.(*godap.BreakpointEvent)
		bps[0] = b.Body.Breakpoint
	}
	if bps[0].Line != tick {
		t.Fatalf("logpoint = %+v", bps[0])
	}
	c.ConfigurationDone()
	c.OK(attach)
	// ← output from console.log in the debuggee, with its location
	ev := c.Expect("logpoint output", func(m daptest.Msg) bool {
		o, ok := m.Decoded.(*godap.OutputEvent)
		return ok && strings.HasPrefix(o.Body.Output, "tick ")
	}).Decoded.(*godap.OutputEvent)
	if ev.Body.Category != "stdout" || ev.Body.Source == nil || ev.Body.Source.Path != prog || ev.Body.Line != tick {
		t.Errorf("logpoint output = %+v", ev.Body)
	}
	// → setBreakpoints(@tick) ← stopped (breakpoint)
	c.SetBreakpoints(prog, tick)
	if st := c.Stopped(); st.Body.Reason != "breakpoint" {
		t.Fatalf("stopped = %+v", st.Body)
	}
	if r := c.Evaluate("ticks >= 0", c.TopFrame(ThreadID).Id, "watch"); r.Result != "true" {
		t.Errorf("ticks = %+v", r)
	}
	// → disconnect: the program goes on running
	c.Disconnect(false)
	c.Event("terminated")
	if _, ok := platform.ProcessStart(cmd.Process.Pid); !ok {
		t.Fatal("the attached program ended with the session")
	}
}

// An attached program that ends by itself ends the session (node waits
// for its debugger to go: the adapter goes), and is not reported lost.
func TestAttachedProgramEnds(t *testing.T) {
	cmd, port := startInspected(t, program(t, "ends_soon.js"))
	c := start(t, Options{})
	attach := c.Send("attach", map[string]any{"request": "attach", "address": "127.0.0.1", "port": port})
	c.Event("initialized")
	c.ConfigurationDone()
	c.OK(attach)
	c.Event("terminated")
	if n := c.Count(func(m daptest.Msg) bool { return m.IsEvent(InspectorLostEvent) }); n != 0 {
		t.Errorf("%d lost events for a program that ended", n)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("node: %v", err)
	}
}
