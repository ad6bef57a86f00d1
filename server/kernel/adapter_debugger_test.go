//go:build linux

// adapter_debugger_test.go: a kernel session while the user debugs a cell
// in the kernel's debugger (driven as JupyterLab drives it, by the "lab"
// client): the session follows the debugger's stop, the smart inspector
// reads a frame-local DataFrame of the paused cell through the debugger,
// the namespace listing lists the paused frame's locals, the session's own
// step goes to the debugger, the user's client keeps working throughout,
// and the cell's end is the namespace's stop again. Over ZeroMQ and over a
// Jupyter Server's websocket.

package kernel

import (
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// pausedScenario: lab starts the debugger, sets a breakpoint in the cell
// and runs it; s, a kernel session on the same kernel, follows.
func pausedScenario(t *testing.T, lab *Client, s *session.Session) {
	ctx := testCtx(t, 120*time.Second)
	gen := waitStop(t, s, 0).Location
	if gen.Reason != "idle" {
		t.Fatalf("first stop = %+v", gen)
	}
	debugRequest(t, ctx, lab, "initialize", map[string]any{"clientID": "jupyterlab-like", "adapterID": "python",
		"pathFormat": "path", "linesStartAt1": true, "columnsStartAt1": true}, nil)
	debugRequest(t, ctx, lab, "attach", map[string]any{}, nil)
	var dumped struct {
		SourcePath string `json:"sourcePath"`
	}
	debugRequest(t, ctx, lab, "dumpCell", map[string]any{"code": debugCell}, &dumped)
	debugRequest(t, ctx, lab, "setBreakpoints", map[string]any{"source": map[string]any{"path": dumped.SourcePath},
		"breakpoints": []map[string]any{{"line": 4}}, "sourceModified": false}, nil)
	debugRequest(t, ctx, lab, "configurationDone", nil, nil)

	before := s.StopCount()
	ran := make(chan error, 1)
	go func() {
		_, err := lab.Execute(ctx, debugCell, ExecOptions{Visible: true})
		ran <- err
	}()
	st := waitStop(t, s, before)
	if st.Location.Reason != "breakpoint" || st.Location.Function != "f" || st.Location.Line != 4 || st.Location.Path != dumped.SourcePath {
		t.Fatalf("the session's stop while the cell is paused = %+v", st.Location)
	}
	// The inspector reads the paused frame's DataFrame through the debugger.
	res, err := inspect.Inspect(ctx, s, 0, "local_df", inspect.Options{})
	if err != nil || res.DetectedType != "dataframe" || res.Structure == nil || len(res.Structure.Shape) != 2 || res.Structure.Shape[0] != 3 {
		t.Fatalf("inspect of a frame-local DataFrame = %+v, %v", res, err)
	}
	items, err := inspect.SummariesWith(ctx, s, 0, nil, inspect.SummaryOptions{Timeout: 2 * time.Second})
	if err != nil || len(items) != 1 || items[0].Name != "local_df" || !strings.HasPrefix(items[0].Line(), "DataFrame 3 × 2") {
		t.Fatalf("the paused frame's locals = %+v, %v", items, err)
	}
	// The namespace itself is held by the paused cell: said at once.
	_, err = s.Evaluate(ctx, "result", NamespaceFrame, "")
	if e := errcode.As(err); e == nil || e.Code != errcode.NotPaused || e.State != StateBusyCode || !strings.Contains(e.Message, "paused in the debugger") {
		t.Errorf("evaluate in the namespace while paused: %v", err)
	}
	// The user's client keeps working: its own requests, while ours run.
	var trace struct {
		StackFrames []struct {
			ID   int    `json:"id"`
			Name string `json:"name"`
		} `json:"stackFrames"`
	}
	debugRequest(t, ctx, lab, "stackTrace", map[string]any{"threadId": st.Location.ThreadID}, &trace)
	if len(trace.StackFrames) == 0 || trace.StackFrames[0].Name != "f" {
		t.Fatalf("the user's stackTrace = %+v", trace)
	}
	// The session's own step goes to the debugger: a stop on the next line.
	before = s.StopCount()
	if err := s.Step(ctx, "over"); err != nil {
		t.Fatal(err)
	}
	st = waitStop(t, s, before)
	if st.Location.Line != 5 || st.Location.Function != "f" {
		t.Errorf("stop after the session's step = %+v", st.Location)
	}
	if v, err := s.Evaluate(ctx, "n", 0, ""); err != nil || v.Result != "3" {
		t.Errorf("evaluate n in the frame after the step = %+v, %v", v, err)
	}
	// The user continues; the cell's end is the namespace's stop.
	before = s.StopCount()
	debugRequest(t, ctx, lab, "continue", map[string]any{"threadId": st.Location.ThreadID}, nil)
	if err := <-ran; err != nil {
		t.Fatalf("the debugged cell: %v", err)
	}
	st = waitStop(t, s, before)
	for st.Location.Reason != "idle" { // a stale stop may come first
		st = waitStop(t, s, s.StopCount())
	}
	if st.Location.Description != "after In[1]" {
		t.Errorf("stop after the debugged cell = %+v", st.Location)
	}
	if v, err := s.Evaluate(ctx, "result", 0, ""); err != nil || v.Result != "3" {
		t.Errorf("result in the namespace = %+v, %v", v, err)
	}
	debugRequest(t, ctx, lab, "disconnect", map[string]any{"restart": false, "terminateDebuggee": false}, nil)
	// The session is still a session of the namespace.
	if _, err := inspect.Inspect(ctx, s, 0, "result", inspect.Options{}); err != nil {
		t.Errorf("inspect after the debugger left: %v", err)
	}
}

func TestKernelSessionFollowsTheDebugger(t *testing.T) {
	k := startKernel(t)
	lab := k.dial(t, Options{})
	_, at := kernelSession(t, k, AttachSpec{})
	pausedScenario(t, lab, at.Session)
}

func TestKernelSessionFollowsTheDebuggerOverServer(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "debug.ipynb")
	srv := js.client(t)
	lab := dialServer(t, srv, id)
	mgr := session.NewManager(session.ManagerOptions{Workspace: js.dir, Logger: testLogger()})
	t.Cleanup(func() { _ = mgr.Close() })
	at, err := AttachSession(testCtx(t, 60*time.Second), mgr, AttachSpec{ServerURL: js.url, KernelID: id, Token: js.token,
		Options: Options{Logger: testLogger()}})
	if err != nil {
		t.Fatal(err)
	}
	if at.Kernel.Notebook != "debug.ipynb" || !strings.Contains(at.Session.Info().Name, "debug.ipynb") {
		t.Errorf("the kernel's notebook: %+v / %q", at.Kernel, at.Session.Info().Name)
	}
	pausedScenario(t, lab, at.Session)
}
