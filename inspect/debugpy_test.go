// Tests of the inspector against real debugpy (through server/session): one
// shared session on testdata/python/inspect_values.py stopped at its BREAK
// line; every golden case must give the same answer as the harness, plus
// frames, timeouts, and session reuse.

package inspect_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const valuesProgram = "testdata/python/inspect_values.py"

var (
	shared struct {
		once sync.Once
		mgr  *session.Manager
		s    *session.Session
		err  error
	}
)

// breakLine finds the line marked "# BREAK" in a workspace file.
func breakLine(tb testing.TB, rel string) int {
	tb.Helper()
	f, err := os.Open(filepath.Join("..", rel))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "# BREAK") {
			return n
		}
	}
	tb.Fatalf("no # BREAK line in %s", rel)
	return 0
}

// launchStopped starts program (with args) under adapter and waits for its
// breakpoint.
func launchStopped(tb testing.TB, adapter, program string, bp session.Breakpoint, args ...string) (*session.Manager, *session.Session, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, nil, err
	}
	mgr := session.NewManager(session.ManagerOptions{
		Workspace: root,
		Logger:    slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	s, err := mgr.Launch(ctx, session.LaunchSpec{Adapter: adapter, Program: program, Args: args, Breakpoints: []session.Breakpoint{bp}})
	if err != nil {
		mgr.Close()
		return nil, nil, err
	}
	stop, err := s.Wait(ctx, 80*time.Second)
	if err != nil || stop.Running || stop.Exited {
		if err == nil {
			out := s.Output(0, 4000)
			err = fmt.Errorf("the program did not stop at the breakpoint: %+v outcome=%+v output=%+v", stop, s.Outcome(), out)
		}
		mgr.Close()
		return nil, nil, err
	}
	return mgr, s, nil
}

// debugpySession is the one debugpy session shared by tests and benchmarks.
func debugpySession(tb testing.TB) *session.Session {
	tb.Helper()
	shared.once.Do(func() {
		line := breakLine(tb, valuesProgram)
		shared.mgr, shared.s, shared.err = launchStopped(tb, "debugpy", valuesProgram, session.Breakpoint{File: valuesProgram, Line: line})
		if shared.mgr != nil {
			inspect.AfterTests = append(inspect.AfterTests, func() { shared.mgr.Close() })
		}
	})
	if shared.err != nil {
		tb.Fatalf("debugpy session: %v", shared.err)
	}
	return shared.s
}

func TestDebugpyGoldens(t *testing.T) {
	s := debugpySession(t)
	inspect.RunCases(t, s, 0, "harness")
}

func TestDebugpyFrames(t *testing.T) {
	s := debugpySession(t)
	ctx := context.Background()
	// main() is one frame below build(): its local is visible there only.
	outer, err := inspect.FrameAt(ctx, s, 1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := inspect.Inspect(ctx, s, outer, "outer_only", inspect.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != inspect.TypeStr || res.Preview == nil || res.Preview.Text != "from main" {
		t.Fatalf("non-top frame: got %+v", res)
	}
	_, err = inspect.Inspect(ctx, s, 0, "outer_only", inspect.Options{})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.VariableNotFound {
		t.Fatalf("outer_only must not resolve in the top frame: %v", err)
	}
	if !inspect.Contains(ie.AvailableVariables, "df") {
		t.Errorf("available_variables should list the frame's locals: %v", ie.AvailableVariables)
	}
	// main's frame does not see build's locals.
	if _, err := inspect.Inspect(ctx, s, outer, "df", inspect.Options{}); !errors.As(err, &ie) || ie.Code != errcode.VariableNotFound {
		t.Fatalf("df must not resolve in main's frame: %v", err)
	}
}

func TestDebugpyTimeoutKeepsSessionUsable(t *testing.T) {
	s := debugpySession(t)
	ctx := context.Background()
	// SlowLen.__len__ sleeps 1.5 s. With a 0.3 s budget the probe answers
	// late but partial.
	res, err := inspect.Inspect(ctx, s, 0, "slow", inspect.Options{Timeout: 0.3})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Partial || !inspect.Contains(res.TimedOut, "length") {
		t.Fatalf("want partial with length timed out: partial=%v timed_out=%v", res.Partial, res.TimedOut)
	}
	// With a 0.5 s request bound the sidecar gives up first: INSPECTION_TIMEOUT,
	// no cancel sent, and the next inspection works once debugpy is free.
	_, err = inspect.Inspect(ctx, s, 0, "slow", inspect.Options{Timeout: 0.3, RequestTimeout: 0.5})
	var ie *errcode.Error
	if !errors.As(err, &ie) || ie.Code != errcode.InspectionTimeout {
		t.Fatalf("want INSPECTION_TIMEOUT, got %v", err)
	}
	res, err = inspect.Inspect(ctx, s, 0, "flag", inspect.Options{})
	if err != nil {
		t.Fatalf("session unusable after a timeout: %v", err)
	}
	if res.Structure.Value != true {
		t.Fatalf("wrong answer after a timeout: %+v", res.Structure)
	}
	res, err = inspect.Inspect(ctx, s, 0, "df", inspect.Options{Timeout: 10})
	if err != nil || res.DetectedType != inspect.TypeDataFrame {
		t.Fatalf("df after a timeout: %v %+v", err, res)
	}
}

func TestDebugpyProbeLoadedOnce(t *testing.T) {
	s := debugpySession(t)
	ctx := context.Background()
	if _, err := inspect.Inspect(ctx, s, 0, "flag", inspect.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := s.Values().Load("inspect.probe." + inspect.ProbeModule); !ok {
		t.Fatal("the session does not remember the loaded probe")
	}
	// The module is in the debuggee's sys.modules.
	body, err := s.Evaluate(ctx, "'"+inspect.ProbeModule+"' in __import__('sys').modules", 0, "watch")
	if err != nil {
		// frame 0 may be invalid for Evaluate; use the top frame.
		fr, ferr := s.TopFrame(ctx)
		if ferr != nil {
			t.Fatal(err, ferr)
		}
		body, err = s.Evaluate(ctx, "'"+inspect.ProbeModule+"' in __import__('sys').modules", fr.Id, "watch")
		if err != nil {
			t.Fatal(err)
		}
	}
	if body.Result != "True" {
		t.Fatalf("probe module not in sys.modules: %q", body.Result)
	}
}

func TestDebugpyReference(t *testing.T) {
	s := debugpySession(t)
	ctx := context.Background()
	res, err := inspect.Inspect(ctx, s, 0, "data", inspect.Options{Reference: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.VariablesReference == 0 {
		t.Fatal("want a variables_reference with Reference: true")
	}
	vars, err := s.Variables(ctx, res.VariablesReference)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, v := range vars {
		names = append(names, v.Name)
	}
	if !inspect.Contains(names, "'train'") {
		t.Fatalf("drilling down into data: %v", names)
	}
}

func TestDebugpyBreakpointsAfterInspect(t *testing.T) {
	prog := "testdata/python/inspect_loop.py"
	mgr, s, err := launchStopped(t, "debugpy", prog, session.Breakpoint{File: prog, Line: breakLine(t, prog)})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	ctx := context.Background()
	for want := int64(0); want < 3; want++ {
		res, err := inspect.Inspect(ctx, s, 0, "i", inspect.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(res.Structure.Value) != fmt.Sprint(want) {
			t.Fatalf("hit %d: i = %v", want, res.Structure.Value)
		}
		if _, err := inspect.Inspect(ctx, s, 0, "acc", inspect.Options{}); err != nil {
			t.Fatal(err)
		}
		if want == 0 {
			// Stepping still works after an inspection.
			if err := s.Step(ctx, "over"); err != nil {
				t.Fatal(err)
			}
			st, err := s.Wait(ctx, 30*time.Second)
			if err != nil || st.Location == nil || st.Location.Reason != "step" {
				t.Fatalf("step after inspect: %+v %v", st, err)
			}
		}
		if err := s.Continue(ctx); err != nil {
			t.Fatal(err)
		}
		st, err := s.Wait(ctx, 30*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if want < 2 && (st.Location == nil || st.Location.Line != breakLine(t, prog)) {
			t.Fatalf("hit %d: the breakpoint did not fire again after inspections: %+v", want+1, st)
		}
		if want == 2 && !st.Exited {
			t.Fatalf("the program should have ended: %+v", st)
		}
	}
}

// Inspections leave nothing in the user's console: pausing the tracer goes
// around pydevd's settrace wrapper, which would print a warning.
func TestDebugpyInspectIsSilent(t *testing.T) {
	s := debugpySession(t)
	ctx := context.Background()
	for _, expr := range []string{"flag", "flag"} {
		if _, err := inspect.Inspect(ctx, s, 0, expr, inspect.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	fr, err := s.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// A marker on the same stderr pipe: a warning written during the
	// inspections would arrive before it.
	if _, err := s.Evaluate(ctx, "__import__('sys').stderr.write('dapscope-marker\\n') and __import__('sys').stderr.flush()", fr.Id, "repl"); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(s.Output(0, 1<<22).Data, "dapscope-marker") {
		if time.Now().After(deadline) {
			t.Fatal("marker never reached the output")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if out := s.Output(0, 1<<22).Data; strings.Contains(out, "should not be used") {
		t.Fatalf("inspection wrote to the user's console:\n%s", out)
	}
}
