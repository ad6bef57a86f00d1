//go:build linux

// debugger_test.go: the kernel's debugger over the control channel, driven
// the way JupyterLab drives it (initialize, attach, debugInfo, dumpCell,
// setBreakpoints, configurationDone, run the cell, wait for stopped,
// stackTrace, continue), while a second dapscope client inspects a
// frame-local DataFrame of the paused cell; over ZeroMQ and over a
// Jupyter Server's websocket.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

const debugCell = `import pandas as pd
def f():
    local_df = pd.DataFrame({'a': [1, 2, 3], 'b': list('xyz')})
    n = len(local_df)
    return n
result = f()
`

// debugRequest sends one DAP request and decodes its body.
func debugRequest(t *testing.T, ctx context.Context, c *Client, cmd string, args, body any) {
	t.Helper()
	r, err := c.Debug(ctx, cmd, args)
	if err != nil {
		t.Fatalf("debug %s: %v", cmd, err)
	}
	if body != nil && len(r.Body) > 0 {
		if err := json.Unmarshal(r.Body, body); err != nil {
			t.Fatalf("debug %s body %s: %v", cmd, r.Body, err)
		}
	}
}

// debugScenario: lab drives the debugger and runs the cell; insp, another
// client of the same kernel, inspects the paused frame.
func debugScenario(t *testing.T, lab, insp *Client) {
	ctx := testCtx(t, 120*time.Second)
	events := insp.Subscribe()
	defer events.Close()

	// Before the debugger starts, a debug request says so.
	if _, err := lab.Debug(ctx, "stackTrace", map[string]any{"threadId": 1}); err == nil {
		t.Error("stackTrace before initialize succeeded")
	}
	debugRequest(t, ctx, lab, "initialize", map[string]any{"clientID": "jupyterlab-like", "adapterID": "python",
		"pathFormat": "path", "linesStartAt1": true, "columnsStartAt1": true, "supportsVariableType": true}, nil)
	debugRequest(t, ctx, lab, "attach", map[string]any{}, nil)
	var info struct {
		IsStarted      bool  `json:"isStarted"`
		StoppedThreads []int `json:"stoppedThreads"`
	}
	debugRequest(t, ctx, lab, "debugInfo", nil, &info)
	if !info.IsStarted {
		t.Fatalf("debugInfo after attach: %+v", info)
	}
	var dumped struct {
		SourcePath string `json:"sourcePath"`
	}
	debugRequest(t, ctx, lab, "dumpCell", map[string]any{"code": debugCell}, &dumped)
	var bps struct {
		Breakpoints []struct {
			Verified bool `json:"verified"`
			Line     int  `json:"line"`
		} `json:"breakpoints"`
	}
	debugRequest(t, ctx, lab, "setBreakpoints", map[string]any{"source": map[string]any{"path": dumped.SourcePath},
		"breakpoints": []map[string]any{{"line": 4}}, "sourceModified": false}, &bps)
	if len(bps.Breakpoints) != 1 || !bps.Breakpoints[0].Verified {
		t.Fatalf("setBreakpoints: %+v", bps)
	}
	debugRequest(t, ctx, lab, "configurationDone", nil, nil)

	ran := make(chan error, 1)
	go func() {
		_, err := lab.Execute(ctx, debugCell, ExecOptions{Visible: true})
		ran <- err
	}()
	e := waitEvent(t, ctx, events, "the stopped event", func(e Event) bool {
		d, ok := e.DebugEvent()
		return ok && d.Event == "stopped"
	})
	d, _ := e.DebugEvent()
	var stopped struct {
		ThreadID int    `json:"threadId"`
		Reason   string `json:"reason"`
	}
	_ = json.Unmarshal(d.Body, &stopped)
	if stopped.Reason != "breakpoint" {
		t.Errorf("stopped: %s", d.Body)
	}
	st := insp.State()
	if st.Execution != StateBusy || !st.Paused {
		t.Errorf("state while paused = %+v, want busy and paused", st)
	}
	// The shell is held by the paused cell: a namespace evaluation says so
	// at once and points at the frame.
	var be *BusyError
	if _, err := insp.Evaluate(ctx, "'x'", CallOptions{}); !errors.As(err, &be) || !be.Paused {
		t.Errorf("Evaluate while paused: %v, want *BusyError with Paused", err)
	}
	var trace struct {
		StackFrames []struct {
			ID     int    `json:"id"`
			Name   string `json:"name"`
			Line   int    `json:"line"`
			Source struct {
				Path string `json:"path"`
			} `json:"source"`
		} `json:"stackFrames"`
	}
	debugRequest(t, ctx, insp, "stackTrace", map[string]any{"threadId": stopped.ThreadID}, &trace)
	if len(trace.StackFrames) == 0 || trace.StackFrames[0].Name != "f" || trace.StackFrames[0].Line != 4 ||
		trace.StackFrames[0].Source.Path != dumped.SourcePath {
		t.Fatalf("stackTrace: %+v", trace)
	}
	got, err := insp.EvaluateInFrame(ctx, trace.StackFrames[0].ID,
		"__import__('json').dumps({'shape': list(local_df.shape), 'cols': list(local_df.columns), 'long': 'y' * 5000})")
	var frame struct {
		Shape []int    `json:"shape"`
		Cols  []string `json:"cols"`
		Long  string   `json:"long"`
	}
	if err != nil || json.Unmarshal([]byte(got), &frame) != nil || len(frame.Shape) != 2 || frame.Shape[0] != 3 ||
		len(frame.Cols) != 2 || len(frame.Long) != 5000 {
		t.Fatalf("EvaluateInFrame of a frame-local DataFrame = %.200q, %v", got, err)
	}
	// The debugging client keeps working, then resumes.
	var scopes struct {
		Scopes []struct {
			Name string `json:"name"`
		} `json:"scopes"`
	}
	debugRequest(t, ctx, lab, "scopes", map[string]any{"frameId": trace.StackFrames[0].ID}, &scopes)
	if len(scopes.Scopes) == 0 {
		t.Errorf("scopes: %+v", scopes)
	}
	debugRequest(t, ctx, lab, "continue", map[string]any{"threadId": stopped.ThreadID}, nil)
	if err := <-ran; err != nil {
		t.Fatalf("the debugged cell: %v", err)
	}
	if err := insp.WaitIdle(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := insp.EvaluateRepr(ctx, "result", CallOptions{}); err != nil || v != "3" {
		t.Errorf("result after the cell = %q, %v", v, err)
	}
	if st := insp.State(); st.Paused {
		t.Errorf("still paused after the cell: %+v", st)
	}
	debugRequest(t, ctx, lab, "disconnect", map[string]any{"restart": false, "terminateDebuggee": false}, nil)
}

func TestDebuggerOverControl(t *testing.T) {
	k := startKernel(t)
	debugScenario(t, k.dial(t, Options{}), k.dial(t, Options{}))
}

func TestDebuggerOverServer(t *testing.T) {
	js := startServer(t)
	id := js.startNotebook(t, "debug.ipynb")
	srv := js.client(t)
	debugScenario(t, dialServer(t, srv, id), dialServer(t, srv, id))
}

func dialServer(t *testing.T, srv *Server, id string) *Client {
	t.Helper()
	c, err := srv.Dial(testCtx(t, 60*time.Second), id, Options{Logger: testLogger()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}
