// calls.go: the requests a client makes: kernel_info, the silent and
// traceless evaluation of an expression (user_expressions of an empty
// silent execute_request), a silent execute that gathers its outputs,
// Jupyter's own inspect_request, and interrupt.

package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// KernelInfo asks the kernel for its info on the control channel, which
// ipykernel answers even while a cell runs.
func (c *Client) KernelInfo(ctx context.Context) (KernelInfo, error) {
	a, err := c.do(ctx, call{channel: ChannelControl, msgType: "kernel_info_request", content: struct{}{}})
	if err != nil {
		return KernelInfo{}, err
	}
	if err := c.learnInfo(a.reply); err != nil {
		return KernelInfo{}, err
	}
	return c.Info(), nil
}

// executeRequest is an execute_request's content.
type executeRequest struct {
	Code            string            `json:"code"`
	Silent          bool              `json:"silent"`
	StoreHistory    bool              `json:"store_history"`
	UserExpressions map[string]string `json:"user_expressions"`
	AllowStdin      bool              `json:"allow_stdin"`
	StopOnError     bool              `json:"stop_on_error"`
}

// executeReply is an execute_reply's content.
type executeReply struct {
	Status          string                     `json:"status"`
	ExecutionCount  int                        `json:"execution_count"`
	EName           string                     `json:"ename"`
	EValue          string                     `json:"evalue"`
	Traceback       []string                   `json:"traceback"`
	UserExpressions map[string]json.RawMessage `json:"user_expressions"`
}

// userExpression is one user_expressions result.
type userExpression struct {
	Status    string         `json:"status"`
	Data      map[string]any `json:"data"`
	EName     string         `json:"ename"`
	EValue    string         `json:"evalue"`
	Traceback []string       `json:"traceback"`
}

// EvaluateRepr evaluates expr in the kernel's user namespace without a
// trace: an empty, silent execute_request that stores no history, allows
// no stdin, and carries expr in user_expressions. It returns the value's
// text/plain representation (a Python repr). An exception is an *EvalError.
func (c *Client) EvaluateRepr(ctx context.Context, expr string, o CallOptions) (string, error) {
	content := executeRequest{
		Silent:          true,
		UserExpressions: map[string]string{"v": expr},
	}
	r, _, err := c.execute(ctx, call{channel: ChannelShell, msgType: "execute_request", content: content, busyCheck: true, wait: o.Wait, silentCall: true}, true)
	if err != nil {
		return "", err
	}
	return c.userExpression(r)
}

// Evaluate is EvaluateRepr for an expression whose value is a str: it
// returns the string itself (the repr decoded exactly).
func (c *Client) Evaluate(ctx context.Context, expr string, o CallOptions) (string, error) {
	text, err := c.EvaluateRepr(ctx, expr, o)
	if err != nil {
		return "", err
	}
	s, err := decodePyStr(text)
	if err != nil {
		return "", fmt.Errorf("%s: the value is not a str (its text/plain is %s): %w", c.name, clipText(text, 80), err)
	}
	return s, nil
}

// execute sends an execute_request. A silent one that the kernel
// answers "aborted" never ran: ipykernel drops what arrives right after a
// cell failed (stop_on_error), so it is sent again (up to three times).
func (c *Client) execute(ctx context.Context, k call, silent bool) (*executeReply, []*Message, error) {
	for attempt := 1; ; attempt++ {
		if k.silentCall {
			k.subshell = c.silentShell(ctx) // subshell.go
		}
		a, err := c.do(ctx, k)
		if err != nil {
			return nil, nil, err
		}
		var r executeReply
		if err := json.Unmarshal(a.reply.Content, &r); err != nil {
			return nil, nil, fmt.Errorf("%s: execute_reply: %w", c.name, err)
		}
		if k.subshell != "" && unknownSubshell(&r) && attempt < 3 {
			c.forgetSubshell(k.subshell) // the kernel lost it (a restart): make another
			continue
		}
		if r.Status != "aborted" || !silent || attempt == 3 {
			return &r, a.outputs, nil
		}
		t := time.NewTimer(time.Duration(attempt) * 50 * time.Millisecond)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, nil, ctx.Err()
		case <-t.C:
		}
	}
}

func (c *Client) languageName() string {
	if l := c.Info().Language(); l != "" {
		return l
	}
	return "unknown-language"
}

