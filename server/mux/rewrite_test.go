// rewrite_test.go: the Rewriter hook against the in-memory adapter:
// wanted responses are replaced, everything else passes byte for byte,
// a slow, failing or panicking rewrite leaves the adapter's response, and
// messages keep their order behind a response being rewritten.

package mux

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
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

// replaceResult sets body.result of a response message.
func replaceResult(resp json.RawMessage, result string) []byte {
	var m map[string]any
	_ = json.Unmarshal(resp, &m)
	m["body"] = map[string]any{"result": result, "variablesReference": 0}
	b, _ := json.Marshal(m)
	return b
}

func startRewriting(t *testing.T, rw Rewriter, budget time.Duration) (*peer, *fakeAdapter, func()) {
	t.Helper()
	var fake *fakeAdapter
	m, fake, stop := startFakeWith(t, Options{Rewriter: rw, RewriteBudget: budget}, func(a *fakeAdapter, req map[string]any) bool {
		if req["command"] != "evaluate" {
			return false
		}
		args := req["arguments"].(map[string]any)
		a.respond(req, args["expression"] != "boom", map[string]any{"result": "plain " + args["expression"].(string), "variablesReference": 7})
		// An event right behind the response: it must reach the editor after it.
		a.event("output", map[string]any{"output": "after " + args["expression"].(string)})
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
	ed.send(t, map[string]any{"seq": 1, "type": "request", "command": "evaluate", "arguments": map[string]any{"expression": "df", "context": "hover", "frameId": 1}})
	resp := ed.recv(t)
	if resp["type"] != "response" || resp["request_seq"] != float64(1) || resp["body"].(map[string]any)["result"] != "smart" {
		t.Fatalf("want the rewritten response first, got %v", resp)
	}
	if ev := ed.recv(t); ev["event"] != "output" {
		t.Fatalf("want the output event after the response, got %v", ev)
	}
	// → evaluate (repl)  ← the adapter's response untouched
	ed.send(t, map[string]any{"seq": 2, "type": "request", "command": "evaluate", "arguments": map[string]any{"expression": "df", "context": "repl", "frameId": 1}})
	if resp := ed.recv(t); resp["body"].(map[string]any)["result"] != "plain df" {
		t.Fatalf("repl must pass untouched, got %v", resp)
	}
	ed.recv(t) // its output event
	// → evaluate (hover) that fails  ← the adapter's error, never rewritten
	ed.send(t, map[string]any{"seq": 3, "type": "request", "command": "evaluate", "arguments": map[string]any{"expression": "boom", "context": "hover", "frameId": 1}})
	if resp := ed.recv(t); resp["success"] != false || resp["body"].(map[string]any)["result"] != "plain boom" {
		t.Fatalf("a failed response must pass untouched, got %v", resp)
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
			for seq := 1; seq <= 3; seq++ {
				ed.send(t, map[string]any{"seq": seq, "type": "request", "command": "evaluate", "arguments": map[string]any{"expression": "x", "context": "hover", "frameId": 1}})
				resp := ed.recv(t)
				if resp["request_seq"] != float64(seq) || resp["body"].(map[string]any)["result"] != "plain x" || resp["body"].(map[string]any)["variablesReference"] != float64(7) {
					t.Fatalf("want the adapter's own response to %d, got %v", seq, resp)
				}
				if ev := ed.recv(t); ev["event"] != "output" || !strings.HasPrefix(ev["body"].(map[string]any)["output"].(string), "after") {
					t.Fatalf("want the output event after the response, got %v", ev)
				}
			}
		})
	}
}
