// tools_session.go: the session tools — debug_sessions, debug_launch,
// debug_attach, debug_terminate.

package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

// SessionRef picks a session; empty means the active one.
type SessionRef struct {
	SessionID string `json:"session_id,omitempty" desc:"session id from debug_sessions (default: the active session)"`
}

// --- debug_sessions ---

type sessionsArgs struct{}

// SessionsResult lists sessions.
type SessionsResult struct {
	Active   string            `json:"active,omitempty"`
	Sessions []session.Summary `json:"sessions"`
}

func (r *SessionsResult) text() string {
	if len(r.Sessions) == 0 {
		return "no sessions (start one with debug_launch)"
	}
	var b strings.Builder
	for _, s := range r.Sessions {
		mark := " "
		if s.Active {
			mark = "*"
		}
		what := s.Program
		if what == "" {
			what = s.Module
		}
		fmt.Fprintf(&b, "%s %s %s %s %s", mark, s.ID, s.Origin, s.Status, what)
		if s.Stop != nil {
			fmt.Fprintf(&b, " @ %s:%d (%s)", s.Stop.File, s.Stop.Line, s.Stop.Reason)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// --- debug_launch ---

type launchBreakpoint struct {
	File         string `json:"file" mcp:"required" desc:"workspace-relative source file"`
	Line         int    `json:"line" mcp:"required" desc:"1-based line"`
	Condition    string `json:"condition,omitempty" desc:"stop only when this expression is true"`
	HitCondition string `json:"hit_condition,omitempty" desc:"e.g. '>= 3'"`
	LogMessage   string `json:"log_message,omitempty" desc:"log instead of stopping ({expr} interpolated)"`
}

type launchArgs struct {
	Program     string             `json:"program,omitempty" desc:"workspace-relative program (or give module)"`
	Module      string             `json:"module,omitempty" desc:"Python module to run with -m"`
	Adapter     string             `json:"adapter,omitempty" enum:"debugpy,dlv" desc:"default debugpy"`
	Args        []string           `json:"args,omitempty" desc:"program arguments"`
	Env         map[string]string  `json:"env,omitempty" desc:"extra environment variables"`
	Cwd         string             `json:"cwd,omitempty" desc:"workspace-relative working directory"`
	Breakpoints []launchBreakpoint `json:"breakpoints,omitempty"`
	StopOnEntry bool               `json:"stop_on_entry,omitempty"`
	Wait        *bool              `json:"wait,omitempty" desc:"wait for the first stop (default true)"`
	Timeout     float64            `json:"timeout,omitempty" desc:"seconds to wait for the stop (default 30, max 600)"`
}

type attachArgs struct {
	Host string `json:"host,omitempty" desc:"default 127.0.0.1"`
	Port int    `json:"port" mcp:"required" desc:"port a debugpy listens on"`
	// Breakpoints are set before the debuggee resumes, so early lines hit.
	Breakpoints []launchBreakpoint `json:"breakpoints,omitempty"`
	Wait        *bool              `json:"wait,omitempty" desc:"wait for a stop (default false)"`
	Timeout     float64            `json:"timeout,omitempty" desc:"seconds to wait (default 30)"`
	Connect     float64            `json:"connect_timeout,omitempty" desc:"seconds to connect and get the adapter's first answer (default 10)"`
}

type terminateArgs struct {
	SessionRef
	Remove bool `json:"remove,omitempty" desc:"also forget the session (its output and outcome)"`
}

// TerminateResult is the end of a session.
type TerminateResult struct {
	SessionID string           `json:"session_id"`
	Status    string           `json:"status"`
	Outcome   *session.Outcome `json:"outcome,omitempty"`
	Removed   bool             `json:"removed,omitempty"`
}

func (r *TerminateResult) text() string {
	t := fmt.Sprintf("session %s %s", r.SessionID, r.Status)
	if r.Outcome != nil {
		t += "; " + outcomeLine(r.Outcome)
	}
	return t
}

func (s *Server) registerSessionTools() {
	addTool(s, toolSpec{name: "debug_sessions", title: "List debug sessions",
		desc:  "Live debug sessions (editor-attached and headless): id, origin, status, program, stop location, and which one is active (the default target of every tool).",
		hints: hints{readOnly: true, idempotent: true}, more: "sessions were omitted"},
		func(ctx context.Context, c *call, p *sessionsArgs) (*SessionsResult, error) {
			r := &SessionsResult{Active: s.mgr.Active(), Sessions: []session.Summary{}}
			for _, ss := range s.mgr.List() {
				sum := ss.Info().Summary
				sum.Active = sum.ID == r.Active
				r.Sessions = append(r.Sessions, sum)
			}
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_launch", title: "Launch a program under the debugger",
		desc: "Start a program (or module) headless with breakpoints [{file, line, condition?, hit_condition?, log_message?}]. " +
			"By default waits for the first stop and returns it like debug_continue (reason, location, source lines, locals). The new session becomes active.",
		hints: hints{}, more: "use debug_variables or debug_stack for details"},
		func(ctx context.Context, c *call, p *launchArgs) (*StopReport, error) {
			if used := s.budget.stored() + s.outputBytes(); used >= s.opts.MemoryBudget {
				return nil, &session.Error{Code: session.CodeLimit, Message: fmt.Sprintf(
					"memory budget exhausted (%s of %s held by snapshots and output): cannot capture another session's output", human(used), human(s.opts.MemoryBudget))}
			}
			spec := session.LaunchSpec{Adapter: p.Adapter, Program: p.Program, Module: p.Module, Args: p.Args, Env: p.Env, Cwd: p.Cwd, StopOnEntry: p.StopOnEntry}
			for _, bp := range p.Breakpoints {
				spec.Breakpoints = append(spec.Breakpoints, session.Breakpoint(bp))
			}
			c.progress(ctx, "launching")
			sess, err := s.mgr.Launch(ctx, spec)
			if err != nil {
				return nil, err
			}
			s.state(sess.ID())
			if p.Wait != nil && !*p.Wait {
				return s.stopReport(ctx, sess, session.Stop{Running: true})
			}
			return s.waitAndReport(ctx, c, sess, p.Timeout)
		})

	addTool(s, toolSpec{name: "debug_attach", title: "Attach to a running debugpy",
		desc:  "Attach to a debugpy listening on host:port (e.g. started with python -m debugpy --listen 5678). The new session becomes active.",
		hints: hints{}, more: "use debug_variables or debug_stack for details"},
		func(ctx context.Context, c *call, p *attachArgs) (*StopReport, error) {
			spec := session.AttachSpec{Host: p.Host, Port: p.Port, ConnectTimeout: time.Duration(p.Connect * float64(time.Second))}
			for _, bp := range p.Breakpoints {
				spec.Breakpoints = append(spec.Breakpoints, session.Breakpoint(bp))
			}
			sess, err := s.mgr.Attach(ctx, spec)
			if err != nil {
				return nil, err
			}
			s.state(sess.ID())
			if p.Wait == nil || !*p.Wait {
				return s.stopReport(ctx, sess, session.Stop{Running: true})
			}
			return s.waitAndReport(ctx, c, sess, p.Timeout)
		})

	addTool(s, toolSpec{name: "debug_terminate", title: "End a debug session",
		desc:  "End a session: terminates a launched program (detaches from an attached one) and its adapter; returns the outcome. remove=true also forgets it.",
		hints: hints{destructive: true, idempotent: true}},
		func(ctx context.Context, c *call, p *terminateArgs) (*TerminateResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			if err := sess.Terminate(ctx); err != nil {
				return nil, err
			}
			r := &TerminateResult{SessionID: sess.ID(), Status: sess.Status(), Outcome: sess.Outcome()}
			if p.Remove {
				s.mgr.Remove(sess.ID())
				s.dropState(sess.ID())
				r.Removed = true
			}
			return r, nil
		})
}
