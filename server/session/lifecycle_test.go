// lifecycle_test.go: the ways a session ends badly or unusually, against
// real debugpy and Delve — adapter killed mid-request, reverse requests for
// subprocesses, uncaught exceptions, wait timeouts, output caps, hit
// conditions, validation.

package session

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// pgrep reports whether a process whose command line contains pattern is
// alive (zombies don't count).
func pgrep(t *testing.T, pattern string) bool {
	out, _ := exec.Command("pgrep", "-f", pattern).Output()
	for _, pid := range strings.Fields(string(out)) {
		stat, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err == nil && !strings.Contains(string(stat), ") Z ") {
			return true
		}
	}
	return false
}

// eventuallyGone waits (bounded) for processes matching pattern to end:
// a SIGKILLed process may take a moment to be gone.
func eventuallyGone(t *testing.T, pattern string) bool {
	deadline := time.Now().Add(10 * time.Second)
	for pgrep(t, pattern) {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

// The adapter process is killed while an internal client and the editor
// both wait for a slow evaluate: both get errors promptly, the editor gets
// terminated, and no adapter, launcher or debuggee process is left.
func TestAdapterKilledMidRequest(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	defer ed.Close()
	program := filepath.Join(repoRoot(t), "testdata", "core", "loop.py")
	// → initialize, launch, setBreakpoints(14), configurationDone ← stopped
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	ed.LaunchTo(daptest.PythonLaunch(program), program, 14)
	s, err := m.Get("")
	if err != nil {
		t.Fatal(err)
	}
	frame, err := s.TopFrame(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if info := s.Info(); info.Program != "testdata/core/loop.py" || info.Origin != OriginEditor {
		t.Fatalf("editor session info = %+v", info)
	}
	if !pgrep(t, program) {
		t.Fatal("debuggee not running")
	}
	// Both clients start an evaluate that sleeps far longer than the test.
	internal := make(chan error, 1)
	go func() {
		_, err := s.Evaluate(context.Background(), "__import__('time').sleep(30)", frame.Id, "repl")
		internal <- err
	}()
	// → evaluate (sleeps)
	edEval := ed.Send("evaluate", godap.EvaluateArguments{Expression: "__import__('time').sleep(30)", FrameId: frame.Id, Context: "repl"})
	time.Sleep(300 * time.Millisecond) // let both reach the adapter
	killedAt := time.Now()
	s.ad.Kill()
	// ← error for the internal evaluate
	select {
	case err := <-internal:
		var se *errcode.Error
		if !errors.As(err, &se) || se.Code != errcode.AdapterExited {
			t.Fatalf("internal evaluate error = %v, want ADAPTER_EXITED", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("internal evaluate still pending")
	}
	// ← error response for the editor's evaluate, ← terminated
	if resp := ed.Response(edEval); resp.Success() {
		t.Fatalf("editor evaluate = %s", resp)
	}
	ed.Event("terminated")
	t.Logf("all clients answered %v after the kill", time.Since(killedAt).Round(time.Millisecond))
	// → disconnect is answered by the sidecar; the editor leaves.
	ed.Disconnect(false)
	ed.Close()
	if err := <-served; err != nil {
		t.Fatalf("ServeEditor: %v", err)
	}
	<-s.Done()
	if !eventuallyGone(t, program) {
		t.Fatal("debuggee left running after the adapter was killed")
	}
	if st := s.Info(); st.Status != StatusError || st.Outcome == nil || st.Outcome.ErrorType != "AdapterExited" {
		t.Fatalf("session after crash = %+v", st)
	}
}

// With subProcess debugging, debugpy tells the editor about the child so it
// can start a session for it: newer debugpy sends a startDebugging reverse
// request, Debian's 1.6.x a debugpyAttach event. Either reaches the editor
// unchanged, and a reverse request's answer goes back upstream.
func TestSubprocessNotificationReachesEditor(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	program := filepath.Join(repoRoot(t), "testdata", "core", "subproc.py")
	// → initialize (supportsStartDebuggingRequest)  ← response
	// → launch {subProcess}  ← initialized
	// → configurationDone    ← response, ← launch response
	// ← startDebugging (reverse request) or debugpyAttach (event)
	init := daptest.InitArgs("test", "python")
	init.SupportsStartDebuggingRequest = true
	ed.Initialize(init)
	config := daptest.PythonLaunch(program)
	config["subProcess"] = true
	launch := ed.StartLaunch(config)
	ed.Event("initialized")
	ed.ConfigurationDone()
	ed.OK(launch)
	msg := ed.Expect("startDebugging or debugpyAttach", func(m daptest.Msg) bool {
		return m.IsRequest("startDebugging") || m.IsEvent("debugpyAttach")
	})
	if msg.Env.Type == "request" {
		req, ok := msg.Decoded.(*godap.StartDebuggingRequest)
		if !ok || req.Arguments.Configuration == nil {
			t.Fatalf("startDebugging arguments = %s", msg.Arguments)
		}
		// → the editor's answer goes back upstream.
		ed.Reply(msg, true, nil)
	} else {
		var b struct {
			Request      string `json:"request"`
			SubProcessID any    `json:"subProcessId"`
		}
		if err := msg.Unmarshal(&b); err != nil || b.Request != "attach" || b.SubProcessID == nil {
			t.Fatalf("debugpyAttach body = %s (%v)", msg.Body, err)
		}
	}
	// → disconnect {terminateDebuggee}  ← response
	ed.Disconnect(true)
	ed.Close()
	<-served
}

// An uncaught exception stops the session; the outcome has type, message
// and traceback; continuing ends it with status error.
func TestUncaughtExceptionOutcome(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/raises.py"})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	if st.Location.Reason != "exception" {
		t.Fatalf("stop = %+v", st.Location)
	}
	o := s.Outcome()
	if o == nil || !strings.Contains(o.ErrorType, "ValueError") || !strings.Contains(o.ErrorMessage, "not-a-number") || !strings.Contains(o.Traceback, "parse") {
		t.Fatalf("outcome at exception = %+v", o)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	end, err := s.Wait(ctx, 60*time.Second)
	if err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	o = s.Outcome()
	if o.Ended != EndedCrashed || o.ExitCode == nil || *o.ExitCode == 0 {
		t.Fatalf("final outcome = %+v", o)
	}
	if got := s.Status(); got != StatusError {
		t.Fatalf("status = %s, want error", got)
	}
	if !strings.Contains(s.Output(0, 1<<20).Data, "about to fail") {
		t.Fatal("output missing")
	}
}

// Wait never blocks forever: a running program returns Running on timeout.
// Hit conditions count; pause stops a running program.
func TestWaitTimeoutHitConditionPause(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/spin.py", Breakpoints: []Breakpoint{{File: "testdata/core/spin.py", Line: 9, HitCondition: "3"}}})
	if err != nil {
		t.Fatal(err)
	}
	st := waitStop(t, s)
	ev, err := s.Evaluate(ctx, "n", 0, "")
	if err != nil || ev.Result != "2" {
		t.Fatalf("hit condition 3 stopped at n = %q (%v), want 2", ev.Result, err)
	}
	if st.Location.Line != 9 {
		t.Fatalf("stop = %+v", st.Location)
	}
	if _, err := s.SetBreakpoints(ctx, "testdata/core/spin.py", nil); err != nil {
		t.Fatal(err)
	}
	if err := s.Continue(ctx); err != nil {
		t.Fatal(err)
	}
	// The program spins forever now: a short wait returns "running".
	w, err := s.Wait(ctx, 300*time.Millisecond)
	if err != nil || !w.Running {
		t.Fatalf("wait on a running program = %+v, %v", w, err)
	}
	if got := s.Status(); got != StatusRunning {
		t.Fatalf("status while running = %s", got)
	}
	// Requests that need a paused debuggee fail fast with NOT_PAUSED.
	var se *errcode.Error
	if _, err := s.StackTrace(ctx, 0, 1); !errors.As(err, &se) || se.Code != errcode.NotPaused {
		t.Fatalf("stackTrace while running = %v", err)
	}
	if err := s.Pause(ctx); err != nil {
		t.Fatal(err)
	}
	st = waitStop(t, s)
	if st.Location.Reason != "pause" {
		t.Fatalf("after pause: %+v", st.Location)
	}
	info := s.Info()
	if info.Timings.TotalRunMs < info.Timings.LastRunMs || info.Status != StatusPaused {
		t.Fatalf("info = %+v", info)
	}
	_ = s.Terminate(ctx)
	if !eventuallyGone(t, "testdata/core/spin.py") {
		t.Fatal("debuggee still running after Terminate")
	}
}

// The output buffer keeps the newest bytes and flags truncation.
func TestOutputCap(t *testing.T) {
	m := newTestManager(t, ManagerOptions{OutputLimit: 64 << 10})
	ctx := testCtx(t)
	s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/core/chatty.py", Args: []string{"3000"}})
	if err != nil {
		t.Fatal(err)
	}
	if end, err := s.Wait(ctx, 60*time.Second); err != nil || !end.Exited {
		t.Fatalf("end = %+v, %v", end, err)
	}
	// 3000 lines of 100 bytes went out; at most 64 KiB is held.
	p := s.Output(0, 1<<20)
	if !p.Truncated || p.Dropped == 0 || len(p.Data) > 64<<10 || p.Total < 300000 {
		t.Fatalf("page = offset %d, len %d, total %d, dropped %d, truncated %v", p.Offset, len(p.Data), p.Total, p.Dropped, p.Truncated)
	}
	// Paging by offset walks to the end.
	next := p.Offset
	read := 0
	for {
		pg := s.Output(next, 10000)
		read += len(pg.Data)
		next = pg.NextOffset
		if !pg.More {
			break
		}
	}
	if read != len(p.Data) || next != p.Total {
		t.Fatalf("paged %d bytes to %d; want %d to %d", read, next, len(p.Data), p.Total)
	}
}

func TestLaunchValidation(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	ctx := testCtx(t)
	long := strings.Repeat("a", 600)
	many := make([]string, 21)
	env := map[string]string{}
	for i := 0; i < 51; i++ {
		env["K"+strings.Repeat("x", i)] = "v"
	}
	tests := []struct {
		name  string
		spec  LaunchSpec
		field string
	}{
		{"no program", LaunchSpec{}, "program"},
		{"dotdot", LaunchSpec{Program: "../etc/passwd"}, "program"},
		{"outside", LaunchSpec{Program: "/etc/passwd"}, "program"},
		{"missing", LaunchSpec{Program: "testdata/core/nope.py"}, "program"},
		{"dir", LaunchSpec{Program: "testdata/core"}, "program"},
		{"bp line 0", LaunchSpec{Program: "testdata/core/loop.py", Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 0}}}, "breakpoints[0].line"},
		{"bp past end", LaunchSpec{Program: "testdata/core/loop.py", Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 999}}}, "breakpoints[0].line"},
		{"bp dotdot", LaunchSpec{Program: "testdata/core/loop.py", Breakpoints: []Breakpoint{{File: "testdata/../testdata/core/loop.py", Line: 3}}}, "breakpoints[0].file"},
		{"long arg", LaunchSpec{Program: "testdata/core/loop.py", Args: []string{long}}, "args[0]"},
		{"many args", LaunchSpec{Program: "testdata/core/loop.py", Args: many}, "args"},
		{"many env", LaunchSpec{Program: "testdata/core/loop.py", Env: env}, "env"},
		{"env key", LaunchSpec{Program: "testdata/core/loop.py", Env: map[string]string{"A=B": "x"}}, "env"},
		{"env value", LaunchSpec{Program: "testdata/core/loop.py", Env: map[string]string{"A": strings.Repeat("v", 2000)}}, "env.A"},
		{"bad adapter", LaunchSpec{Program: "testdata/core/loop.py", Adapter: "gdb"}, "adapter"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := m.Launch(ctx, tt.spec)
			var se *errcode.Error
			if !errors.As(err, &se) || se.Code != errcode.InvalidArgument || se.Field != tt.field {
				t.Fatalf("err = %v, want INVALID_ARGUMENT on %s", err, tt.field)
			}
		})
	}
	if len(m.List()) != 0 {
		t.Fatalf("invalid launches left sessions: %d", len(m.List()))
	}
}

