// list_test.go: the paused tasks of a real local Ray cluster, listed
// through its dashboard (and through its GCS address, resolved with the
// cluster's Python), the token's refusals, and the host rules.

package ray

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/ray/raytest"
)

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// waitPaused lists until n tasks are paused and named (Ray's task events
// lag the worker table by about a second).
func waitPaused(t *testing.T, o Options, n int) *Listing {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	var l *Listing
	var err error
	for {
		l, err = List(ctx, o)
		named := 0
		if err == nil {
			for _, tk := range l.Tasks {
				if tk.Name != "" {
					named++
				}
			}
		}
		if err == nil && len(l.Tasks) == n && named == n {
			return l
		}
		select {
		case <-ctx.Done():
			t.Fatalf("paused tasks: %+v, %v", l, err)
		case <-time.After(300 * time.Millisecond):
		}
	}
}

func TestListPausedTasks(t *testing.T) {
	testpython.Require(t, "ray", "debugpy", "pandas")
	c := raytest.Start(t, testpython.Path(), repoRoot(), "shards")
	o := Options{Address: c.Dashboard, TokenFile: c.TokenFile}
	l := waitPaused(t, o, 2)
	if l.Dashboard != c.Dashboard {
		t.Errorf("dashboard %q, want %q", l.Dashboard, c.Dashboard)
	}
	for _, tk := range l.Tasks {
		if tk.Host != "127.0.0.1" || tk.Port <= 0 || tk.PID <= 0 || tk.PausedThreads != 1 || tk.Function != "shard" || tk.TaskID == "" || tk.Note != "" {
			t.Errorf("task %+v", tk)
		}
	}
	if l.Tasks[0].PID == l.Tasks[1].PID || l.Tasks[0].Port == l.Tasks[1].Port {
		t.Errorf("two tasks on one worker: %+v", l.Tasks)
	}

	// The GCS address: the dashboard's URL read from the cluster's KV with
	// the cluster's Python (Ray finds the token there itself).
	t.Setenv("RAY_AUTH_TOKEN_PATH", c.TokenFile)
	g, err := List(context.Background(), Options{Address: c.GCS, Python: testpython.Path()})
	if err != nil || len(g.Tasks) != 2 || g.Dashboard != c.Dashboard {
		t.Fatalf("by GCS address %s: %+v, %v", c.GCS, g, err)
	}

	// A wrong token is refused, naming the token.
	bad := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(bad, []byte("not-the-token"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = List(context.Background(), Options{Address: c.Dashboard, TokenFile: bad})
	if e := errcode.As(err); e == nil || e.Field != "token_file" || strings.Contains(e.Error(), "not-the-token") {
		t.Errorf("wrong token: %v", err)
	}
}

// TestListRefusals: what is refused before any traffic.
func TestListRefusals(t *testing.T) {
	for addr, want := range map[string]string{
		"http://10.1.2.3:8265":        "not a loopback address",
		"10.1.2.3:6379":               "not a loopback address",
		"http://user:pw@127.0.0.1:1/": "credentials",
		"ftp://127.0.0.1:8265":        "dashboard URL",
		"nonsense":                    "dashboard URL",
	} {
		_, err := List(context.Background(), Options{Address: addr})
		if e := errcode.As(err); e == nil || e.Field != "address" || !strings.Contains(e.Message, want) {
			t.Errorf("%s: %v, want %q", addr, err, want)
		}
	}
	if !HostAllowed("ray-head", []string{"ray-head"}) || HostAllowed("ray-head", nil) || !HostAllowed("::1", nil) {
		t.Error("host rules")
	}
	// Nothing listens: a NOT_FOUND that says to start the dashboard.
	_, err := List(context.Background(), Options{Address: "http://127.0.0.1:1"})
	if !errcode.Is(err, errcode.NotFound) {
		t.Errorf("no dashboard: %v", err)
	}
}
