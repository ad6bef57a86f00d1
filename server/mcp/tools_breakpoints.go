// tools_breakpoints.go: debug_set_breakpoints (replace one file's set, as
// DAP does; returns the verified state) and debug_breakpoints (all, with
// hit counts).

package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/server/session"
)

type fileBreakpoint struct {
	Line         int    `json:"line"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hit_condition,omitempty"`
	LogMessage   string `json:"log_message,omitempty"`
}

type setBreakpointsArgs struct {
	SessionRef
	File        string           `json:"file"`
	Breakpoints []fileBreakpoint `json:"breakpoints,omitempty" maxItems:"1000" jsonschema:"[] clears"`
}

type breakpointsArgs struct {
	SessionRef
}

// BreakpointsResult lists breakpoints.
type BreakpointsResult struct {
	SessionID   string                    `json:"session_id"`
	File        string                    `json:"file,omitempty"`
	Breakpoints []session.BreakpointState `json:"breakpoints"`
}

func (r *BreakpointsResult) text() string {
	if len(r.Breakpoints) == 0 {
		return "no breakpoints"
	}
	var b strings.Builder
	for _, bp := range r.Breakpoints {
		v := "verified"
		switch {
		case bp.State == session.BreakpointPending:
			v = "pending (the adapter has not answered for this file's set yet; it may already stop here)"
		case bp.State == session.BreakpointUnknown:
			v = "unknown (" + bp.Message + ")"
		case !bp.Verified:
			v = "unverified"
		}
		if bp.Message != "" {
			v += " (" + bp.Message + ")"
		}
		at := fmt.Sprintf("%s:%d", bp.File, bp.Line)
		if bp.Column > 0 {
			at += fmt.Sprintf(":%d", bp.Column)
		}
		fmt.Fprintf(&b, "%s %s, hits %d", at, v, bp.HitCount)
		if bp.RequestedLine != 0 {
			fmt.Fprintf(&b, ", requested line %d (moved by the adapter)", bp.RequestedLine)
		}
		if bp.Condition != "" {
			fmt.Fprintf(&b, ", if %s", bp.Condition)
		}
		if bp.HitCondition != "" {
			fmt.Fprintf(&b, ", hit %s", bp.HitCondition)
		}
		if bp.LogMessage != "" {
			fmt.Fprintf(&b, ", log %q", bp.LogMessage)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (s *Server) registerBreakpointTools() {
	addTool(s, toolSpec{name: "debug_set_breakpoints", title: "Set a file's breakpoints",
		desc:  "Replace a file's breakpoints; returns verified and actual lines.",
		hints: hints{idempotent: true}},
		func(ctx context.Context, c *call, p *setBreakpointsArgs) (*BreakpointsResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			bps := make([]session.Breakpoint, 0, len(p.Breakpoints))
			for _, bp := range p.Breakpoints {
				bps = append(bps, session.Breakpoint{File: p.File, Line: bp.Line, Condition: bp.Condition, HitCondition: bp.HitCondition, LogMessage: bp.LogMessage})
			}
			states, err := sess.SetBreakpoints(ctx, p.File, bps)
			if err != nil {
				return nil, err
			}
			if states == nil {
				states = []session.BreakpointState{}
			}
			return &BreakpointsResult{SessionID: sess.ID(), File: p.File, Breakpoints: states}, nil
		})

	addTool(s, toolSpec{name: "debug_breakpoints", title: "List breakpoints",
		desc:  "All breakpoints: verified, hit counts, pending.",
		hints: hints{readOnly: true, idempotent: true}},
		func(ctx context.Context, c *call, p *breakpointsArgs) (*BreakpointsResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			bps := sess.Breakpoints()
			if bps == nil {
				bps = []session.BreakpointState{}
			}
			return &BreakpointsResult{SessionID: sess.ID(), Breakpoints: bps}, nil
		})
}
