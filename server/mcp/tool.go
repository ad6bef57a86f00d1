// tool.go: the tool middleware every tool goes through — strict argument
// decoding, annotations, input/output schemas, structured content plus a
// compact text rendering cut to the response cap, and progress
// notifications. Errors become isError results (errors.go).

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/mcp"
)

// hints are the annotations of a tool.
type hints struct{ readOnly, destructive, idempotent bool }

// toolSpec describes one tool.
type toolSpec struct {
	name, title, desc string
	hints
	// more says how to get what the size cap cut.
	more string
}

// call is one tool invocation as seen by a handler.
type call struct {
	s   *Server
	req mcpgo.CallToolRequest
	n   float64 // progress counter
}

// progress sends a progress notification when the client asked for them.
func (c *call) progress(ctx context.Context, msg string) {
	if c.req.Params.Meta == nil || c.req.Params.Meta.ProgressToken == nil {
		return
	}
	c.n++
	err := c.s.mcp.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
		"progressToken": c.req.Params.Meta.ProgressToken, "progress": c.n, "message": msg,
	})
	if err != nil {
		c.s.log.Debug("progress notification", "err", err)
	}
}

// texter renders a result compactly for the text content.
type texter interface{ text() string }

// addTool registers a tool whose arguments decode strictly into P and whose
// result R is sent as structured content plus its text rendering.
func addTool[P any, R any](s *Server, spec toolSpec, h func(ctx context.Context, c *call, p *P) (*R, error)) {
	in, _ := json.Marshal(inputSchema(reflect.TypeFor[P]()))
	outJSON, _ := json.Marshal(outputSchema())
	tool := mcpgo.Tool{Name: spec.name, Title: spec.title, Description: spec.desc, RawInputSchema: in, RawOutputSchema: outJSON}
	tool.Annotations = mcpgo.ToolAnnotation{
		ReadOnlyHint: &spec.readOnly, DestructiveHint: &spec.destructive,
		IdempotentHint: &spec.idempotent, OpenWorldHint: new(bool),
	}
	s.mcp.AddTool(tool, func(ctx context.Context, req mcpgo.CallToolRequest) (*mcpgo.CallToolResult, error) {
		raw := req.Params.RawArguments
		if len(raw) == 0 && req.Params.Arguments != nil {
			raw, _ = json.Marshal(req.Params.Arguments)
		}
		var p P
		if err := decodeArgs(raw, &p); err != nil {
			return s.errorResult(err), nil
		}
		start := time.Now()
		s.inflight.Add(1)
		r, err := h(ctx, &call{s: s, req: req}, &p)
		s.inflight.Add(-1)
		s.log.Debug("tool", "name", spec.name, "ms", time.Since(start).Milliseconds(), "err", err)
		if err != nil {
			return s.errorResult(err), nil
		}
		return s.result(r, spec.more), nil
	})
}

// result builds a successful tool result within the size cap.
func (s *Server) result(r any, more string) *mcpgo.CallToolResult {
	text := ""
	if t, ok := r.(texter); ok {
		text = t.text()
	}
	text = capText(text, maxTextBytes)
	b, err := json.Marshal(r)
	if err != nil {
		return s.errorResult(fmt.Errorf("encoding the result: %w", err))
	}
	textJSON, _ := json.Marshal(text)
	limit := s.opts.MaxResponseBytes - len(textJSON) - envelopeSlack
	var structured any = json.RawMessage(b)
	if len(b) > limit {
		var v any
		_ = json.Unmarshal(b, &v)
		if more == "" {
			more = "narrow the request (filters, smaller limits, or a variables_reference)"
		}
		notice := "the response was cut to fit " + human(int64(s.opts.MaxResponseBytes)) + "; " + more
		v, omitted := shrinkJSON(v, limit-len(notice)-64)
		if m, ok := v.(map[string]any); ok {
			m["truncated"] = Truncation{Omitted: omitted, Notice: notice}
		}
		structured = v
		tail := "\n[truncated: " + notice + "]"
		text = capText(text, maxTextBytes-len(tail)) + tail
	}
	return &mcpgo.CallToolResult{
		Content:           []mcpgo.Content{mcpgo.NewTextContent(text)},
		StructuredContent: structured,
	}
}
