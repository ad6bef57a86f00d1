// tools_session.go: the session tools — debug_sessions, debug_launch,
// debug_attach, debug_terminate.

package mcp

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// SessionRef picks a session; empty means the active one.
type SessionRef struct {
	SessionID string `json:"session_id,omitempty"` // default: the active session (the server's instructions say so once)
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
		if s.DebugType != "" { // a session of the editor's own debugger
			what = strings.TrimSpace(what + " " + s.Name + " (" + s.DebugType + ")")
		}
		fmt.Fprintf(&b, "%s %s %s %s %s", mark, s.ID, s.Origin, s.Status, what)
		if s.ParentID != "" {
			fmt.Fprintf(&b, " (child of %s, pid %d)", s.ParentID, s.PID)
		} else if s.PID != 0 && len(s.Children) > 0 {
			fmt.Fprintf(&b, " (pid %d, %d children)", s.PID, len(s.Children))
		}
		if s.Ended != "" {
			fmt.Fprintf(&b, " (ended: %s; debug_outcome says how)", s.Ended)
		}
		if s.Stop != nil {
			fmt.Fprintf(&b, " @ %s:%d (%s)", s.Stop.File, s.Stop.Line, s.Stop.Reason)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// --- debug_launch ---

type launchBreakpoint struct {
	File         string `json:"file"`
	Line         int    `json:"line"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hit_condition,omitempty"`
	LogMessage   string `json:"log_message,omitempty"`
}

type launchArgs struct {
	Program     string             `json:"program,omitempty"`
	Module      string             `json:"module,omitempty" jsonschema:"python -m"`
	Adapter     string             `json:"adapter,omitempty" enum:"debugpy,dlv,node,lldb"`
	Args        []string           `json:"args,omitempty"`
	Env         map[string]string  `json:"env,omitempty"`
	Cwd         string             `json:"cwd,omitempty"`
	Breakpoints []launchBreakpoint `json:"breakpoints,omitempty" maxItems:"1000"`
	StopOnEntry bool               `json:"stop_on_entry,omitempty"`
	Runtime     string             `json:"runtime_executable,omitempty" jsonschema:"node binary"`
	Wait        *bool              `json:"wait,omitempty"`
	Timeout     float64            `json:"timeout,omitempty" minimum:"0" maximum:"600"`
	// Subprocesses: each child process a session of its own (default true).
	Subprocesses *bool `json:"subprocesses,omitempty" jsonschema:"follow child processes (default true)"`
}

type attachArgs struct {
	Adapter string `json:"adapter,omitempty" enum:"debugpy,node,lldb"`
	Host    string `json:"host,omitempty"`
	Port    int    `json:"port,omitempty" minimum:"1" maximum:"65535"`
	// Pid attaches lldb to a running native process (adapter "lldb").
	Pid     int    `json:"pid,omitempty" minimum:"1"`
	Program string `json:"program,omitempty" jsonschema:"the pid's binary (lldb)"`
	// Breakpoints are set before the debuggee resumes, so early lines hit.
	Breakpoints []launchBreakpoint `json:"breakpoints,omitempty" maxItems:"1000"`
	Wait        *bool              `json:"wait,omitempty"`
	Timeout     float64            `json:"timeout,omitempty" minimum:"0" maximum:"600"`
	Connect     float64            `json:"connect_timeout,omitempty" minimum:"0" maximum:"600"`
	// Subprocesses: each child process a session of its own (default true).
	Subprocesses *bool `json:"subprocesses,omitempty" jsonschema:"follow child processes (default true)"`
}

type terminateArgs struct {
	SessionRef
	Remove bool `json:"remove,omitempty" jsonschema:"forget it too"`
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
		desc:  "Sessions: id, origin, status, stop, how it ended; the active one.",
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
		desc:  "Start a program or module with breakpoints; waits for the first stop.",
		hints: hints{}, more: "use debug_variables or debug_stack for details"},
		func(ctx context.Context, c *call, p *launchArgs) (*StopReport, error) {
			if used := s.budget.stored() + s.outputBytes(); used >= s.opts.MemoryBudget {
				return nil, &errcode.Error{Code: errcode.LimitExceeded, Message: fmt.Sprintf(
					"memory budget exhausted (%s of %s held by snapshots and output): cannot capture another session's output", human(used), human(s.opts.MemoryBudget))}
			}
			spec := session.LaunchSpec{Adapter: p.Adapter, Program: p.Program, Module: p.Module, Args: p.Args, Env: p.Env, Cwd: p.Cwd, StopOnEntry: p.StopOnEntry, RuntimeExecutable: p.Runtime, Subprocesses: p.Subprocesses}
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

	addTool(s, toolSpec{name: "debug_attach", title: "Attach to a running program",
		desc:  "Attach to debugpy (--listen) or node --inspect at host:port, or lldb to a pid.",
		hints: hints{}, more: "use debug_variables or debug_stack for details"},
		func(ctx context.Context, c *call, p *attachArgs) (*StopReport, error) {
			spec := session.AttachSpec{Adapter: p.Adapter, Host: p.Host, Port: p.Port, Pid: p.Pid, Program: p.Program, ConnectTimeout: time.Duration(p.Connect * float64(time.Second)), Subprocesses: p.Subprocesses}
			for _, bp := range p.Breakpoints {
				spec.Breakpoints = append(spec.Breakpoints, session.Breakpoint(bp))
			}
			task, isRay := s.rayTask(&spec) // a task ray_list found (tools_ray.go)
			sess, err := s.mgr.Attach(ctx, spec)
			if err != nil {
				return nil, err
			}
			if isRay {
				if err := s.rayJoin(sess, task); err != nil {
					return nil, err
				}
			}
			s.state(sess.ID())
			if p.Wait == nil || !*p.Wait {
				return s.stopReport(ctx, sess, session.Stop{Running: true})
			}
			return s.waitAndReport(ctx, c, sess, p.Timeout)
		})

	addTool(s, toolSpec{name: "debug_terminate", title: "End a debug session",
		desc:  "End a session (terminate a launch, detach an attach).",
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
				s.mgr.Remove(sess.ID()) // its state goes too (OnRemove)
				r.Removed = true
			}
			return r, nil
		})
}
