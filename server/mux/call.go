// call.go: requests of the sidecar's internal clients (inspector,
// sessions, MCP): Do and Call send one request upstream with a seq from
// InternalSeqBase and wait for its response; the helpers that read the
// few arguments the mux needs (launch's program, a frameless evaluate).

package mux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dapscope/dapscope/server/dap"
)

// Do sends one request upstream for an internal client and waits for its
// response. ctx bounds the wait only: no cancel request is ever sent, and a
// response arriving later is discarded.
func (m *Mux) Do(ctx context.Context, command string, args any) (*dap.Response, error) {
	m.mu.Lock()
	if m.dead {
		m.mu.Unlock()
		return nil, ErrAdapterExited
	}
	if command == "cancel" && !m.state.SupportsCancel {
		m.mu.Unlock()
		return nil, fmt.Errorf("cancel: the adapter does not support cancellation")
	}
	if pausedCommands[command] && !m.state.Paused() && !framelessEvaluate(command, args) {
		st := m.state.Status
		m.mu.Unlock()
		return nil, &NotPausedError{Command: command, Status: st}
	}
	m.seq++
	seq := m.seq
	w := waiter{command: command, ch: make(chan *dap.Response, 1)}
	m.pending[seq] = w
	m.noteResumeLocked(command, seq)
	if !readOnly(ctx) {
		m.noteChangeLocked(command)
	}
	if command == "launch" {
		m.state.Program = programOf(args)
	}
	m.mu.Unlock()

	body, err := json.Marshal(dap.Request{Seq: seq, Type: "request", Command: command, Arguments: args})
	if err == nil {
		err = m.upW.WriteFrame(body)
	}
	if err != nil {
		m.forget(seq)
		if errors.Is(err, dap.ErrFrameTooLarge) {
			return nil, fmt.Errorf("%s: %w", command, err)
		}
		// A failed write means the adapter connection is broken.
		return nil, fmt.Errorf("%s: %w: %v", command, ErrAdapterExited, err)
	}
	select {
	case resp := <-w.ch:
		if resp.Type != "response" { // synthesized by shutdown
			return nil, fmt.Errorf("%s: %w", command, ErrAdapterExited)
		}
		return resp, nil
	case <-ctx.Done():
		m.forget(seq)
		return nil, ctx.Err()
	}
}

// Call is Do that turns an error response into an error and decodes the
// body into out (nil to discard).
func (m *Mux) Call(ctx context.Context, command string, args any, out any) error {
	resp, err := m.Do(ctx, command, args)
	if err != nil {
		return err
	}
	if err := dap.ResponseErr(resp); err != nil {
		return err
	}
	if out != nil && len(resp.Body) > 0 {
		if err := decodeBody(resp.Body, out); err != nil {
			return fmt.Errorf("%s: decoding response body: %w", command, err)
		}
	}
	return nil
}

// decodeBody decodes a response body into out. The body was validated as
// its message was read (dap.PeekBody), so an out that decodes itself
// (json.Unmarshaler: the probe's evaluate answer, kilobytes of escaped
// text) gets it without encoding/json's validating scan in front.
func decodeBody(body []byte, out any) error {
	if u, ok := out.(json.Unmarshaler); ok {
		return u.UnmarshalJSON(body)
	}
	return json.Unmarshal(body, out)
}

func (m *Mux) forget(seq int) {
	m.mu.Lock()
	delete(m.pending, seq)
	m.mu.Unlock()
}

// decodeArgs decodes request arguments given raw (editor traffic) or typed
// (internal calls) into the fields of a; what does not fit is left zero.
func decodeArgs(args any, a any) {
	raw, ok := args.(json.RawMessage)
	if !ok {
		raw, _ = json.Marshal(args)
	}
	_ = json.Unmarshal(raw, a)
}

// programOf digs the program (or module) out of launch arguments.
func programOf(args any) string {
	var a struct {
		Program string `json:"program"`
		Module  string `json:"module"`
	}
	decodeArgs(args, &a)
	if a.Program != "" {
		return a.Program
	}
	return a.Module
}

// framelessEvaluate: an evaluate without a frameId needs no stopped thread
// (debugpy runs it on its command thread, e.g. the undo of its first-stop
// fix when a session detaches from a running debuggee).
func framelessEvaluate(command string, args any) bool {
	if command != "evaluate" {
		return false
	}
	var a struct {
		FrameID int `json:"frameId"`
	}
	decodeArgs(args, &a)
	return a.FrameID == 0
}
