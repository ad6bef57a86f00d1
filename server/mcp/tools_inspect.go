// tools_inspect.go: debug_inspect_variable — the smart inspector (inspect/)
// on any frame of a session: one round trip returns typed, bounded
// metadata (DataFrame shape, dtypes, nulls, statistics, preview…) as
// structured content, with a compact text rendering. It also backs the
// inspections stored in snapshots.

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

type inspectArgs struct {
	SessionRef
	Expression        string  `json:"expression" jsonschema:"df, self.x, d['k']"`
	FrameID           int     `json:"frame_id,omitempty"`
	MaxPreviewRows    int     `json:"max_preview_rows,omitempty" minimum:"1" maximum:"100"`
	MaxPreviewItems   int     `json:"max_preview_items,omitempty" minimum:"1" maximum:"100"`
	IncludeStatistics *bool   `json:"include_statistics,omitempty"`
	DeepMemory        bool    `json:"deep_memory,omitempty"`
	Timeout           float64 `json:"timeout,omitempty" minimum:"0.1" maximum:"10"`
	Format            string  `json:"format,omitempty" enum:"json,tui,markdown"`
	Width             int     `json:"width,omitempty" minimum:"40" maximum:"300"`
	MaxBytes          int     `json:"max_bytes,omitempty" minimum:"2048" maximum:"102400" jsonschema:"default 8192"`
	Precision         string  `json:"precision,omitempty" enum:"short,full"`
	// FrameIDs: with session_id "all" or a tree's root, the frame per session (allprocs.go).
	FrameIDs map[string]int `json:"frame_ids,omitempty" jsonschema:"per session id, for session_id all or a tree root"`
	Compute  bool           `json:"compute,omitempty" jsonschema:"run what a lazy value defers (collect a polars LazyFrame, count a pyarrow Dataset's or a Spark page's rows), within timeout"`
	browseArgs
}

// defaultInspectBytes is the default budget of debug_inspect_variable's
// response (structured content + text); max_bytes allows 2 KB up to the
// default response cap, and at most the server's own cap.
const defaultInspectBytes = 8 << 10

// InspectResult is debug_inspect_variable's answer: the inspector's model.
type InspectResult struct {
	*inspect.Result
	// Page is the selected rows when columns, rows, sort or filter was given.
	Page *inspect.Page `json:"page,omitempty"`
	// Processes: every process's answer (session_id "all" or a tree's root; allprocs.go).
	Processes *ProcessTable `json:"processes,omitempty"`
	text_     string
}

func (r *InspectResult) text() string { return r.text_ }

// inspectTarget runs the inspector on a session.
func (s *Server) inspectTarget(ctx context.Context, sess *session.Session, frameID int, expr string, o inspect.Options) (*inspect.Result, error) {
	return inspect.Inspect(ctx, sess, frameID, expr, o)
}

