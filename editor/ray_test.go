// Tests of dapscope/rayList: a real local Ray cluster (server/ray/raytest)
// with two tasks paused at breakpoint(): listed with their pid, function
// and debugpy endpoint; one attached the way the extension attaches it (a
// dapscope attach configuration through dapscope/startProxy, connect to
// the task's host:port, justMyCode off) stops on the task's breakpoint,
// and once detached it runs on; a non-loopback address is refused before
// any traffic. contractRay records the method's shapes for TestContract.

package editor_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/ray/raytest"
	"github.com/dapscope/dapscope/server/session"
)

func TestRayListAndAttach(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	root, _ := filepath.Abs("..")
	c := raytest.Start(t, testpython.Path(), root, "shards")
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Logger: testLogger(t)})
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	ed.Initialize()
	where := editor.RayListParams{Address: c.Dashboard, TokenFile: c.TokenFile}

	// Ray's task events lag its worker table: list until both are named.
	var l editor.RayListResult
	for deadline := time.Now().Add(120 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		if err := ed.Call("dapscope/rayList", where, &l); err != nil {
			t.Fatal(err)
		}
		if len(l.Tasks) == 2 && l.Tasks[0].Function == "shard" && l.Tasks[1].Function == "shard" || time.Now().After(deadline) {
			break
		}
	}
	if len(l.Tasks) != 2 || l.Dashboard != c.Dashboard {
		t.Fatalf("dapscope/rayList = %+v", l)
	}
	for _, tk := range l.Tasks {
		if tk.Host != "127.0.0.1" || tk.Port <= 0 || tk.PID <= 0 || tk.PausedThreads != 1 || tk.TaskID == "" || tk.Note != "" {
			t.Errorf("task %+v", tk)
		}
	}

	// The extension's attach: a dapscope attach configuration to the task's
	// debugpy, justMyCode off (Ray's set_trace stops by stepping out of
	// Ray's own code).
	tk := l.Tasks[0]
	cfg := map[string]any{"type": "dapscope", "request": "attach", "name": "Ray: shard", "adapter": "debugpy",
		"connect": map[string]any{"host": tk.Host, "port": tk.Port}, "justMyCode": false, "subProcess": false}
	proxy := ed.StartProxy(editor.StartProxyParams{VSCodeSessionID: "vs-ray-1", Configuration: cfg})
	vs := ed.DialProxy(proxy.Address)
	vs.Initialize(daptest.InitArgs("vscode", "dapscope"))
	attach := vs.Send("attach", cfg)
	vs.Event("initialized")
	vs.ConfigurationDone()
	vs.OK(attach)
	stopped := vs.Stopped()
	top := vs.TopFrame(stopped.Body.ThreadId)
	src, err := os.ReadFile(raytest.Script(root))
	if err != nil {
		t.Fatal(err)
	}
	line := lineWith(t, src, `    total = float(df["price"].sum())  # RAY TASK BREAKPOINT`) + 2 // Ray stops on breakpoint()'s line (1-based)
	if top.Source == nil || filepath.Base(top.Source.Path) != "ray_tasks.py" || top.Line != line {
		t.Fatalf("the attached task stopped at %+v, want ray_tasks.py:%d", top, line)
	}
	// The attached task is no longer waiting; detached, it runs on.
	vs.Disconnect(false)
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		if err := ed.Call("dapscope/rayList", where, &l); err != nil {
			t.Fatal(err)
		}
		if len(l.Tasks) == 1 && l.Tasks[0].PID != tk.PID {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the detach: %+v", l)
		}
	}

	// Loopback only: another host is refused before any traffic.
	err = ed.Call("dapscope/rayList", editor.RayListParams{Address: "http://10.1.2.3:8265"}, nil)
	if err == nil || !strings.Contains(err.Error(), "not a loopback address") {
		t.Errorf("a non-loopback dashboard: %v", err)
	}
}

// contractRay records dapscope/rayList's shapes against a stand-in for a
// dashboard's state API (a real cluster takes a minute to start: the real
// one is TestRayListAndAttach's): a paused loopback task, a paused one on a
// host not allowed (a note), one being debugged. The token goes in the
// Authorization header only.
func contractRay(t *testing.T, call func(method string, params, out any)) {
	t.Helper()
	token := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(token, []byte("contract-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	rows := func(w http.ResponseWriter, v any) {
		b, _ := json.Marshal(map[string]any{"result": true, "msg": "", "data": map[string]any{"result": map[string]any{"result": v}}})
		_, _ = w.Write(b)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer contract-token" || strings.Contains(r.URL.RawQuery, "contract-token") {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		worker := func(id, ip string, pid, port, paused int) map[string]any {
			return map[string]any{"worker_id": id, "ip": ip, "pid": pid, "node_id": "n1", "is_alive": true, "debugger_port": port, "num_paused_threads": paused}
		}
		switch r.URL.Path {
		case "/api/v0/workers":
			rows(w, []any{worker("w1", "127.0.0.1", 11, 50001, 1), worker("w2", "10.0.0.9", 12, 50002, 1), worker("w3", "127.0.0.1", 13, 50003, 0)})
		case "/api/v0/tasks":
			var tasks []any
			for i, wid := range []string{"w1", "w2", "w3"} {
				tasks = append(tasks, map[string]any{"task_id": fmt.Sprint("t", i), "name": "Shard.run", "func_or_class_name": "Shard.run", "job_id": "01000000", "actor_id": "a1", "worker_id": wid})
			}
			rows(w, tasks)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	var l editor.RayListResult
	call("dapscope/rayList", editor.RayListParams{Address: srv.URL, TokenFile: token}, &l)
	if len(l.Tasks) != 2 || l.Tasks[0].Name != "Shard.run" || l.Tasks[0].Note != "" || !strings.Contains(l.Tasks[1].Note, "not a loopback") || len(l.Debugging) != 1 {
		t.Fatalf("dapscope/rayList = %+v", l)
	}
}
