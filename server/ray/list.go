// Package ray finds the Ray tasks paused in Ray's distributed debugger.
//
// With RAY_DEBUG=1 (Ray's default since 2.39) a breakpoint() in a task, or
// an unhandled exception with RAY_DEBUG_POST_MORTEM=1, makes the worker
// listen with debugpy (ray/util/debugpy.py), record the port in the
// cluster's worker table (debugger_port) and count the thread it pauses
// (num_paused_threads); Ray's VS Code extension lists the workers from
// there. So does this package, through the dashboard's state API: GET
// /api/v0/workers (the live ones: their debugger_port and
// num_paused_threads), and /api/v0/tasks for the task each runs. Ray
// counts a thread paused only while it waits for a client: an attached
// task is listed apart (Listing.Debugging). Each listed task is
// a debugpy.listen endpoint: session.Manager.Attach reaches it like any
// other, with the same host allow-list (attach.go puts them under one
// cluster root).
//
// The dashboard's HTTP API has all it takes, so the listing is plain Go
// HTTP. Only a GCS address (host:port without a scheme) needs Python: the
// dashboard's URL is in the GCS's internal KV, which speaks gRPC, so
// resolve.py reads it with the cluster's own ray package (address.go).
package ray

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

// Task is one paused Ray task: the worker that runs it and the debugpy
// endpoint it waits on.
type Task struct {
	// WorkerID is the worker's id (hex), the key Ray's state API uses.
	WorkerID string `json:"worker_id"`
	PID      int    `json:"pid"`
	// Host and Port are where the worker's debugpy listens.
	Host string `json:"host"`
	Port int    `json:"port"`
	// PausedThreads is how many of its threads wait in the debugger.
	PausedThreads int    `json:"paused_threads"`
	NodeID        string `json:"node_id,omitempty"`
	// TaskID, Name and Function are the running task's (empty when Ray's
	// task events have not reported it yet: they lag by about a second).
	TaskID   string `json:"task_id,omitempty"`
	Name     string `json:"name,omitempty"`
	Function string `json:"function,omitempty"`
	JobID    string `json:"job_id,omitempty"`
	ActorID  string `json:"actor_id,omitempty"`
	// Note says why the task cannot be attached from here (its host is
	// not loopback nor allowed); empty when it can.
	Note string `json:"note,omitempty"`
}

// Listing is a cluster's paused tasks.
type Listing struct {
	// Dashboard is the dashboard's URL the listing came from.
	Dashboard string `json:"dashboard"`
	// Tasks wait for a debugger (Ray counts a thread paused only until a
	// client attaches).
	Tasks []Task `json:"tasks"`
	// Debugging are the workers whose debugpy listens with no thread
	// waiting: a debugger is attached (or was, and the task ran on). Their
	// task is named while it runs.
	Debugging []Task `json:"debugging,omitempty"`
}

// Options say which cluster to ask and how.
type Options struct {
	// Address is the dashboard's URL (http://127.0.0.1:8265), a GCS
	// address (127.0.0.1:6379, resolved with Python), or "" for
	// $RAY_DASHBOARD_ADDRESS, else Ray's default dashboard
	// http://127.0.0.1:8265.
	Address string
	// TokenFile holds the cluster's token when it uses Ray's token
	// authentication; "" reads $RAY_AUTH_TOKEN, $RAY_AUTH_TOKEN_PATH,
	// then ~/.ray/auth_token, as Ray does (token.go).
	TokenFile string
	// AllowHosts are the non-loopback hosts that may be reached (the
	// dashboard, and the workers' debugpy).
	AllowHosts []string
	// Python resolves a GCS address (its ray package); "" for python3.
	Python string
	// Timeout bounds each HTTP request (default 10 s).
	Timeout time.Duration
}

// maxBody bounds a state API answer.
const maxBody = 16 << 20

// List returns the cluster's paused tasks, sorted by worker pid.
func List(ctx context.Context, o Options) (*Listing, error) {
	base, err := Dashboard(ctx, o)
	if err != nil {
		return nil, err
	}
	c, err := newClient(base, o)
	if err != nil {
		return nil, err
	}
	var workers []struct {
		WorkerID         string `json:"worker_id"`
		IP               string `json:"ip"`
		PID              int    `json:"pid"`
		NodeID           string `json:"node_id"`
		IsAlive          bool   `json:"is_alive"`
		DebuggerPort     int    `json:"debugger_port"`
		NumPausedThreads int    `json:"num_paused_threads"`
	}
	// Every live worker: the GCS filters on liveness; the debugger's port
	// is kept once set, the paused count only while a thread waits.
	q := url.Values{"detail": {"1"}, "limit": {"10000"}, "filter_keys": {"is_alive"}, "filter_predicates": {"="}, "filter_values": {"True"}}
	if err := c.get(ctx, "/api/v0/workers", q, &workers); err != nil {
		return nil, err
	}
	out := &Listing{Dashboard: base.String(), Tasks: []Task{}}
	for _, w := range workers {
		if !w.IsAlive || w.DebuggerPort <= 0 {
			continue
		}
		t := Task{WorkerID: w.WorkerID, PID: w.PID, Host: w.IP, Port: w.DebuggerPort, PausedThreads: max(w.NumPausedThreads, 0), NodeID: w.NodeID}
		if !HostAllowed(t.Host, o.AllowHosts) {
			t.Note = fmt.Sprintf("%s is not a loopback address; allow it explicitly (--attach-hosts %s) to attach", t.Host, t.Host)
		}
		if t.PausedThreads > 0 {
			out.Tasks = append(out.Tasks, t)
		} else {
			out.Debugging = append(out.Debugging, t)
		}
	}
	if len(out.Tasks)+len(out.Debugging) > 0 {
		c.addTasks(ctx, out.Tasks)
		c.addTasks(ctx, out.Debugging)
	}
	for _, l := range [][]Task{out.Tasks, out.Debugging} {
		sort.Slice(l, func(i, j int) bool { return l[i].PID < l[j].PID })
	}
	return out, nil
}

