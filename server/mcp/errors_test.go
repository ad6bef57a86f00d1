// errors_test.go: strict input schemas (unknown fields named, wrong types,
// missing required fields, enums, numeric strings) and every error code a
// tool can return, with hints; wait timeouts with progress notifications,
// pause, and cancellation honoured by the server.

package mcp

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestSchemasAndErrors(t *testing.T) {
	t.Parallel()
	a, srv := newHTTPAgent(t, Options{})

	expect := func(e errcode.Error, code errcode.Code, field, msg string) {
		t.Helper()
		if e.Code != code || e.Field != field || !strings.Contains(e.Message, msg) {
			t.Fatalf("error = %+v; want %s on %q containing %q", e, code, field, msg)
		}
	}
	// No session yet.
	e := a.fail("debug_wait", nil)
	expect(e, errcode.NotFound, "session_id", "no active session")
	if !strings.Contains(e.Hint, "debug_launch") {
		t.Fatalf("hint = %q", e.Hint)
	}
	expect(a.fail("debug_stack", map[string]any{"session_id": "nope"}), errcode.NotFound, "session_id", `"nope"`)

	// Strict schemas.
	expect(a.fail("debug_evaluate", map[string]any{"expression": "1", "bogus": 1, "other": true}), errcode.InvalidArgument, "bogus", `unknown fields "bogus", "other" (allowed: session_id, expression`)
	expect(a.fail("debug_launch", map[string]any{"program": agentPy, "breakpoints": []any{map[string]any{"file": agentPy, "line": 3, "colour": "red"}}}),
		errcode.InvalidArgument, "breakpoints[0].colour", `unknown field "colour"`)
	expect(a.fail("debug_stack", map[string]any{"levels": "abc"}), errcode.InvalidArgument, "levels", `expected an integer, got string "abc"`)
	expect(a.fail("debug_stack", map[string]any{"levels": 2.5}), errcode.InvalidArgument, "levels", "expected an integer")
	expect(a.fail("debug_launch", map[string]any{"program": agentPy, "stop_on_entry": 5}), errcode.InvalidArgument, "stop_on_entry", "expected a boolean, got number 5")
	expect(a.fail("debug_launch", map[string]any{"program": agentPy, "breakpoints": "x"}), errcode.InvalidArgument, "breakpoints", "expected an array")
	expect(a.fail("debug_launch", map[string]any{"program": agentPy, "args": []any{1}}), errcode.InvalidArgument, "args[0]", "expected a string")
	expect(a.fail("debug_evaluate", map[string]any{}), errcode.InvalidArgument, "expression", "required")
	expect(a.fail("debug_step", map[string]any{"direction": "sideways"}), errcode.InvalidArgument, "direction", "must be one of over, in, out")
	expect(a.fail("debug_watch", map[string]any{}), errcode.InvalidArgument, "action", "required")
	expect(a.fail("debug_launch", map[string]any{"program": "testdata/mcp/missing.py"}), errcode.InvalidArgument, "program", "")
	expect(a.fail("debug_launch", map[string]any{"program": "../etc/passwd"}), errcode.InvalidArgument, "program", "")

	// A program that runs until paused.
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/mcp/sleeper.py", "wait": "false"}, &stop)
	if stop.Status != "running" {
		t.Fatalf("launch without wait = %+v", stop)
	}
	// A wait that times out reports running, with progress while it waited.
	ctx := testCtx(t)
	r, err := a.callCtx(ctx, "debug_wait", map[string]any{"timeout": "1.5"}, true)
	if err != nil || r.IsError {
		t.Fatalf("wait: %v %s", err, textOf(r))
	}
	decodeStructured(t, r, &stop)
	if stop.Status != "running" || !strings.Contains(stop.Hint, "debug_wait") || len(a.progressMessages()) == 0 {
		t.Fatalf("wait timeout = %+v, progress %v", stop, a.progressMessages())
	}
	// (the session reports "idle" until debugpy's first stop or continued event)
	expect(a.fail("debug_evaluate", map[string]any{"expression": "counter"}), errcode.NotPaused, "", "the debuggee is")
	e = a.fail("debug_inspect_variable", map[string]any{"expression": "counter"})
	if e.Code != errcode.NotPaused || e.State == "" || e.State == "paused" || e.Hint == "" {
		t.Fatalf("inspect while running = %+v", e)
	}
	expect(a.fail("debug_wait", map[string]any{"timeout": 601}), errcode.InvalidArgument, "timeout", "at most 600")

	// Cancellation: the client gives up on a long wait; the server stops waiting.
	cctx, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		_, err := a.callCtx(cctx, "debug_wait", map[string]any{"timeout": 120}, false)
		done <- err
	}()
	for srv.inflight.Load() == 0 {
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled wait returned no error")
	}
	for deadline := time.Now().Add(30 * time.Second); srv.inflight.Load() != 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server kept waiting after the request was cancelled")
		}
	}

	// Pause, then errors from the adapter and the session.
	a.call("debug_pause", nil, &stop)
	if stop.Status != "paused" || stop.Reason != "pause" {
		t.Fatalf("pause = %+v", stop)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "counter > 0"}, &ev)
	if ev.Result != "True" {
		t.Fatalf("evaluate after pause = %+v", ev)
	}
	e = a.fail("debug_evaluate", map[string]any{"expression": "undefined_name_xyz", "context": "watch"})
	// Issue 13.5: the program's exception, with its type; not the adapter's error.
	if e.Code != errcode.EvaluationError || !strings.HasPrefix(e.Message, "NameError: ") || !strings.Contains(e.Message, "undefined_name_xyz") || e.Hint == "" {
		t.Fatalf("evaluate undefined = %+v", e)
	}
	expect(a.fail("debug_evaluate", map[string]any{"expression": "time.sleep(1.5) or 1", "timeout": 0.3}), errcode.Timeout, "timeout", "did not finish")
	expect(a.fail("debug_set_variable", map[string]any{"name": "nope", "value": "1"}), errcode.NotFound, "name", "no variable nope")
	expect(a.fail("debug_watch", map[string]any{"action": "remove", "id": "w99"}), errcode.NotFound, "id", "no such watch")
	expect(a.fail("debug_snapshot", map[string]any{"action": "delete", "id": "s99"}), errcode.NotFound, "id", "no snapshot")
	expect(a.fail("debug_diff", map[string]any{"from": "s99"}), errcode.NotFound, "from", "no snapshot")
	expect(a.fail("debug_output", map[string]any{"limit": 100000}), errcode.InvalidArgument, "limit", "must be 1..")
	expect(a.fail("debug_variables", map[string]any{"depth": 3}), errcode.InvalidArgument, "depth", "1 or 2")
	expect(a.fail("debug_variables", map[string]any{"scope": "Nowhere"}), errcode.NotFound, "scope", "no scope")
	// Delve cannot build a directory without Go files: a launch failure.
	t0 := time.Now()
	e = a.fail("debug_launch", map[string]any{"adapter": "dlv", "program": "testdata/mcp"})
	if e.Code != errcode.LaunchFailed || e.Hint == "" {
		t.Fatalf("dlv launch of no Go package = %+v", e)
	}
	t.Logf("launch failure in %v", time.Since(t0))
	a.call("debug_terminate", map[string]any{"session_id": stop.SessionID}, nil)
}