func (s *Server) registerInspectTools() {
	s.inspect = func(ctx context.Context, sess *session.Session, frameID int, expr string, o inspectOpts) (*inspected, error) {
		res, err := s.inspectTarget(ctx, sess, frameID, expr, inspect.Options{MaxPreviewRows: o.MaxPreviewRows, MaxPreviewItems: o.MaxPreviewItems, IncludeStatistics: o.IncludeStatistics})
		if err != nil {
			return nil, err
		}
		b, err := json.Marshal(res)
		if err != nil {
			return nil, err
		}
		return &inspected{JSON: b, Summary: res.Summary}, nil
	}

	addTool(s, toolSpec{name: "debug_inspect_variable", title: "Smart inspect a value",
		desc:  "Typed, bounded facts about a value; columns/rows/sort/filter page a table.",
		hints: hints{readOnly: true, idempotent: true}, more: "ask for fewer max_preview_rows or inspect a column, e.g. df['b']"},
		func(ctx context.Context, c *call, p *inspectArgs) (*InspectResult, error) {
			set, err := s.processSet(p.SessionID) // allprocs.go
			if err != nil {
				return nil, err
			}
			sess, err := s.session(p.SessionID)
			if set == nil && err != nil {
				return nil, err
			}
			o := inspect.Options{MaxPreviewRows: p.MaxPreviewRows, MaxPreviewItems: p.MaxPreviewItems, IncludeStatistics: p.IncludeStatistics,
				DeepMemory: p.DeepMemory, Timeout: p.Timeout, Format: p.Format, Precision: p.Precision, Compute: p.Compute}
			budget := p.MaxBytes
			if budget == 0 {
				budget = defaultInspectBytes
			}
			if budget > s.opts.MaxResponseBytes {
				return nil, argError("max_bytes", "at most %d, this server's response cap (got %d)", s.opts.MaxResponseBytes, budget)
			}
			if set != nil {
				return s.inspectAll(ctx, set, p, o, budget), nil
			}
			if p.browseArgs.wanted() {
				// Statistics follow the selection's columns and filter.
				sel := p.browseArgs.selection()
				o.StatsOf = &sel
			}
			res, err := s.inspectTarget(ctx, sess, p.FrameID, p.Expression, o)
			if err != nil {
				return nil, err
			}
			page, err := s.browse(ctx, sess, p.FrameID, p.Expression, &p.browseArgs, o)
			if err != nil {
				return nil, err
			}
			if page != nil {
				// The page is what was asked for: the summary keeps its
				// structure and drops its own preview rows; both fit the
				// budget (browse.go).
				res.Preview = nil
				return fitPage(res, page, budget), nil
			}
			format := p.Format
			if format == "" {
				format = "markdown"
			}
			out := fitInspect(res, budget, func() string { return renderInspect(res, p.Format, p.Width) }, inspect.HeadLines(res, format, p.Width)) // inspect_budget.go
			if inspect.Cap(res, s.opts.MaxResponseBytes-len(out.text_)-envelopeSlack) {
				out.text_ = capText(renderInspect(res, p.Format, p.Width), min(maxTextBytes, budget/2))
			}
			return out, nil
		})
}

// renderInspect is the text form of a result (a short summary when the
// inspector's formats fail).
func renderInspect(r *inspect.Result, format string, width int) string {
	if t := formatInspect(r, format, width); t != "" {
		return t
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s\n", r.Name, r.Summary)
	if st := r.Structure; st != nil && len(st.Columns) > 0 {
		b.WriteString("columns:")
		for i, c := range st.Columns {
			if i == 30 {
				fmt.Fprintf(&b, " … %d more", len(st.Columns)-30)
				break
			}
			fmt.Fprintf(&b, " %s %s", c.Name, c.Dtype)
			if c.NullCount != nil && *c.NullCount > 0 {
				fmt.Fprintf(&b, " (%d null)", *c.NullCount)
			}
			b.WriteByte(';')
		}
		b.WriteByte('\n')
	}
	if r.Partial {
		fmt.Fprintf(&b, "partial: timed out on %s\n", strings.Join(r.TimedOut, ", "))
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "warning: %s\n", w)
	}
	if r.Hint != "" {
		fmt.Fprintf(&b, "hint: %s\n", r.Hint)
	}
	b.WriteString("(statistics and preview in structuredContent)")
	return b.String()
}

// formatInspect renders the text content: the inspector's markdown by
// default (summary, per-column table with statistics, a few rows), its tui
// box, or the compact JSON model for format json; "" when rendering fails.
func formatInspect(r *inspect.Result, format string, width int) string {
	switch format {
	case "json":
		b, err := json.Marshal(r)
		if err != nil {
			return ""
		}
		return string(b)
	case "":
		format = "markdown"
	}
	t, err := inspect.Format(r, format, width)
	if err != nil {
		return ""
	}
	return t
}

// budgetLine says in the text what the budget left out and how to get it
// (inspect.BudgetLine: one line, the same in every format; budget.dropped
// in the structured content says how to get each back), unless the
// rendered text says it already (markdown and tui end with it).
func budgetLine(text string, n *inspect.BudgetNote) string {
	l := inspect.BudgetLine(n)
	if l == "" || strings.Contains(text, "left out to fit max") {
		return ""
	}
	return "\n\n" + l
}
