// attach.go: a cluster's paused tasks attached as one tree. Each task is a
// debugpy.listen endpoint, attached by session.Manager.Attach like any
// other (the same host rules); the sessions become members of one root
// per cluster (session.Manager.Group), so the root's id (or "all") asks
// every paused task at once, and ending the root detaches them all and
// lets the tasks run on.

package ray

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// Attached is what Attach did.
type Attached struct {
	// Root is the cluster's root session.
	Root *session.Session
	// Sessions are the tasks attached now, in Tasks' order.
	Sessions []*session.Session
	Tasks    []Task
	// Skipped says why a listed task was not attached (a host not
	// allowed, the attach failed).
	Skipped []string
}

// ListTimeout bounds a listing asked for by an agent or the editor (a GCS
// address is resolved with Python).
const ListTimeout = 60 * time.Second

// ListFor lists the paused tasks of the cluster at address with the
// manager's host allow-list and Python (MCP's ray_list, the editor's
// dapscope/rayList), within ListTimeout.
func ListFor(ctx context.Context, mgr *session.Manager, address, tokenFile string) (*Listing, error) {
	ctx, cancel := context.WithTimeout(ctx, ListTimeout)
	defer cancel()
	o := mgr.Options()
	return List(ctx, Options{Address: address, TokenFile: tokenFile, AllowHosts: o.AttachHosts, Python: o.Python})
}

// RootKey is the key of a cluster's root session.
func RootKey(dashboard string) string { return "ray " + dashboard }

// Attach attaches the cluster's paused tasks (those whose worker id, task
// id or pid starts with one of pick; every paused task when pick is
// empty) under the cluster's root, made if there is none (the CLI's
// `dapscope ray inspect`; MCP agents debug_attach each listed task, which
// joins the same root: server/mcp/tools_ray.go). Tasks are attached with
// justMyCode off: Ray's set_trace stops the task by stepping out of Ray's
// own code, which justMyCode would step through without ever stopping.
func Attach(ctx context.Context, mgr *session.Manager, o Options, pick []string) (*Attached, error) {
	o.AllowHosts = append(o.AllowHosts, mgr.Options().AttachHosts...)
	l, err := List(ctx, o)
	if err != nil {
		return nil, err
	}
	var tasks []Task
	for _, t := range l.Tasks {
		if picked(t, pick) {
			tasks = append(tasks, t)
		}
	}
	if len(tasks) == 0 {
		what := "no task of the cluster is paused in Ray's debugger"
		if len(pick) > 0 {
			what = fmt.Sprintf("no paused task matches %s (%d paused)", strings.Join(pick, ", "), len(l.Tasks))
		}
		return nil, &errcode.Error{Code: errcode.NotFound, Field: "tasks", Message: what,
			Hint: "a task pauses at breakpoint() when the cluster runs with RAY_DEBUG=1 (Ray's default); ray_list shows the paused ones"}
	}
	root := mgr.GroupSession(RootKey(l.Dashboard))
	if root == nil {
		if root, err = mgr.Group(session.GroupSpec{Key: RootKey(l.Dashboard), Name: "ray cluster", Where: l.Dashboard}); err != nil {
			return nil, err
		}
	}
	out := &Attached{Root: root}
	type result struct {
		s   *session.Session
		err error
	}
	results := make([]result, len(tasks))
	var wg sync.WaitGroup
	for i, t := range tasks {
		if t.Note != "" {
			results[i].err = fmt.Errorf("%s", t.Note)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			follow := false // a task's own subprocesses are not Ray's
			s, err := mgr.Attach(ctx, session.AttachSpec{Host: t.Host, Port: t.Port, Subprocesses: &follow, JustMyCode: &follow})
			if err == nil {
				mgr.Adopt(root, s, t.PID)
			}
			results[i] = result{s, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		t := tasks[i]
		if r.err != nil {
			out.Skipped = append(out.Skipped, fmt.Sprintf("%s (pid %d, %s): %v", t.label(), t.PID, t.Endpoint(), r.err))
			continue
		}
		out.Sessions = append(out.Sessions, r.s)
		out.Tasks = append(out.Tasks, t)
	}
	return out, nil
}

// picked: t matches one of pick (a worker id, task id or pid prefix).
func picked(t Task, pick []string) bool {
	if len(pick) == 0 {
		return true
	}
	for _, p := range pick {
		p = strings.TrimSpace(p)
		if p != "" && (strings.HasPrefix(t.WorkerID, p) || strings.HasPrefix(t.TaskID, p) || fmt.Sprint(t.PID) == p) {
			return true
		}
	}
	return false
}

// label names a task for people: its name, else its worker.
func (t Task) label() string {
	switch {
	case t.Name != "":
		return t.Name
	case len(t.WorkerID) > 8:
		return "worker " + t.WorkerID[:8]
	}
	return "worker " + t.WorkerID
}
