// soak_test.go: a bounded soak (60 s, DAPSCOPE_SOAK=DURATION to change) of
// one real debugpy session shared by an editor and eight agents. The editor
// steps and continues through a loop through the proxy while eight MCP
// clients over HTTP evaluate, inspect, snapshot and diff on the same
// session. Pass: no lost or misrouted response on either side, no wrong
// answer, every error typed, no child process left, no goroutine leak
// (TestMain), resident memory flat (figures logged).

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

func rssKB() int {
	b, _ := os.ReadFile("/proc/self/status")
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// liveChildren counts this process's live (non-zombie) children.
func liveChildren() int {
	me := strconv.Itoa(os.Getpid())
	ents, _ := os.ReadDir("/proc")
	n := 0
	for _, e := range ents {
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 1 && f[1] == me && f[0] != "Z" {
			n++
		}
	}
	return n
}

func TestSoakEditorAndEightAgents(t *testing.T) {
	dur := 60 * time.Second
	if v := os.Getenv("DAPSCOPE_SOAK"); v != "" {
		if d, err := time.ParseDuration(v); err == nil {
			dur = d
		}
	}
	mgr, srv := newServer(t, Options{})
	ctx := testCtx(t)
	addr, err := mgr.ListenEditor(ctx, session.ProxySpec{})
	if err != nil {
		t.Fatal(err)
	}
	ed := dialEditor(t, addr)
	prog := filepath.Join(repoRoot(t), "testdata", "mcp", "soak.py")
	// → initialize, launch, setBreakpoints(BREAK), configurationDone ← stopped
	ed.Initialize(daptest.InitArgs("vscode", "python"))
	stopped, _ := ed.LaunchToFrame(daptest.PythonLaunch(prog), prog, 11)
	tid := stopped.Body.ThreadId
	ep, err := srv.ServeHTTP(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	rssStart := rssKB()
	deadline := time.Now().Add(dur)

	// Eight agents.
	var mu sync.Mutex
	var rssMid int
	time.AfterFunc(dur/2, func() { mu.Lock(); rssMid = rssKB(); mu.Unlock() })
	outcomes := map[string]int{}
	var failures []string
	note := func(k string) { mu.Lock(); outcomes[k]++; mu.Unlock() }
	fail := func(format string, args ...any) {
		mu.Lock()
		if len(failures) < 20 {
			failures = append(failures, fmt.Sprintf(format, args...))
		}
		mu.Unlock()
	}
	var wg sync.WaitGroup
	var agents []*agent
	for n := 0; n < 8; n++ {
		a := httpAgent(t, ep)
		agents = append(agents, a)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				var tool string
				var args map[string]any
				m := 1000*n + i
				switch i % 4 {
				case 0, 1:
					tool, args = "debug_evaluate", map[string]any{"expression": fmt.Sprintf("sum(range(%d)) + k", m)}
				case 2:
					tool, args = "debug_inspect_variable", map[string]any{"expression": "df", "format": "json"}
				case 3:
					tool, args = "debug_snapshot", map[string]any{}
				}
				r, err := a.callCtx(context.Background(), tool, args, false)
				if err != nil {
					fail("%s: lost or protocol error: %v", tool, err)
					continue
				}
				b, _ := json.Marshal(r.StructuredContent)
				if r.IsError {
					var e struct {
						Error errcode.Error `json:"error"`
					}
					if json.Unmarshal(b, &e) != nil || e.Error.Code == "" || e.Error.Code == errcode.Internal {
						fail("%s: untyped error %s", tool, textOf(r))
					}
					note(tool + " " + string(e.Error.Code))
					continue
				}
				switch tool {
				case "debug_evaluate":
					var ev struct {
						Result string `json:"result"`
					}
					_ = json.Unmarshal(b, &ev)
					if want := strconv.Itoa(m*(m-1)/2 + 7); ev.Result != want {
						fail("evaluate %d: %q, want %s (misrouted?)", m, ev.Result, want)
					}
				case "debug_inspect_variable":
					if !strings.Contains(textOf(r), "100") {
						fail("inspect df: %.200s", textOf(r))
					}
				case "debug_snapshot":
					var sn SnapshotResult
					if json.Unmarshal(b, &sn) != nil || sn.Snapshot == nil || sn.Snapshot.ID == "" {
						fail("snapshot without an id: %s", b)
						continue
					}
					id := sn.Snapshot.ID
					if d, err := a.callCtx(context.Background(), "debug_diff", map[string]any{"from": id}, false); err != nil {
						fail("diff: lost: %v", err)
					} else {
						note("debug_diff ok=" + strconv.FormatBool(!d.IsError))
					}
					if d, err := a.callCtx(context.Background(), "debug_snapshot", map[string]any{"action": "delete", "id": id}, false); err != nil || d.IsError {
						fail("delete %s: %v %s", id, err, textOf(d))
					}
				}
				note(tool + " ok")
			}
		}()
	}

	// The editor steps (next ×4, then continue to the breakpoint again),
	// reading the frame at every stop as VS Code does.
	steps := 0
	for time.Now().Before(deadline) {
		if steps%5 == 4 {
			ed.Continue(tid)
		} else {
			ed.Next(tid)
		}
		ev := ed.Stopped()
		frames := ed.StackTrace(ev.Body.ThreadId, 20)
		scopes := ed.Scopes(frames[0].Id)
		vars := ed.Variables(scopes[0].VariablesReference)
		if !hasVar(vars, "total") {
			t.Fatalf("step %d: locals without total: %+v", steps, vars)
		}
		steps++
	}
	wg.Wait()
	rssEnd := rssKB()
	if f := ed.Foreign(); len(f) > 0 {
		t.Errorf("the editor received responses it did not cause: %v", f)
	}
	if u := ed.Unanswered(); len(u) > 0 {
		t.Errorf("editor requests never answered: %v", u)
	}
	ed.Disconnect(true)
	ed.Close()
	keys := make([]string, 0, len(outcomes))
	for k := range outcomes {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var sum []string
	for _, k := range keys {
		sum = append(sum, fmt.Sprintf("%s=%d", k, outcomes[k]))
	}
	t.Logf("soak %v: editor %d stops; agents: %s; RSS %d MB → %d MB at half time → %d MB at the end", dur, steps, strings.Join(sum, " "), rssStart>>10, rssMid>>10, rssEnd>>10)
	if len(failures) > 0 {
		t.Fatalf("failures:\n%s", strings.Join(failures, "\n"))
	}
	if outcomes["debug_evaluate ok"] == 0 || steps < 10 {
		t.Fatalf("the soak did too little to mean anything: %v, %d steps", outcomes, steps)
	}
	// Flat: the second half adds no more than a fraction of the first
	// (warm-up: connections, caches, the race detector's shadow memory).
	mu.Lock()
	mid := rssMid
	mu.Unlock()
	if grow := rssEnd - mid; mid > 0 && grow > 64<<10 {
		t.Errorf("resident memory grew by %d MB in the second half of the soak (%d → %d MB)", grow>>10, mid>>10, rssEnd>>10)
	}
	for _, a := range agents {
		_ = a.c.Close()
	}
	srv.Close()
	_ = mgr.Close()
	for i := 0; i < 100 && liveChildren() > 0; i++ {
		time.Sleep(100 * time.Millisecond)
	}
	if n := liveChildren(); n > 0 {
		t.Errorf("%d child processes left after the soak", n)
	}
}

func hasVar(vars []godap.Variable, name string) bool {
	for _, v := range vars {
		if v.Name == name {
			return true
		}
	}
	return false
}