// ExecOptions apply to Execute.
type ExecOptions struct {
	CallOptions
	// Visible runs the code as a user's cell: not silent, stored in the
	// history, with an execution count and execute_input on IOPub. Off,
	// the execution is silent and stores nothing (still, what the code
	// prints is published on IOPub, with this client's request as parent).
	Visible bool
}

// ExecResult is what an execution produced.
type ExecResult struct {
	Status         string // ok, error, aborted
	ExecutionCount int
	Stdout         string
	Stderr         string
	// Result is the execute_result's data by MIME type (visible runs).
	Result map[string]any
	// Displays are display_data outputs' data by MIME type.
	Displays []map[string]any
	Error    *EvalError
}

// Execute runs code and gathers its outputs (until the kernel's idle
// status for it). An exception raised by the code is returned both in
// ExecResult.Error and as the error.
func (c *Client) Execute(ctx context.Context, code string, o ExecOptions) (*ExecResult, error) {
	content := executeRequest{Code: code, Silent: !o.Visible, StoreHistory: o.Visible, UserExpressions: map[string]string{}, StopOnError: o.Visible}
	r, outputs, err := c.execute(ctx, call{channel: ChannelShell, msgType: "execute_request", content: content, collect: true, busyCheck: true, wait: o.Wait, silentCall: !o.Visible}, !o.Visible)
	if err != nil {
		return nil, err
	}
	res := &ExecResult{Status: r.Status, ExecutionCount: r.ExecutionCount}
	var out, errOut strings.Builder
	for _, m := range outputs {
		var body struct {
			Name string         `json:"name"`
			Text string         `json:"text"`
			Data map[string]any `json:"data"`
		}
		_ = json.Unmarshal(m.Content, &body)
		switch m.Header.MsgType {
		case "stream":
			if body.Name == "stderr" {
				errOut.WriteString(body.Text)
			} else {
				out.WriteString(body.Text)
			}
		case "execute_result":
			res.Result = body.Data
		case "display_data":
			res.Displays = append(res.Displays, body.Data)
		}
	}
	res.Stdout, res.Stderr = out.String(), errOut.String()
	if r.Status == "error" {
		res.Error = &EvalError{Name: r.EName, Value: r.EValue, Traceback: r.Traceback}
		return res, res.Error
	}
	if r.Status != "ok" {
		return res, statusError(c.name, "execution", r.Status)
	}
	return res, nil
}

// statusError is an execute_reply's status other than ok or error:
// ErrAborted for "aborted".
func statusError(kernel, what, status string) error {
	if status == "aborted" {
		return fmt.Errorf("%s: the %s: %w", kernel, what, ErrAborted)
	}
	return fmt.Errorf("%s: the kernel answered %q to the %s", kernel, status, what)
}

// InspectResult is Jupyter's inspect_reply.
type InspectResult struct {
	Found bool           `json:"found"`
	Data  map[string]any `json:"data"`
}

// Inspect is Jupyter's own inspect_request (what a notebook shows for
// Shift-Tab): the object at cursorPos in code, at detail level 0 or 1.
func (c *Client) Inspect(ctx context.Context, code string, cursorPos, detail int, o CallOptions) (*InspectResult, error) {
	content := map[string]any{"code": code, "cursor_pos": cursorPos, "detail_level": detail}
	a, err := c.do(ctx, call{channel: ChannelShell, msgType: "inspect_request", content: content, busyCheck: true, wait: o.Wait})
	if err != nil {
		return nil, err
	}
	var r struct {
		Status string `json:"status"`
		InspectResult
		EName  string `json:"ename"`
		EValue string `json:"evalue"`
	}
	if err := json.Unmarshal(a.reply.Content, &r); err != nil {
		return nil, fmt.Errorf("%s: inspect_reply: %w", c.name, err)
	}
	if r.Status != "ok" {
		return nil, &EvalError{Name: r.EName, Value: r.EValue}
	}
	return &r.InspectResult, nil
}

// Interrupt asks the kernel to interrupt the running cell
// (interrupt_request on the control channel).
func (c *Client) Interrupt(ctx context.Context) error {
	a, err := c.do(ctx, call{channel: ChannelControl, msgType: "interrupt_request", content: struct{}{}})
	if err != nil {
		return err
	}
	var r struct {
		Status string `json:"status"`
	}
	_ = json.Unmarshal(a.reply.Content, &r)
	if r.Status != "" && r.Status != "ok" {
		return fmt.Errorf("%s: interrupt_request answered %q", c.name, r.Status)
	}
	return nil
}
