// bridged.go: the channel's side of the bridge (server/bridge), which
// makes the editor's own debug sessions (js-debug, the Python extension's
// debugpy, vscode-go) sessions of the sidecar: the extension's tracker
// reports them with the dapscope/bridgeEvent notification, and the
// bridge's DAP requests go back to the extension as dapscope/dapRequest
// calls, which it runs with session.customRequest.

package editor

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/dapscope/dapscope/server/bridge"
)

// DAPRequestParams are the dapscope/dapRequest parameters (sidecar →
// extension): a DAP request to run on one of the editor's sessions.
type DAPRequestParams struct {
	VSCodeSessionID string          `json:"vscodeSessionId"`
	Command         string          `json:"command"`
	Arguments       json.RawMessage `json:"arguments"`
}

// bridgeEvent hands a dapscope/bridgeEvent to the bridge.
func (s *Server) bridgeEvent(ctx context.Context, params json.RawMessage) {
	var ev bridge.Event
	if err := json.Unmarshal(params, &ev); err != nil || ev.VSCodeSessionID == "" {
		s.log.Warn("bad bridge event", "err", err)
		return
	}
	s.bridge.Handle(ev)
}

// dapRequest is the bridge's Editor: a dapscope/dapRequest call to the
// extension. The extension's JSON-RPC error is the editor's answer
// (*bridge.EditorError, the debug adapter's own words).
func (s *Server) dapRequest(ctx context.Context, vscodeSessionID, command string, args any) (json.RawMessage, error) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	if conn == nil {
		return nil, errors.New("the editor is not connected")
	}
	p := DAPRequestParams{VSCodeSessionID: vscodeSessionID, Command: command}
	if args != nil {
		raw, err := json.Marshal(args)
		if err != nil {
			return nil, err
		}
		p.Arguments = raw
	}
	var raw json.RawMessage
	if _, err := conn.Call(ctx, "dapscope/dapRequest", p, &raw); err != nil {
		var je *jsonrpc2.Error
		if errors.As(err, &je) {
			return nil, &bridge.EditorError{Message: je.Message}
		}
		return nil, err
	}
	return raw, nil
}
