// dap_inspect.go: the custom DAP request "dapscope/inspect" that editors
// (and any DAP client of the proxy) send on their debug session; the
// sidecar answers it with the smart inspector and never forwards it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/session"
)

func init() { customHandlers["dapscope/inspect"] = dapInspect }

// dapInspectArgs are the request's arguments (DAP style camelCase for the
// frame and expression, the inspector's own options inline).
type dapInspectArgs struct {
	FrameID    int    `json:"frameId"`
	Expression string `json:"expression"`
	inspect.Options
}

// dapInspectBody is the response body: the result, and its rendering when a
// format other than json was asked for.
type dapInspectBody struct {
	Result *inspect.Result `json:"result"`
	Text   string          `json:"text,omitempty"`
}

// inspectError is an inspection failure as a DAP error response.
type inspectError struct{ err *inspect.Error }

func (e inspectError) Error() string {
	msg := e.err.Code + ": " + e.err.Message
	if e.err.Hint != "" {
		msg += " (" + e.err.Hint + ")"
	}
	return msg
}

func (e inspectError) DAPErrorID() int {
	switch e.err.Code {
	case "INVALID_STATE":
		return dap.ErrIDNotPaused
	case "INSPECTION_TIMEOUT":
		return dap.ErrIDTimeout
	}
	return dap.ErrIDBadArguments
}

func dapInspect(ctx context.Context, s *session.Session, raw json.RawMessage) (any, error) {
	var a dapInspectArgs
	if len(raw) > 0 {
		dec := json.NewDecoder(bytesReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&a); err != nil {
			return nil, fmt.Errorf("dapscope/inspect: bad arguments: %v", err)
		}
	}
	if err := a.Options.Normalize(); err != nil {
		return nil, fmt.Errorf("dapscope/inspect: %v", err)
	}
	res, err := inspect.Inspect(ctx, s, a.FrameID, a.Expression, a.Options)
	if err != nil {
		var ie *inspect.Error
		if errors.As(err, &ie) {
			return nil, inspectError{ie}
		}
		return nil, err
	}
	body := dapInspectBody{Result: res}
	if a.Format != "" && a.Format != "json" {
		if body.Text, err = inspect.Format(res, a.Format, 100); err != nil {
			return nil, err
		}
	}
	return body, nil
}
