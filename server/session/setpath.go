// setpath.go: assignment below the top level of a frame — `setExpression`
// where the adapter has it (debugpy), `setVariable` on a container's child
// otherwise (Delve) — for paths such as self.rows_seen, cfg['limit'],
// items[0].qty, s.Name and m["k"].

package session

import (
	"context"
	"encoding/json"

	godap "github.com/google/go-dap"
)

// SupportsSetExpression reports the adapter's supportsSetExpression.
func (s *Session) SupportsSetExpression() bool {
	var c struct {
		SetExpression bool `json:"supportsSetExpression"`
	}
	_ = json.Unmarshal(s.mux.State().Capabilities, &c)
	return c.SetExpression
}

// SetExpression assigns value to expr in the frame (0: the top frame) and
// returns the new value.
func (s *Session) SetExpression(ctx context.Context, frameID int, expr, value string) (string, error) {
	frameID, err := s.frameOrTop(ctx, frameID)
	if err != nil {
		return "", err
	}
	var b godap.SetExpressionResponseBody
	if err := s.call(ctx, "setExpression", godap.SetExpressionArguments{Expression: expr, Value: value, FrameId: frameID}, &b); err != nil {
		return "", evaluationError(err)
	}
	return b.Value, nil
}

// SetChild assigns value to the child name of the container ref and
// returns the new value.
func (s *Session) SetChild(ctx context.Context, ref int, name, value string) (string, error) {
	var b godap.SetVariableResponseBody
	if err := s.call(ctx, "setVariable", godap.SetVariableArguments{VariablesReference: ref, Name: name, Value: value}, &b); err != nil {
		return "", evaluationError(err)
	}
	return b.Value, nil
}
