//go:build linux

// adapter_test.go: kernel sessions against a real ipykernel: the namespace
// as a stopped thread (one frame, one scope of the user's variables as
// summaries), the smart inspector and evaluate on it, each user's cell a
// run and a stop ("after In[n]", what it raised), busy answers naming the
// cell, refusals saying what to use instead, and detaching that leaves the
// kernel working.

package kernel

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// kernelSession attaches a session of a new manager to k's kernel.
func kernelSession(t *testing.T, k *testKernel, spec AttachSpec) (*session.Manager, *Attached) {
	t.Helper()
	mgr := session.NewManager(session.ManagerOptions{Workspace: k.dir, Logger: testLogger()})
	t.Cleanup(func() { _ = mgr.Close() })
	if spec.ConnectionFile == "" && spec.Kernel == "" && spec.ServerURL == "" {
		spec.ConnectionFile = k.file
	}
	spec.Options.Logger = testLogger()
	ctx := testCtx(t, 60*time.Second)
	var at *Attached
	for {
		var err error
		if at, err = AttachSession(ctx, mgr, spec); err == nil {
			break
		}
		select {
		case <-k.done:
			t.Fatalf("kernel exited: %v\n%s", err, k.log())
		case <-ctx.Done():
			t.Fatalf("AttachSession: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
	return mgr, at
}

// userExecute runs a visible cell as the notebook's user does, again when
// the kernel aborted it: ipykernel drops what arrives right after a failed
// cell (a loaded machine makes that window long), and the user re-runs it.
func userExecute(ctx context.Context, user *Client, code string) (*ExecResult, error) {
	for attempt := 1; ; attempt++ {
		res, err := user.Execute(ctx, code, ExecOptions{Visible: true})
		if !errors.Is(err, ErrAborted) || attempt == 3 {
			return res, err
		}
	}
}

// waitStop waits for a stop of s newer than gen.
func waitStop(t *testing.T, s *session.Session, gen int) session.Stop {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		st, err := s.Wait(testCtx(t, 10*time.Second), time.Second)
		if err != nil {
			t.Fatal(err)
		}
		// The stop's own number: the count may move on between Wait's
		// answer and a look at it.
		if st.Location != nil && st.Gen > gen {
			return st
		}
	}
	t.Fatalf("no stop after generation %d (status %s)", gen, s.Status())
	return session.Stop{}
}

func TestKernelSessionNamespace(t *testing.T) {
	k := startKernel(t)
	user := k.dial(t, Options{})
	ctx := testCtx(t, 120*time.Second)
	run := func(code string) {
		t.Helper()
		if _, err := userExecute(ctx, user, code); err != nil {
			var ee *EvalError
			if !errors.As(err, &ee) {
				t.Fatalf("cell %q: %v", code, err)
			}
		}
	}
	run("import pandas as pd, numpy as np\ndf = pd.DataFrame({'price': [1.5, None, 3.0], 'city': ['a', 'b', None]})\nn = 42\ndef helper(): pass\nclass Plain: pass\n_private = 1")
	_, at := kernelSession(t, k, AttachSpec{})
	s := at.Session
	if got := s.Info().Adapter; got != "kernel" {
		t.Errorf("adapter kind = %q, want kernel", got)
	}
	st := waitStop(t, s, 0)
	if st.Location.Reason != "idle" || st.Location.Function != "namespace after In[1]" || st.Location.ThreadID != NamespaceThread {
		t.Errorf("first stop = %+v, want idle in 'namespace after In[1]'", st.Location)
	}
	// The namespace's variables: the user's only, as summaries.
	scopes, err := s.Scopes(ctx, 0)
	if err != nil || len(scopes) != 1 || scopes[0].Name != "Namespace" {
		t.Fatalf("scopes = %+v, %v", scopes, err)
	}
	vars, err := s.Variables(ctx, scopes[0].VariablesReference)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	byName := map[string]string{}
	for _, v := range vars {
		names = append(names, v.Name)
		byName[v.Name] = v.Value
	}
	if strings.Join(names, ",") != "df,n,_private" {
		t.Errorf("namespace variables = %v, want df, n, _private (no IPython names, modules, functions, classes)", names)
	}
	if !strings.HasPrefix(byName["df"], "DataFrame 3 × 2 · 1 null in each of price, city") || byName["n"] != "42" {
		t.Errorf("values = %v", byName)
	}
	// The smart inspector on the namespace.
	res, err := inspect.Inspect(ctx, s, 0, "df", inspect.Options{})
	if err != nil || res.DetectedType != "dataframe" || res.Structure == nil || len(res.Structure.Columns) != 2 {
		t.Fatalf("inspect df = %+v, %v", res, err)
	}
	ev, err := s.Evaluate(ctx, "n * 2", 0, "")
	if err != nil || ev.Result != "84" {
		t.Errorf("evaluate = %+v, %v", ev, err)
	}
	_, err = s.Evaluate(ctx, "missing_name", 0, "")
	if e := errcode.As(err); e == nil || e.Code != errcode.EvaluationError || !strings.HasPrefix(e.Message, "NameError") {
		t.Errorf("evaluate of a missing name: %v, want EVALUATION_ERROR NameError", err)
	}
	// A user's cell is a run and a stop; one that raises says so.
	gen := s.StopCount()
	run("n = n + 1\nz = 1/0")
	st = waitStop(t, s, gen)
	if st.Location.Description != "after In[2], which raised ZeroDivisionError: division by zero" || st.Location.Function != "namespace after In[2]" {
		t.Errorf("stop after a raising cell = %+v", st.Location)
	}
	// Refusals say what to use instead.
	for cmd, want := range map[string]string{"setBreakpoints": "belong to the notebook", "continue": "run the next cell", "pause": "interrupt the kernel in your notebook"} {
		err := s.Request(ctx, cmd, map[string]any{}, nil)
		if e := errcode.As(err); e == nil || e.Code != errcode.NotSupported || !strings.Contains(e.Message, want) {
			t.Errorf("%s: %v, want NOT_SUPPORTED with %q", cmd, err, want)
		}
	}
	// Busy: at once, with the cell and for how long.
	done := make(chan error, 1)
	go func() {
		_, err := userExecute(ctx, user, "import time\ntime.sleep(4)") // right after a failed cell
		done <- err
	}()
	deadline := time.Now().Add(20 * time.Second)
	for s.Status() != session.StatusRunning && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	_, err = inspect.Inspect(ctx, s, 0, "df", inspect.Options{})
	var cellErr error
	cellDone := false
	select {
	case cellErr = <-done:
		cellDone = true
		t.Error("the busy answer came only after the cell ended: it must come at once")
	default:
	}
	e := errcode.As(err)
	if e == nil || e.Code != errcode.NotPaused || e.State != StateBusyCode || !strings.Contains(e.Message, "cell [3] (import time") ||
		!strings.Contains(e.Message, "has been running for") {
		t.Errorf("inspect while a cell runs: %v, want NOT_PAUSED busy naming cell [3]", err)
	}
	if !cellDone {
		cellErr = <-done
	}
	if cellErr != nil {
		t.Fatal(cellErr)
	}
	// Detaching leaves the kernel working.
	if err := s.Terminate(ctx); err != nil {
		t.Fatal(err)
	}
	if v, err := user.EvaluateRepr(ctx, "n", CallOptions{Wait: 10 * time.Second}); err != nil || v != "43" {
		t.Errorf("the kernel after detaching: n = %q, %v", v, err)
	}
}
