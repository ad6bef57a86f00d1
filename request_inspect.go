// request_inspect.go: the sidecar's custom DAP request dapscope/inspect —
// an editor asks the smart inspector about an expression in a frame of the
// session it debugs through the proxy (wired in customRequests, wiring.go).

package main

import (
	"context"
	"encoding/json"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// inspectRequestArgs are the arguments of the custom DAP request
// dapscope/inspect: {"expression": "df", "frameId": 0, "options": {...}}.
type inspectRequestArgs struct {
	Expression string          `json:"expression"`
	FrameID    int             `json:"frameId,omitempty"`
	Options    inspect.Options `json:"options"`
}

func inspectRequest(ctx context.Context, s *session.Session, raw json.RawMessage) (any, error) {
	var a inspectRequestArgs
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &a); err != nil {
			return nil, &errcode.Error{Code: errcode.InvalidArgument, Message: "dapscope/inspect arguments: " + err.Error()}
		}
	}
	return inspect.Inspect(ctx, s, a.FrameID, a.Expression, a.Options)
}
