// wake_test.go: debugpy's wake patch (adapter/debugpy_wake.go) against real
// debugpy: installed at the first stop (marker read back), every request
// kind on stopped threads gives the same results as an unpatched run
// (evaluate, variables, step over/in/out, goto, two threads stopped at
// once, the program's normal end), the launch options turn it off, and a
// detach from an attached debuggee removes it, paused or running.

package session

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// lineOf is the 1-based line of path holding marker.
func lineOf(t testing.TB, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, "# "+marker) {
			return i + 1
		}
	}
	t.Fatalf("no %s in %s", marker, path)
	return 0
}

func TestWakeLaunchOptionParsing(t *testing.T) {
	o, err := parseLaunchOptions([]byte(`{"fastWake":false}`))
	if err != nil || o.FastWake == nil || *o.FastWake {
		t.Fatalf("fastWake false: %+v %v", o, err)
	}
	if _, err := parseLaunchOptions([]byte(`{"fastWake":"no"}`)); err == nil || !strings.Contains(err.Error(), `"fastWake" must be true or false`) {
		t.Fatalf("fastWake of the wrong type: %v", err)
	}
}

// wakeScenario drives a headless session over wake_threads.py through every
// request kind the patch affects and returns what it observed (stops,
// values), the patch's marker, and its counters (empty when absent).
func wakeScenario(t *testing.T, opts ManagerOptions) (trace []string, marker, stats string) {
	program := filepath.Join(repoRoot(t), "testdata", "python", "wake_threads.py")
	rel := "testdata/python/wake_threads.py"
	m := newTestManager(t, opts)
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: rel, Breakpoints: []Breakpoint{{File: rel, Line: lineOf(t, program, "BP_MAIN")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = s.Terminate(context.Background()) }()
	record := func(st Stop) int {
		l := st.Location
		trace = append(trace, fmt.Sprintf("stop %s %s:%d", l.Reason, l.Function, l.Line))
		return l.FrameID
	}
	eval := func(expr string, frame int) string {
		t.Helper()
		r, err := s.Evaluate(ctx, expr, frame, "watch")
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return r.Result
	}
	frame := record(waitStop(t, s))
	// The stop is recorded after the first-stop fixes were applied.
	marker = eval(adapter.WakeMarkerExpr, frame)

	// Requests on the stopped thread (evaluate; scopes + variables below).
	for i := 0; i < 5; i++ {
		trace = append(trace, "len(done)+41="+eval("len(done) + 41", frame))
	}
	// Steps: over, in, out, over, over.
	for _, dir := range []string{"over", "in", "out", "over", "over"} {
		if err := s.Step(ctx, dir); err != nil {
			t.Fatalf("step %s: %v", dir, err)
		}
		frame = record(waitStop(t, s))
	}
	trace = append(trace, "c="+eval("c", frame))
	scopes, err := s.Scopes(ctx, frame)
	if err != nil || len(scopes) == 0 {
		t.Fatalf("scopes: %v %v", scopes, err)
	}
	vars, err := s.Variables(ctx, scopes[0].VariablesReference)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vars {
		trace = append(trace, "var "+v.Name+"="+v.Value)
	}

	// goto (set next statement) back to AFTER_HELPER: c = a + b runs again.
	tid, _ := s.Paused()
	var targets godap.GotoTargetsResponseBody
	if err := s.Request(ctx, "gotoTargets", godap.GotoTargetsArguments{Source: godap.Source{Path: program}, Line: lineOf(t, program, "AFTER_HELPER")}, &targets); err != nil || len(targets.Targets) == 0 {
		t.Fatalf("gotoTargets: %+v %v", targets, err)
	}
	gen := s.mux.State().StopCount
	if err := s.Request(ctx, "goto", godap.GotoArguments{ThreadId: tid, TargetId: targets.Targets[0].Id}, nil); err != nil {
		t.Fatalf("goto: %v", err)
	}
	s.markRunning(gen)
	frame = record(waitStop(t, s))
	if err := s.Step(ctx, "over"); err != nil {
		t.Fatal(err)
	}
	frame = record(waitStop(t, s))
	trace = append(trace, "c="+eval("c", frame))

	// Two threads stopped at once: a breakpoint in spin() suspends both.
	if _, err := s.SetBreakpoints(ctx, rel, []Breakpoint{{Line: lineOf(t, program, "BP_SPIN")}}); err != nil {
		t.Fatal(err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	trace = append(trace, fmt.Sprintf("stop %s %s:%d", st.Location.Reason, st.Location.Function, st.Location.Line))
	spinFrames := map[string]int{} // thread name → top frame
	for len(spinFrames) < 2 {      // the other thread suspends at its next line
		if err := ctx.Err(); err != nil {
			t.Fatalf("both spin threads stopped: %v (have %v)", err, spinFrames)
		}
		var threads godap.ThreadsResponseBody
		if err := s.Request(ctx, "threads", nil, &threads); err != nil {
			t.Fatal(err)
		}
		for _, th := range threads.Threads {
			if !strings.HasPrefix(th.Name, "spin") || spinFrames[th.Name] != 0 {
				continue
			}
			if frames, err := s.StackTrace(ctx, th.Id, 1); err == nil && len(frames) > 0 && frames[0].Name == "spin" {
				spinFrames[th.Name] = frames[0].Id
			}
		}
		time.Sleep(20 * time.Millisecond) // poll interval, not a timing claim
	}
	for i := 0; i < 3; i++ { // alternate between the two stopped threads
		for _, name := range []string{"spin0", "spin1"} {
			trace = append(trace, name+": name="+eval("name", spinFrames[name]))
		}
	}
	if strings.Contains(marker, "installed") {
		stats = eval("__import__('pydevd').__dapscope_wake__['stats']", spinFrames["spin0"])
	}

	// Release the threads; the program ends normally.
	eval("done.__setitem__(0, True)", spinFrames["spin0"])
	if _, err := s.SetBreakpoints(ctx, rel, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited || end.Outcome == nil || end.Outcome.ExitCode == nil {
		t.Fatalf("program end: %+v %v", end, err)
	}
	out := s.Output(0, 1<<20).Data
	trace = append(trace, fmt.Sprintf("exit %d, printed %v", *end.Outcome.ExitCode, strings.Contains(out, "wake_threads done 3 3")))
	return trace, marker, stats
}

// wakeInstalled is the wake marker a debugpy session of this leg reads
// after the first stop: 'installed' where debugpy ≤ 1.8.5 polls every
// 10 ms, None on 1.8.6 and later, which wait on an event of their own and
// which the patch's feature detection skips (testpython: the leg).
func wakeInstalled() string {
	if testpython.Below(testpython.Version("debugpy"), "1.8.6") {
		return "'installed'"
	}
	return "None"
}

// TestWakePatchedMatchesUnpatched: the same scenario with the patch (the
// default) and without it (DisableNoDelay) observes the same stops and
// values; the patch is in place only in the first, and it did wake.
func TestWakePatchedMatchesUnpatched(t *testing.T) {
	patched, marker, stats := wakeScenario(t, ManagerOptions{})
	if marker != wakeInstalled() {
		t.Fatalf("marker with the patch = %s, want %s (debugpy %s)", marker, wakeInstalled(), testpython.Version("debugpy"))
	}
	plain, plainMarker, _ := wakeScenario(t, ManagerOptions{DisableNoDelay: true})
	if plainMarker != "None" {
		t.Fatalf("marker with --nodelay=false = %s, want None (unpatched)", plainMarker)
	}
	if strings.Join(patched, "\n") != strings.Join(plain, "\n") {
		t.Fatalf("patched run differs from the plain one:\npatched:\n%s\nplain:\n%s", strings.Join(patched, "\n"), strings.Join(plain, "\n"))
	}
	if last := patched[len(patched)-1]; last != "exit 0, printed true" {
		t.Fatalf("program end: %s", last)
	}
	if marker == "None" { // debugpy 1.8.6+: skipped, and the runs are the same
		t.Logf("debugpy %s: the patch is skipped; %d observations identical", testpython.Version("debugpy"), len(patched))
		return
	}
	// The requests really took the wake path: commands woke the thread
	// (woken), and a step left the loop without its last sleep (fast_exit).
	for _, key := range []string{"'woken'", "'fast_exit'"} {
		i := strings.Index(stats, key+": ")
		if i < 0 || strings.HasPrefix(stats[i+len(key)+2:], "0") {
			t.Fatalf("wake counters %s: want %s > 0", stats, key)
		}
	}
	t.Logf("%d observations identical:\n%s\ncounters %s", len(patched), strings.Join(patched, "\n"), stats)
}

// TestWakeLaunchOptionsThroughProxy: an editor's launch configuration
// decides per session: by default both fixes are in; "fastWake": false
// keeps TCP_NODELAY only; "nodelay": false turns both off.
func TestWakeLaunchOptionsThroughProxy(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "core", "loop.py")
	for _, tc := range []struct {
		name    string
		config  map[string]any
		marker  string
		noDelay bool
	}{
		{"default", nil, wakeInstalled(), true},
		{"fastWake=false", map[string]any{"fastWake": false}, "None", true},
		{"nodelay=false", map[string]any{"nodelay": false, "fastWake": true}, "None", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestManager(t, ManagerOptions{})
			edSide, muxSide := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
			ed := daptest.New(t, edSide)
			ed.Initialize(daptest.InitArgs("test-editor", "python"))
			config := daptest.PythonLaunch(program)
			for k, v := range tc.config {
				config[k] = v
			}
			ed.LaunchTo(config, program, 14)
			s, err := m.Get("")
			if err != nil {
				t.Fatal(err)
			}
			frame := waitStop(t, s).Location.FrameID // recorded after the fixes
			if got := ed.Evaluate(adapter.WakeMarkerExpr, frame, "watch").Result; got != tc.marker {
				t.Fatalf("marker = %s, want %s", got, tc.marker)
			}
			if got := ed.Evaluate(nodelayProbe, frame, "watch").Result; (got != "0") != tc.noDelay {
				t.Fatalf("TCP_NODELAY = %s, want on: %v", got, tc.noDelay)
			}
			if got := ed.Evaluate("total + 41", frame, "watch").Result; got != "41" {
				t.Fatalf("evaluate = %s", got)
			}
			ed.Disconnect(true)
			ed.Close()
			if err := <-served; err != nil {
				t.Logf("serve: %v", err)
			}
		})
	}
}

// startListening runs wake_listen.py, which waits for debuggers on a port.
func startListening(t *testing.T) (port int, cmd *exec.Cmd) {
	port = freePort(t)
	prog := filepath.Join(repoRoot(t), "testdata", "python", "wake_listen.py")
	cmd = exec.Command(testpython.Path(), "-Xfrozen_modules=off", prog, strconv.Itoa(port))
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, "listening") {
		t.Fatalf("debuggee did not start listening: %q %v", line, err)
	}
	return port, cmd
}

// TestWakeUninstalledOnDetach: an attach session installs the patch and
// removes it when it detaches, whether the debuggee is stopped or running
// at that moment; a second, unpatched session (--nodelay=false) then finds
// pydevd as it was, and the debuggee finishes normally.
func TestWakeUninstalledOnDetach(t *testing.T) {
	for _, running := range []bool{false, true} {
		t.Run(fmt.Sprintf("running=%v", running), func(t *testing.T) {
			port, cmd := startListening(t)
			rel := "testdata/python/wake_listen.py"
			bp := []Breakpoint{{File: rel, Line: lineOf(t, filepath.Join(repoRoot(t), rel), "BP_LOOP")}}
			ctx := testCtx(t)

			m := newTestManager(t, ManagerOptions{})
			s, err := m.Attach(ctx, AttachSpec{Port: port, Breakpoints: bp})
			if err != nil {
				t.Fatal(err)
			}
			st := waitStop(t, s)
			if r, err := s.Evaluate(ctx, adapter.WakeMarkerExpr, st.Location.FrameID, "watch"); err != nil || r.Result != wakeInstalled() {
				t.Fatalf("marker in the attached debuggee = %q, %v; want %s", r.Result, err, wakeInstalled())
			}
			if running {
				if _, err := s.SetBreakpoints(ctx, rel, nil); err != nil {
					t.Fatal(err)
				}
				if err := s.Continue(ctx); err != nil {
					t.Fatal(err)
				}
			}
			_ = s.Terminate(ctx) // detach: uninstall, then disconnect without terminating

			expectUnpatched(t, port, cmd, rel, bp)
		})
	}
}

// expectUnpatched attaches a second, unpatched session to the wake_listen.py
// debuggee on port: pydevd must be as it was before any session patched it;
// then it lets the debuggee finish and checks that it ends normally.
func expectUnpatched(t *testing.T, port int, cmd *exec.Cmd, rel string, bp []Breakpoint) {
	t.Helper()
	ctx := testCtx(t)
	plain := newTestManager(t, ManagerOptions{DisableNoDelay: true})
	s2, err := plain.Attach(ctx, AttachSpec{Port: port, Breakpoints: bp})
	if err != nil {
		t.Fatal(err)
	}
	frame := waitStop(t, s2).Location.FrameID
	r, err := s2.Evaluate(ctx, "("+adapter.WakeMarkerExpr+", __import__('pydevd').time is __import__('time'), hasattr(__import__('pydevd').PyDB.post_internal_command, '_dapscope_wake'))", frame, "watch")
	if err != nil || r.Result != "(None, True, False)" {
		t.Fatalf("after detach: (marker, pydevd.time restored, wrapper present) = %s, %v", r.Result, err)
	}
	if _, err := s2.Evaluate(ctx, "stop.__setitem__(0, True)", frame, "watch"); err != nil {
		t.Fatal(err)
	}
	if _, err := s2.SetBreakpoints(ctx, rel, nil); err != nil {
		t.Fatal(err)
	}
	_ = s2.Terminate(ctx)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("debuggee ended with %v", err)
		}
	case <-ctx.Done():
		t.Fatal("debuggee did not finish after the last detach")
	}
}
