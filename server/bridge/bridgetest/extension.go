// Package bridgetest is the extension's side of the bridge, for tests (as
// daptest is an editor's side of DAP): an Extension answers the bridge's
// DAP requests the way the dapscope extension runs them with VS Code's
// session.customRequest, and records them. Its answers come from a script,
// from a real session (OnSession), or from a real adapter that a scripted
// VS Code drives (vscode.go: VSCode, which also plays the extension's
// tracker). The bridge's tests use an Extension as the bridge's Editor;
// the fake editor of the channel's tests (editor/editortest) answers
// dapscope/dapRequest with one.
//
// This file holds the Extension, its requests, and OnSession.
package bridgetest

import (
	"context"
	"encoding/json"
	"slices"
	"sync"

	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/session"
)

// Request is one DAP request the bridge sent to the editor.
type Request struct {
	VSCodeSessionID string
	Command         string
	Arguments       json.RawMessage // as sent; empty: none
}

// Args decodes the arguments into a map (nil when there are none).
func (r Request) Args() map[string]any {
	var m map[string]any
	_ = json.Unmarshal(r.Arguments, &m)
	return m
}

// Answer runs one request in the editor's session and returns its
// response body; an error is the editor's refusal (customRequest's
// rejection), whose message the bridge sees.
type Answer func(ctx context.Context, r Request) (json.RawMessage, error)

// Extension answers the bridge's requests with Answer and records them.
// It is a bridge.Editor.
type Extension struct {
	// Answer runs each request; nil refuses every request.
	Answer Answer

	mu sync.Mutex
	// beforeReply runs after a request is answered and before the answer
	// goes back (the tracker's events overtaking customRequest's promise).
	beforeReply func(r Request)
	calls       []Request
}

var _ bridge.Editor = (*Extension)(nil)

// DAPRequest runs one request (bridge.Editor): it is recorded, answered by
// Answer, and an error comes back as the editor's (*bridge.EditorError).
func (x *Extension) DAPRequest(ctx context.Context, vscodeSessionID, command string, args any) (json.RawMessage, error) {
	r := Request{VSCodeSessionID: vscodeSessionID, Command: command}
	if args != nil {
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		if string(raw) != "null" {
			r.Arguments = raw
		}
	}
	return x.Run(ctx, r)
}

// Run records r and answers it (as DAPRequest does).
func (x *Extension) Run(ctx context.Context, r Request) (json.RawMessage, error) {
	x.mu.Lock()
	x.calls = append(x.calls, r)
	answer, before := x.Answer, x.beforeReply
	x.mu.Unlock()
	var body json.RawMessage
	var err error
	if answer == nil {
		err = &bridge.EditorError{Message: "dapscope bridge: no session answers " + r.Command}
	} else {
		body, err = answer(ctx, r)
	}
	if before != nil {
		before(r)
	}
	if err != nil {
		return nil, &bridge.EditorError{Message: err.Error()}
	}
	return body, nil
}

// BeforeReply sets a function run after each request is answered and
// before its answer goes back (nil: none).
func (x *Extension) BeforeReply(f func(r Request)) {
	x.mu.Lock()
	x.beforeReply = f
	x.mu.Unlock()
}

// Calls returns the requests so far, in order.
func (x *Extension) Calls() []Request {
	x.mu.Lock()
	defer x.mu.Unlock()
	return slices.Clone(x.calls)
}

// Commands returns the commands of the requests so far, in order.
func (x *Extension) Commands() []string {
	var out []string
	for _, c := range x.Calls() {
		out = append(out, c.Command)
	}
	return out
}

// Expressions returns the expressions of the evaluates so far, in order.
func (x *Extension) Expressions() []string {
	var out []string
	for _, c := range x.Calls() {
		if e, ok := c.Args()["expression"].(string); c.Command == "evaluate" && ok {
			out = append(out, e)
		}
	}
	return out
}

// Body is a scripted answer's body: v as JSON (nil: an empty body, as VS
// Code's customRequest gives for a response without one).
func Body(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	return json.Marshal(v)
}

// OnSession answers each request by running it on s, as the extension runs
// it on the editor's session; ids (nil: none) renumbers threads and frames
// as js-debug does.
func OnSession(s *session.Session, ids *JSDebugIDs) Answer {
	return func(ctx context.Context, r Request) (json.RawMessage, error) {
		var args any
		if len(r.Arguments) > 0 {
			args = r.Arguments
			if ids != nil {
				a, err := ids.Args(r.Arguments)
				if err != nil {
					return nil, err
				}
				args = a
			}
		}
		var body json.RawMessage
		if err := s.Request(ctx, r.Command, args, &body); err != nil {
			return nil, err
		}
		if ids != nil {
			body = ids.Body(r.Command, body)
		}
		return body, nil
	}
}
