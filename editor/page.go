// page.go: dapscope/page, the webview's data viewer request — a window of
// rows of the sorted, filtered view of a table in the debuggee, with the
// chosen columns (inspect.Browse: the probe's select(), one evaluate per
// page, the order cached in the debuggee per value, selection and stop).

package editor

import (
	"context"
	"encoding/json"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
)

// PageParams are the dapscope/page parameters: the value (as for
// dapscope/inspect) and the selection, flat: columns, rows {offset, limit},
// sort [{column, descending}], filter.
type PageParams struct {
	SessionID       string `json:"sessionId,omitempty"`
	VSCodeSessionID string `json:"vscodeSessionId,omitempty"`
	FrameID         int    `json:"frameId,omitempty"`
	Expression      string `json:"expression"`
	inspect.Selection
	// Timeout is the probe's budget in seconds (default 2).
	Timeout float64 `json:"timeout,omitempty"`
}

// pageCall answers dapscope/page: the page, or a PageResult carrying the
// inspector's typed error (a bad filter is INVALID_EXPRESSION naming the
// position, shown inline by the webview).
func (s *Server) pageCall(ctx context.Context, params json.RawMessage) (any, error) {
	var p PageParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Expression == "" {
		return nil, invalidParams("expression is required")
	}
	t, err := s.target(p.SessionID, p.VSCodeSessionID)
	if err != nil {
		return nil, err
	}
	res, err := inspect.Browse(ctx, t, p.FrameID, p.Expression, p.Selection, inspect.Options{Timeout: p.Timeout})
	if err != nil {
		if ie := errcode.As(err); ie != nil {
			return &inspect.PageResult{Name: p.Expression, Error: ie}, nil
		}
		return nil, err
	}
	return res, nil
}
