// evaluate_output_test.go: debug_evaluate returns what the evaluation
// printed with its value (print(...) showed only "= None"), in its JSON
// and its text, on a real kernel (IOPub stream of dapscope's request) and
// under real debugpy (its output events during the evaluate); a 20 MB
// value on a kernel is cut there and the session goes on.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
)

func TestEvaluatePrintsOnAKernel(t *testing.T) {
	k := kerneltest.Start(t, "evalout")
	k.Run(t, "n = 42")
	a, _ := newHTTPAgent(t, Options{Kernels: kernel.ListOptions{RuntimeDir: k.Dir, NoProcesses: true}})
	a.call("kernel_attach", map[string]any{"kernel": "evalout"}, nil)

	var ev EvaluateResult
	r := a.call("debug_evaluate", map[string]any{"expression": "print('n is', n)"}, &ev)
	if ev.Result != "None" || ev.Output != "n is 42\n" {
		t.Errorf("debug_evaluate print = %+v, want None and its output", ev)
	}
	if text := textOf(r); !strings.Contains(text, "print('n is', n) = None\nprinted:\n```\nn is 42\n```") {
		t.Errorf("text:\n%s", text)
	}
	// A 20 MB value: cut in the kernel, with its size; the next call works.
	ev = EvaluateResult{}
	a.call("debug_evaluate", map[string]any{"expression": "'x' * 20_000_000"}, &ev)
	if !strings.HasSuffix(ev.Result, "[dapscope cut this representation: 20000002 characters in all]") || len(ev.Result) > kernel.ShownMax+100 {
		t.Errorf("a 20 MB value = %d bytes ending %q", len(ev.Result), ev.Result[max(0, len(ev.Result)-80):])
	}
	ev = EvaluateResult{}
	a.call("debug_evaluate", map[string]any{"expression": "n + 1"}, &ev)
	if ev.Result != "43" || ev.Output != "" {
		t.Errorf("the evaluate after it = %+v", ev)
	}
	// Printed, then raised: the error says what it printed.
	e := a.fail("debug_evaluate", map[string]any{"expression": "print('partial') or undefined_name"})
	if e.Code != errcode.EvaluationError || !strings.Contains(e.Message, "printed before it failed:\n```\npartial\n```") {
		t.Errorf("print then raise = %+v", e)
	}
}

func TestEvaluatePrintsUnderDebugpy(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	if stop := launchTo(t, a, prog, prog, "# STOP", nil); stop.Status != "paused" {
		t.Fatalf("stop = %+v", stop)
	}
	var ev EvaluateResult
	r := a.call("debug_evaluate", map[string]any{"expression": "print('rows', self.rows_seen)"}, &ev)
	if ev.Result != "" || ev.Output != "rows 19\n" { // debugpy's repl shows None as nothing
		t.Errorf("debug_evaluate print = %+v, want its output", ev)
	}
	if text := textOf(r); !strings.Contains(text, "printed:\n```\nrows 19\n```") {
		t.Errorf("text:\n%s", text)
	}
	ev = EvaluateResult{}
	a.call("debug_evaluate", map[string]any{"expression": "self.rows_seen + 1"}, &ev)
	if ev.Result != "20" || ev.Output != "" {
		t.Errorf("evaluate without printing = %+v", ev)
	}
}
