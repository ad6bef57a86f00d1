// tools_ray.go: Ray clusters for agents — ray_list, the tasks paused in
// Ray's distributed debugger (breakpoint() with RAY_DEBUG=1, or an
// unhandled exception with RAY_DEBUG_POST_MORTEM=1), and ray_attach, which
// attaches them (each a debugpy.listen endpoint, as debug_attach would)
// under one root per cluster: the root's id, or "all", in
// debug_inspect_variable or debug_evaluate asks every paused task at once
// (allprocs.go); debug_terminate on the root detaches them all and the
// tasks run on.

package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dapscope/dapscope/server/ray"
	"github.com/dapscope/dapscope/server/session"
)

type rayListArgs struct {
	Address   string `json:"address,omitempty" jsonschema:"dashboard URL or GCS host:port (default http://127.0.0.1:8265)"`
	TokenFile string `json:"token_file,omitempty" jsonschema:"else $RAY_AUTH_TOKEN or ~/.ray/auth_token"`
}

// RayListResult lists a cluster's paused tasks.
type RayListResult struct {
	Dashboard string `json:"dashboard"`
	// Tasks wait for a debugger.
	Tasks []ray.Task `json:"tasks"`
	// Debugging: a debugger is attached (or was, and the task ran on).
	Debugging []ray.Task `json:"debugging,omitempty"`
}

func (r *RayListResult) text() string {
	var b strings.Builder
	if len(r.Tasks) == 0 {
		fmt.Fprintf(&b, "no task waits in Ray's debugger (%s)\n", r.Dashboard)
	} else {
		fmt.Fprintf(&b, "%d task(s) wait for a debugger at %s\n", len(r.Tasks), r.Dashboard)
	}
	for _, t := range r.Tasks {
		fmt.Fprintf(&b, "%s pid %d %s %s", short(t.WorkerID), t.PID, t.Endpoint(), firstOf(t.Name, t.Function, "(task not reported yet)"))
		if t.Note != "" {
			fmt.Fprintf(&b, " — %s", t.Note)
		}
		b.WriteByte('\n')
	}
	for _, t := range r.Debugging {
		fmt.Fprintf(&b, "%s pid %d %s debugger attached or gone: %s\n", short(t.WorkerID), t.PID, t.Endpoint(), firstOf(t.Name, "no task running"))
	}
	return b.String()
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

type rayAttachArgs struct {
	Address   string   `json:"address,omitempty" jsonschema:"dashboard URL or GCS host:port (default http://127.0.0.1:8265)"`
	TokenFile string   `json:"token_file,omitempty" jsonschema:"else $RAY_AUTH_TOKEN or ~/.ray/auth_token"`
	Tasks     []string `json:"tasks,omitempty" maxItems:"1000" jsonschema:"worker id, task id or pid prefixes (default: every paused task)"`
	Timeout   float64  `json:"timeout,omitempty" minimum:"0" maximum:"600" jsonschema:"seconds to wait for each task's stop (default 30)"`
}

// RayMember is one attached task.
type RayMember struct {
	SessionID string `json:"session_id"`
	Task      string `json:"task,omitempty"`
	PID       int    `json:"pid"`
	Endpoint  string `json:"endpoint"`
	Status    string `json:"status"`
	Location  string `json:"location,omitempty"`
}

// RayAttachResult is the cluster's root and its attached tasks.
type RayAttachResult struct {
	RootID   string      `json:"root_id"`
	Attached []RayMember `json:"attached"`
	Skipped  []string    `json:"skipped,omitempty"`
	Hint     string      `json:"hint,omitempty"`
}

func (r *RayAttachResult) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "ray cluster root %s: %d task(s) attached\n", r.RootID, len(r.Attached))
	for _, m := range r.Attached {
		fmt.Fprintf(&b, "%s %s pid %d %s %s\n", short(m.SessionID), m.Task, m.PID, m.Status, m.Location)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "skipped: %s\n", s)
	}
	if r.Hint != "" {
		b.WriteString(r.Hint + "\n")
	}
	return b.String()
}

// rayAttachTimeout bounds listing and attaching.
const rayAttachTimeout = 60 * time.Second

func (s *Server) rayOptions(address, tokenFile string) ray.Options {
	o := s.mgr.Options()
	return ray.Options{Address: address, TokenFile: tokenFile, AllowHosts: o.AttachHosts, Python: o.Python}
}

func (s *Server) registerRayTools() {
	addTool(s, toolSpec{name: "ray_list", title: "List paused Ray tasks",
		desc:  "Ray tasks paused at breakpoint() (RAY_DEBUG=1) or post-mortem: worker, pid, debugpy host:port, task.",
		hints: hints{readOnly: true, idempotent: true}, more: "tasks were omitted"},
		func(ctx context.Context, c *call, p *rayListArgs) (*RayListResult, error) {
			ctx, cancel := context.WithTimeout(ctx, rayAttachTimeout)
			defer cancel()
			l, err := ray.List(ctx, s.rayOptions(p.Address, p.TokenFile))
			if err != nil {
				return nil, err
			}
			return &RayListResult{Dashboard: l.Dashboard, Tasks: l.Tasks, Debugging: l.Debugging}, nil
		})

	addTool(s, toolSpec{name: "ray_attach", title: "Attach paused Ray tasks",
		desc:  "Attach a cluster's paused tasks under one root session: its id (or \"all\") asks every task at once.",
		hints: hints{idempotent: true}, more: "use debug_sessions"},
		func(ctx context.Context, c *call, p *rayAttachArgs) (*RayAttachResult, error) {
			actx, cancel := context.WithTimeout(ctx, rayAttachTimeout)
			defer cancel()
			at, err := ray.Attach(actx, s.mgr, s.rayOptions(p.Address, p.TokenFile), p.Tasks)
			if err != nil {
				return nil, err
			}
			s.state(at.Root.ID())
			timeout := 30 * time.Second
			if p.Timeout > 0 {
				timeout = time.Duration(p.Timeout * float64(time.Second))
			}
			r := &RayAttachResult{RootID: at.Root.ID(), Skipped: at.Skipped, Attached: make([]RayMember, len(at.Sessions))}
			var wg sync.WaitGroup
			for i, sess := range at.Sessions {
				s.state(sess.ID())
				t := at.Tasks[i]
				m := RayMember{SessionID: sess.ID(), Task: firstOf(t.Name, t.Function), PID: t.PID, Endpoint: t.Endpoint()}
				wg.Add(1)
				go func() {
					defer wg.Done()
					// The task stops as soon as it has a client (Ray's set_trace).
					if st, err := sess.Wait(ctx, timeout); err == nil && st.Location != nil {
						m.Location = fmt.Sprintf("%s:%d", st.Location.File, st.Location.Line)
					}
					m.Status = sess.Status()
					r.Attached[i] = m
				}()
			}
			wg.Wait()
			r.Hint = fmt.Sprintf("session_id %q asks every attached task at once (debug_inspect_variable, debug_evaluate); debug_terminate on it detaches them and the tasks run on", r.RootID)
			return r, nil
		})
}

// groupless drops the roots that run no code (a Ray cluster's) from a set
// of sessions an all-processes question goes to.
func groupless(in []*session.Session) []*session.Session {
	out := in[:0:0]
	for _, s := range in {
		if !s.IsGroup() {
			out = append(out, s)
		}
	}
	return out
}
