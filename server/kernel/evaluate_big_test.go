//go:build linux

// evaluate_big_test.go: what an evaluation on a kernel session shows: a
// 20 MB value is cut in the kernel with a note of its full size (it
// wedged the session: the 20 MB response stopped the adapter's writer),
// the next call in the session works, and what the evaluation printed
// comes back with its value.

package kernel

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
)

func TestKernelSessionHugeEvaluate(t *testing.T) {
	k := startKernel(t)
	_, at := kernelSession(t, k, AttachSpec{})
	s := at.Session
	waitStop(t, s, 0)
	ctx := testCtx(t, 120*time.Second)
	v, _, err := s.EvaluateOutput(ctx, "'x'*20_000_000", 0, "")
	if err != nil {
		t.Fatalf("evaluate of a 20 MB string: %v", err)
	}
	note := fmt.Sprintf(shownNote, 20_000_002)
	if len(v.Result) > ShownMax+len(note) || !strings.HasPrefix(v.Result, "'xxx") || !strings.HasSuffix(v.Result, note) {
		t.Errorf("evaluate of a 20 MB string = %d bytes ending %q, want at most %d ending with the note %q",
			len(v.Result), clipText(v.Result[max(0, len(v.Result)-80):], 80), ShownMax+len(note), note)
	}
	// The session goes on: the next evaluate and a stack trace answer.
	if v, err := s.Evaluate(ctx, "1+1", 0, ""); err != nil || v.Result != "2" {
		t.Errorf("the evaluate after it = %+v, %v; want 2", v, err)
	}
	if _, err := s.StackTrace(ctx, NamespaceThread, 1); err != nil {
		t.Errorf("stackTrace after it: %v", err)
	}
	// A small value is as IPython shows it, whole.
	if v, err := s.Evaluate(ctx, "{'a': [1, 2]}  # a comment", 0, ""); err != nil || v.Result != "{'a': [1, 2]}" {
		t.Errorf("evaluate with a trailing comment = %+v, %v", v, err)
	}
	// What it printed comes back with the value, stdout and stderr in order.
	v, out, err := s.EvaluateOutput(ctx, "print('hello from', 6 * 7) or __import__('sys').stderr.write('warned\\n')", 0, "")
	if err != nil || v.Result != "7" {
		t.Fatalf("evaluate print = %+v, %v; want 7 (the stderr write's count)", v, err)
	}
	if out.Text != "hello from 42\nwarned\n" || !out.Stderr || out.Cut {
		t.Errorf("printed = %+v, want stdout then stderr", out)
	}
	// A flood of printing is cut to its head, with its size.
	_, out, err = s.EvaluateOutput(ctx, "print('y' * 100_000)", 0, "")
	if err != nil || !out.Cut || len(out.Text) > ShownOutputMax || out.Bytes != 100_001 || !strings.HasPrefix(out.Text, "yyy") {
		t.Errorf("printed 100 KB: %d bytes kept of %d, cut %v, err %v", len(out.Text), out.Bytes, out.Cut, err)
	}
	// An expression that prints then raises: the error, and the output.
	_, out, err = s.EvaluateOutput(ctx, "print('before') or 1/0", 0, "")
	if !errcode.Is(err, errcode.EvaluationError) || out.Text != "before\n" {
		t.Errorf("print then raise = %q, %v", out.Text, err)
	}
	if _, err := s.Evaluate(ctx, "x = 1", 0, ""); !errcode.Is(err, errcode.EvaluationError) || !strings.Contains(err.Error(), "SyntaxError") {
		t.Errorf("a statement: %v, want a SyntaxError", err)
	}
}

// TestKernelAdapterFrameOverTheCap: an answer over the DAP frame cap (a
// raw-string evaluate is returned whole) fails that request alone with
// LIMIT_EXCEEDED; the adapter's writer goes on (it stopped, and every
// later request of the session timed out).
func TestKernelAdapterFrameOverTheCap(t *testing.T) {
	k := startKernel(t)
	a := NewAdapter(k.dial(t, Options{}), AdapterOptions{Logger: testLogger()})
	conn := a.Conn()
	t.Cleanup(func() { _ = conn.Close() })
	a.Start()
	r, w := dap.NewReader(conn), dap.NewWriter(conn)
	r.SetLimit(64 << 20)
	go func() {
		for i, req := range []string{
			`{"seq":1,"type":"request","command":"evaluate","arguments":{"expression":"'x'*20_000_000","frameId":1073741824,"format":{"rawString":true}}}`,
			`{"seq":2,"type":"request","command":"evaluate","arguments":{"expression":"'after'","frameId":1073741824,"format":{"rawString":true}}}`,
		} {
			if err := w.WriteFrame([]byte(req)); err != nil {
				t.Errorf("request %d: %v", i+1, err)
			}
		}
	}()
	got := map[int]string{}
	deadline := time.Now().Add(60 * time.Second)
	for len(got) < 2 && time.Now().Before(deadline) {
		b, err := r.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		var m struct {
			Type       string `json:"type"`
			RequestSeq int    `json:"request_seq"`
		}
		_ = json.Unmarshal(b, &m)
		if m.Type == "response" {
			got[m.RequestSeq] = clipText(string(b), 400)
		}
	}
	if !strings.Contains(got[1], `"success":false`) || !strings.Contains(got[1], string(errcode.LimitExceeded)) {
		t.Errorf("the 20 MB raw evaluate answered %s, want LIMIT_EXCEEDED", got[1])
	}
	if !strings.Contains(got[2], `"result":"after"`) {
		t.Errorf("the evaluate after it answered %s, want its result", got[2])
	}
}
