// rewrite_test.go: the Rewriter hook against the in-memory adapter:
// wanted responses are replaced, everything else passes byte for byte,
// a slow, failing or panicking rewrite leaves the adapter's response, and
// messages keep their order behind a response being rewritten; a Preparer
// chooses on the read loop and leaves the rest untouched at once.

package mux

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

// hoverRewriter rewrites evaluate responses of hover context.
type hoverRewriter struct {
	do func(ctx context.Context, resp json.RawMessage) []byte
}

func (h hoverRewriter) Wants(command string, args json.RawMessage) bool {
	var a struct {
		Context string `json:"context"`
	}
	_ = json.Unmarshal(args, &a)
	return command == "evaluate" && a.Context == "hover"
}

func (h hoverRewriter) Rewrite(ctx context.Context, _ string, _, resp json.RawMessage) []byte {
	return h.do(ctx, resp)
}

// result is body.result of an evaluate response.
func result(m daptest.Msg) string {
	var b struct {
		Result string `json:"result"`
	}
	_ = json.Unmarshal(m.Body, &b)
	return b.Result
}

// replaceResult sets body.result of a response message.
func replaceResult(resp json.RawMessage, result string) []byte {
	var m map[string]any
	_ = json.Unmarshal(resp, &m)
	m["body"] = map[string]any{"result": result, "variablesReference": 0}
	b, _ := json.Marshal(m)
	return b
}

func startRewriting(t *testing.T, rw Rewriter, budget time.Duration) (*daptest.Client, *fakeAdapter, func()) {
	t.Helper()
	var fake *fakeAdapter
	m, fake, stop := startFakeWith(t, Options{Rewriter: rw, RewriteBudget: budget}, func(a *fakeAdapter, req daptest.Msg) bool {
		if req.Env.Command != "evaluate" {
			return false
		}
		var args struct {
			Expression string `json:"expression"`
		}
		_ = json.Unmarshal(req.Arguments, &args)
		a.respond(req, args.Expression != "boom", map[string]any{"result": "plain " + args.Expression, "variablesReference": 7})
		// An event right behind the response: it must reach the editor after it.
		a.event("output", map[string]any{"output": "after " + args.Expression})
		return true
	})
	ed, closeEd := attachEditor(t, m)
	return ed, fake, func() { closeEd(); stop() }
}

func TestRewriteHover(t *testing.T) {
	ed, _, stop := startRewriting(t, hoverRewriter{do: func(_ context.Context, resp json.RawMessage) []byte {
		return replaceResult(resp, "smart")
	}}, time.Second)
	defer stop()

	// → evaluate (hover)  ← the rewritten response, then ← output event
	seq := ed.Send("evaluate", map[string]any{"expression": "df", "context": "hover", "frameId": 1})
	if resp := ed.Recv(); !resp.IsResponse(seq) || result(resp) != "smart" {
		t.Fatalf("want the rewritten response first, got %s", resp)
	}
	if ev := ed.Recv(); !ev.IsEvent("output") {
		t.Fatalf("want the output event after the response, got %s", ev)
	}
	// → evaluate (repl)  ← the adapter's response untouched
	ed.Send("evaluate", map[string]any{"expression": "df", "context": "repl", "frameId": 1})
	if resp := ed.Recv(); result(resp) != "plain df" {
		t.Fatalf("repl must pass untouched, got %s", resp)
	}
	ed.Recv() // its output event
	// → evaluate (hover) that fails  ← the adapter's error, never rewritten
	ed.Send("evaluate", map[string]any{"expression": "boom", "context": "hover", "frameId": 1})
	if resp := ed.Recv(); resp.Success() || result(resp) != "plain boom" {
		t.Fatalf("a failed response must pass untouched, got %s", resp)
	}
}

func TestRewriteFallsBack(t *testing.T) {
	cases := map[string]func(ctx context.Context, resp json.RawMessage) []byte{
		"over budget": func(ctx context.Context, resp json.RawMessage) []byte {
			<-ctx.Done()
			time.Sleep(20 * time.Millisecond) // returns late: the result is dropped
			return replaceResult(resp, "too late")
		},
		"declined": func(context.Context, json.RawMessage) []byte { return nil },
		"panics":   func(context.Context, json.RawMessage) []byte { panic("rewriter bug") },
	}
	for name, do := range cases {
		t.Run(name, func(t *testing.T) {
			ed, _, stop := startRewriting(t, hoverRewriter{do: do}, 30*time.Millisecond)
			defer stop()
			for i := 0; i < 3; i++ {
				seq := ed.Send("evaluate", map[string]any{"expression": "x", "context": "hover", "frameId": 1})
				resp := ed.Recv()
				if !resp.IsResponse(seq) || !strings.Contains(string(resp.Body), `"result":"plain x","variablesReference":7`) {
					t.Fatalf("want the adapter's own response to %d, got %s", seq, resp)
				}
				if ev := ed.Recv(); !ev.IsEvent("output") || !strings.Contains(string(ev.Body), `"after x"`) {
					t.Fatalf("want the output event after the response, got %s", ev)
				}
			}
		})
	}
}

// preparingRewriter is a Rewriter that is also a Preparer: it chooses on
// the read loop (prepare); Rewrite must never be called.
type preparingRewriter struct {
	hoverRewriter
	prepare func(resp json.RawMessage) func(context.Context) []byte
}

func (p preparingRewriter) Rewrite(context.Context, string, json.RawMessage, json.RawMessage) []byte {
	panic("Rewrite called on a Preparer")
}

func (p preparingRewriter) Prepare(_ string, _, resp json.RawMessage) func(context.Context) []byte {
	return p.prepare(resp)
}

func TestRewritePrepared(t *testing.T) {
	rw := preparingRewriter{prepare: func(resp json.RawMessage) func(context.Context) []byte {
		switch {
		case strings.Contains(string(resp), `"plain df"`):
			return func(context.Context) []byte { return replaceResult(resp, "smart") }
		case strings.Contains(string(resp), `"plain bug"`):
			panic("preparer bug")
		}
		return nil // left alone: sent at once
	}}
	ed, _, stop := startRewriting(t, rw, time.Second)
	defer stop()
	// → evaluate (hover), four times  ← each response (rewritten or the adapter's), then ← its output event
	for _, c := range []struct{ expr, want string }{{"df", "smart"}, {"x", "plain x"}, {"bug", "plain bug"}, {"df", "smart"}} {
		seq := ed.Send("evaluate", map[string]any{"expression": c.expr, "context": "hover", "frameId": 1})
		if resp := ed.Recv(); !resp.IsResponse(seq) || result(resp) != c.want {
			t.Fatalf("%s: want the response %q first, got %s", c.expr, c.want, resp)
		}
		if ev := ed.Recv(); !ev.IsEvent("output") || !strings.Contains(string(ev.Body), `"after `+c.expr+`"`) {
			t.Fatalf("%s: want the output event after the response, got %s", c.expr, ev)
		}
	}
}
