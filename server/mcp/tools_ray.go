// tools_ray.go: Ray clusters for agents. ray_list lists the tasks paused
// in Ray's distributed debugger (breakpoint() with RAY_DEBUG=1, or an
// unhandled exception with RAY_DEBUG_POST_MORTEM=1), each a
// debugpy.listen endpoint, and remembers them; debug_attach to a listed
// task attaches it as any debugpy.listen (with justMyCode off: Ray's
// set_trace stops the task by stepping out of Ray's own code) and makes it
// a member of its cluster's root session (one per cluster). The root's id,
// or "all", in debug_inspect_variable or debug_evaluate asks every paused
// task at once (allprocs.go); debug_terminate on the root detaches them
// all and the tasks run on. (No ray_attach tool: tools/list's budget.)

package mcp

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"

	"github.com/dapscope/dapscope/server/ray"
	"github.com/dapscope/dapscope/server/session"
)

type rayListArgs struct {
	Address   string `json:"address,omitempty" jsonschema:"dashboard URL or GCS host:port"`
	TokenFile string `json:"token_file,omitempty"`
}

// RayListResult lists a cluster's paused tasks.
type RayListResult struct {
	Dashboard string `json:"dashboard"`
	// Tasks wait for a debugger: debug_attach to each's host and port.
	Tasks []ray.Task `json:"tasks"`
	// Debugging: a debugger is attached (or was, and the task ran on).
	Debugging []ray.Task `json:"debugging,omitempty"`
	// RootID is the cluster's root session, once a task was attached.
	RootID string `json:"root_id,omitempty"`
}

func (r *RayListResult) text() string {
	var b strings.Builder
	if len(r.Tasks) == 0 {
		fmt.Fprintf(&b, "no task waits in Ray's debugger (%s)\n", r.Dashboard)
	} else {
		fmt.Fprintf(&b, "%d task(s) wait for a debugger at %s (debug_attach to host:port; each joins one root session)\n", len(r.Tasks), r.Dashboard)
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
	if r.RootID != "" {
		fmt.Fprintf(&b, "root session %s asks every attached task at once\n", r.RootID)
	}
	return b.String()
}

func short(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// rayListed are the tasks ray_list found, by endpoint (host:port).
type rayListed struct {
	mu    sync.Mutex
	tasks map[string]rayEntry
}

type rayEntry struct {
	dashboard string
	task      ray.Task
}

// remember replaces what a listing of dashboard said.
func (l *rayListed) remember(dashboard string, tasks []ray.Task) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.tasks == nil {
		l.tasks = map[string]rayEntry{}
	}
	for k, e := range l.tasks {
		if e.dashboard == dashboard {
			delete(l.tasks, k)
		}
	}
	for _, t := range tasks {
		l.tasks[t.Endpoint()] = rayEntry{dashboard, t}
	}
}

// rayTask: the attach spec names a task ray_list found; its attach then
// stops in the task (justMyCode off) and follows no subprocesses.
func (s *Server) rayTask(spec *session.AttachSpec) (rayEntry, bool) {
	if spec.Pid != 0 || (spec.Adapter != "" && spec.Adapter != "debugpy" && spec.Adapter != "python") {
		return rayEntry{}, false
	}
	host := spec.Host
	if host == "" {
		host = "127.0.0.1"
	}
	s.rayTasks.mu.Lock()
	e, ok := s.rayTasks.tasks[net.JoinHostPort(host, strconv.Itoa(spec.Port))]
	s.rayTasks.mu.Unlock()
	if ok {
		off := false
		spec.JustMyCode = &off
		if spec.Subprocesses == nil {
			spec.Subprocesses = &off
		}
	}
	return e, ok
}

// rayJoin makes an attached task a member of its cluster's root (made on
// the first).
func (s *Server) rayJoin(sess *session.Session, e rayEntry) error {
	root := s.mgr.GroupSession(ray.RootKey(e.dashboard))
	if root == nil {
		var err error
		if root, err = s.mgr.Group(session.GroupSpec{Key: ray.RootKey(e.dashboard), Name: "ray cluster", Where: e.dashboard}); err != nil {
			return err
		}
		s.state(root.ID())
	}
	s.mgr.Adopt(root, sess, e.task.PID)
	return nil
}

func (s *Server) registerRayTools() {
	addTool(s, toolSpec{name: "ray_list", title: "List paused Ray tasks",
		desc:  "Ray tasks paused at breakpoint(): pid, debugpy host:port to debug_attach, task.",
		hints: hints{readOnly: true, idempotent: true}, more: "tasks were omitted"},
		func(ctx context.Context, c *call, p *rayListArgs) (*RayListResult, error) {
			l, err := ray.ListFor(ctx, s.mgr, p.Address, p.TokenFile)
			if err != nil {
				return nil, err
			}
			s.rayTasks.remember(l.Dashboard, l.Tasks)
			r := &RayListResult{Dashboard: l.Dashboard, Tasks: l.Tasks, Debugging: l.Debugging}
			if root := s.mgr.GroupSession(ray.RootKey(l.Dashboard)); root != nil {
				r.RootID = root.ID()
			}
			return r, nil
		})
}
