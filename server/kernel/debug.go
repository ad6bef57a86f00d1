// debug.go: the kernel's debugger, as JupyterLab drives it: DAP requests
// in debug_request messages on the control channel (answered while a cell
// runs or is paused), DAP events in debug_event messages on IOPub, and an
// evaluation in a paused frame that returns a string whole.

package kernel

import (
	"context"
	"encoding/json"
	"fmt"
)

// DebugResponse is the DAP response carried by a debug_reply.
type DebugResponse struct {
	Seq        int             `json:"seq"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Command    string          `json:"command"`
	Message    string          `json:"message,omitempty"`
	Body       json.RawMessage `json:"body,omitempty"`
}

// DebugError is a DAP request the kernel's debugger refused.
type DebugError struct {
	Command string
	Message string
}

func (e *DebugError) Error() string {
	if e.Message == "" {
		return "debugger: " + e.Command + " failed"
	}
	return "debugger: " + e.Command + ": " + e.Message
}

type dapRequest struct {
	Seq       int64  `json:"seq"`
	Type      string `json:"type"`
	Command   string `json:"command"`
	Arguments any    `json:"arguments"`
}

// Debug sends one DAP request to the kernel's debugger (debug_request on
// the control channel) and returns its response; an unsuccessful response
// is a *DebugError. Events arrive on subscriptions (Event.DebugEvent).
func (c *Client) Debug(ctx context.Context, command string, args any) (*DebugResponse, error) {
	if args == nil {
		args = struct{}{}
	}
	req := dapRequest{Seq: c.dapSeq.Add(1), Type: "request", Command: command, Arguments: args}
	a, err := c.do(ctx, call{channel: ChannelControl, msgType: "debug_request", content: req})
	if err != nil {
		return nil, err
	}
	var resp DebugResponse
	if err := json.Unmarshal(a.reply.Content, &resp); err != nil {
		return nil, fmt.Errorf("%s: debug_reply is not a DAP response: %w", c.name, err)
	}
	if resp.Command == "" && !resp.Success {
		// ipykernel answers {} to a request it does not handle: its
		// debugger is not started, or it has none (kernel_info's
		// "debugger" says so from protocol 5.5; ipykernel 6.17 only says it
		// in its kernelspec).
		return nil, &DebugError{Command: command, Message: "no answer from the kernel's debugger: it is not started (send initialize and attach first) or the kernel has none"}
	}
	if !resp.Success {
		return &resp, &DebugError{Command: command, Message: resp.Message}
	}
	switch command {
	case "continue", "next", "stepIn", "stepOut", "disconnect":
		// debugpy sends no continued event for a resumption it was asked
		// for: the thread runs from now.
		c.mu.Lock()
		c.track.stopped = map[int]bool{}
		c.notifyLocked()
		c.mu.Unlock()
	}
	return &resp, nil
}

// EvaluateInFrame evaluates expr in a paused frame of the kernel's
// debugger and returns its value's string whole (debugpy's rawString
// format: a str comes back as it is, not as a clipped repr).
func (c *Client) EvaluateInFrame(ctx context.Context, frameID int, expr string) (string, error) {
	args := map[string]any{
		"expression": expr,
		"frameId":    frameID,
		"context":    "repl",
		"format":     map[string]any{"rawString": true},
	}
	resp, err := c.Debug(ctx, "evaluate", args)
	if err != nil {
		return "", err
	}
	var body struct {
		Result string `json:"result"`
	}
	if err := json.Unmarshal(resp.Body, &body); err != nil {
		return "", fmt.Errorf("%s: evaluate response: %w", c.name, err)
	}
	return body.Result, nil
}

// observeDebug follows stopped and continued debug events.
func (t *tracker) observeDebug(m *Message) {
	var ev struct {
		Event string `json:"event"`
		Body  struct {
			ThreadID            int  `json:"threadId"`
			AllThreadsContinued bool `json:"allThreadsContinued"`
		} `json:"body"`
	}
	if json.Unmarshal(m.Content, &ev) != nil {
		return
	}
	switch ev.Event {
	case "stopped":
		t.stopped[ev.Body.ThreadID] = true
	case "continued":
		if ev.Body.AllThreadsContinued {
			t.stopped = map[int]bool{}
		} else {
			delete(t.stopped, ev.Body.ThreadID)
		}
	case "terminated", "exited":
		t.stopped = map[int]bool{}
	}
}

// learnStopped records threads the debugger reports stopped (debugInfo's
// stoppedThreads) when no stopped event was seen: a client that attached
// while a cell was already paused.
func (c *Client) learnStopped(threads []int) {
	if len(threads) == 0 {
		return
	}
	c.mu.Lock()
	for _, t := range threads {
		c.track.stopped[t] = true
	}
	c.notifyLocked()
	c.mu.Unlock()
}