// The editor vanishes mid-request (no disconnect): the sidecar ends the
// adapter session itself and leaves no debuggee behind.
func TestEditorVanishesMidRequest(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	program := filepath.Join(repoRoot(t), "testdata", "core", "spin.py")
	// → initialize, launch, setBreakpoints(9), configurationDone ← stopped
	// → stackTrace ← response (top frame)
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	stopped := ed.LaunchTo(daptest.PythonLaunch(program), program, 9)
	frame := ed.TopFrame(stopped.Body.ThreadId)
	if !pgrep(t, program) {
		t.Fatal("debuggee not running")
	}
	// → evaluate (slow) … and the editor is gone before the answer.
	ed.Send("evaluate", godap.EvaluateArguments{Expression: "__import__('time').sleep(1) or 1", FrameId: frame.Id, Context: "repl"})
	ed.Close()
	select {
	case <-served:
	case <-time.After(60 * time.Second):
		t.Fatal("ServeEditor did not return after the editor left")
	}
	s := m.List()[0]
	<-s.Done()
	if !eventuallyGone(t, program) {
		t.Fatal("debuggee left running after the editor vanished")
	}
}

// Closing the manager ends a session whose editor is still connected: the
// editor gets terminated and its connection closes.
func TestManagerCloseEndsEditorSession(t *testing.T) {
	m := NewManager(ManagerOptions{Workspace: repoRoot(t), Logger: testLogger(t)})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	program := filepath.Join(repoRoot(t), "testdata", "core", "spin.py")
	// → initialize ← response; → launch ← initialized
	// → configurationDone ← response, ← launch response
	ed.Initialize(daptest.InitArgs("", "python"))
	launch := ed.StartLaunch(daptest.PythonLaunch(program))
	ed.Event("initialized")
	ed.ConfigurationDone()
	ed.OK(launch)
	// (Manager.Close) ← terminated, the connection closes
	closed := make(chan struct{})
	go func() { _ = m.Close(); close(closed) }()
	ed.Event("terminated")
	select {
	case <-served:
	case <-time.After(30 * time.Second):
		t.Fatal("ServeEditor still serving after Manager.Close")
	}
	<-closed
	<-ed.Done() // the editor's connection was closed by the sidecar
	if !eventuallyGone(t, program) {
		t.Fatal("debuggee left running")
	}
}