// addTasks names the task each paused worker runs (best effort: Ray's
// task events lag, and a failure leaves the names empty).
func (c *client) addTasks(ctx context.Context, tasks []Task) {
	if len(tasks) == 0 {
		return
	}
	var running []struct {
		TaskID   string `json:"task_id"`
		Name     string `json:"name"`
		Func     string `json:"func_or_class_name"`
		JobID    string `json:"job_id"`
		ActorID  string `json:"actor_id"`
		WorkerID string `json:"worker_id"`
	}
	q := url.Values{"detail": {"1"}, "limit": {"10000"}, "filter_keys": {"state"}, "filter_predicates": {"="}, "filter_values": {"RUNNING"}}
	if err := c.get(ctx, "/api/v0/tasks", q, &running); err != nil {
		return
	}
	for i := range tasks {
		for _, r := range running {
			if r.WorkerID == tasks[i].WorkerID {
				tasks[i].TaskID, tasks[i].Name, tasks[i].Function, tasks[i].JobID, tasks[i].ActorID = r.TaskID, r.Name, r.Func, r.JobID, r.ActorID
			}
		}
	}
}

// client asks one dashboard.
type client struct {
	base  *url.URL
	token string
	hc    *http.Client
}

func newClient(base *url.URL, o Options) (*client, error) {
	token, err := readToken(o.TokenFile)
	if err != nil {
		return nil, err
	}
	timeout := o.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	hc := &http.Client{Timeout: timeout, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse // never follow a redirect with the token
	}}
	return &client{base: base, token: token, hc: hc}, nil
}

// get reads a state API answer's rows into rows.
func (c *client) get(ctx context.Context, path string, q url.Values, rows any) error {
	u := *c.base
	u.Path = strings.TrimSuffix(u.Path, "/") + path
	u.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return errcode.Invalid("address", "%v", err)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return &errcode.Error{Code: errcode.Timeout, Message: fmt.Sprintf("Ray's dashboard %s did not answer: %v", c.base, ctx.Err())}
		}
		return &errcode.Error{Code: errcode.NotFound, Field: "address", Message: fmt.Sprintf("no Ray dashboard at %s: %v", c.base, stripURL(err)),
			Hint: "start the cluster with its dashboard (ray start --head, or ray.init(include_dashboard=True); it needs ray[default]) and give its URL"}
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	if err != nil {
		return &errcode.Error{Code: errcode.AdapterError, Message: fmt.Sprintf("Ray's dashboard %s: %v", c.base, stripURL(err))}
	}
	if len(body) > maxBody {
		return &errcode.Error{Code: errcode.LimitExceeded, Message: fmt.Sprintf("Ray's dashboard answered more than %d bytes for %s", maxBody, path)}
	}
	switch {
	case resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden:
		return &errcode.Error{Code: errcode.InvalidArgument, Field: "token_file", Message: fmt.Sprintf("Ray's dashboard %s refused the request (%d %s)", c.base, resp.StatusCode, clip.Bytes.Head(strings.TrimSpace(string(body)), 200)),
			Hint: "the cluster uses token authentication: give its token (token_file, $RAY_AUTH_TOKEN or ~/.ray/auth_token)"}
	case resp.StatusCode != http.StatusOK:
		return &errcode.Error{Code: errcode.AdapterError, Message: fmt.Sprintf("Ray's dashboard %s answered %d for %s: %s", c.base, resp.StatusCode, path, clip.Bytes.Head(strings.TrimSpace(string(body)), 300))}
	}
	var env struct {
		Result bool   `json:"result"`
		Msg    string `json:"msg"`
		Data   struct {
			Result struct {
				Result json.RawMessage `json:"result"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil {
		return &errcode.Error{Code: errcode.AdapterError, Message: fmt.Sprintf("%s%s is not Ray's state API: %v", c.base, path, err)}
	}
	if !env.Result {
		return &errcode.Error{Code: errcode.AdapterError, Message: fmt.Sprintf("Ray's state API: %s", clip.Bytes.Head(env.Msg, 300))}
	}
	if len(env.Data.Result.Result) == 0 || string(env.Data.Result.Result) == "null" {
		return nil
	}
	if err := json.Unmarshal(env.Data.Result.Result, rows); err != nil {
		return &errcode.Error{Code: errcode.AdapterError, Message: fmt.Sprintf("Ray's state API rows of %s: %v", path, err)}
	}
	return nil
}

// stripURL keeps a transport error's reason (its URL holds no secret, but
// the reason is what matters).
func stripURL(err error) error {
	var ue *url.Error
	if e, ok := err.(*url.Error); ok {
		ue = e
		return ue.Err
	}
	return err
}

// HostAllowed: loopback always; another host only when allowed by name.
func HostAllowed(host string, allow []string) bool {
	h := strings.Trim(host, "[]")
	if strings.EqualFold(h, "localhost") {
		return true
	}
	if ip := net.ParseIP(h); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, a := range allow {
		if strings.EqualFold(strings.TrimSpace(a), h) {
			return true
		}
	}
	return false
}

// Endpoint is a task's debugpy address, host:port.
func (t Task) Endpoint() string { return net.JoinHostPort(t.Host, strconv.Itoa(t.Port)) }
