//go:build !windows

// node_hashpath_test.go: a Node program in a folder whose name holds '#'
// (issue #37's report: a breakpoint that never bound there), launched
// through MCP's debug_launch on real node: in a subfolder of the
// workspace and with '#' in the workspace's own name, the program given
// relative and absolute, CommonJS and ES module, on the node on PATH and
// on Node 24; it does not reproduce here (the test keeps it so): the
// breakpoint binds and
// the program stops there, its location named by its own path.

package mcp

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

func TestNodeLaunchInHashFolderThroughMCP(t *testing.T) {
	t.Parallel()
	const body = "const n = 6 * 7;\nconsole.log('at', n); // @here\n"
	for _, tc := range []struct{ name, ws, dir, file string }{
		{"folder", "ws", "my #proj/src", "app.js"},
		{"workspace", "ws #1", "src", "app.js"},
		{"both esm", "w#s", "a#b", "app.mjs"},
		{"hash file", "ws", "x", "a#b.js"},
	} {
		for _, leg := range []struct {
			abs    bool
			node24 bool
		}{{false, false}, {true, false}, {false, true}} {
			abs, name := leg.abs, tc.name
			if abs {
				name += " absolute"
			}
			if leg.node24 {
				name += " node24"
			}
			t.Run(name, func(t *testing.T) {
				ws := filepath.Join(t.TempDir(), tc.ws)
				rel := filepath.Join(tc.dir, tc.file)
				prog := filepath.Join(ws, rel)
				if err := os.MkdirAll(filepath.Dir(prog), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(prog, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
				mgr := session.NewManager(session.ManagerOptions{Workspace: ws, Logger: testLogger(), InterruptTimeout: 5 * time.Second})
				srv := New(mgr, Options{Logger: testLogger()})
				t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
				ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
				if err != nil {
					t.Fatal(err)
				}
				a := httpAgent(t, ep)
				given := rel
				if abs {
					given = prog
				}
				args := map[string]any{"program": given, "breakpoints": []map[string]any{{"file": given, "line": 2}}}
				if leg.node24 {
					args["runtime_executable"] = filepath.Join(repoRoot(t), node24Rel(t))
				}
				var stop StopReport
				a.call("debug_launch", args, &stop)
				if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != 2 || stop.Location.Path != prog || stop.Location.File != rel {
					t.Fatalf("stop = %+v (location %+v), want paused at %s:2", stop, stop.Location, rel)
				}
				if stop.Breakpoint == nil || !stop.Breakpoint.Verified {
					t.Errorf("breakpoint = %+v, want it bound", stop.Breakpoint)
				}
				var ev struct {
					Result string `json:"result"`
				}
				if a.call("debug_evaluate", map[string]any{"expression": "n"}, &ev); ev.Result != "42" {
					t.Errorf("n = %q", ev.Result)
				}
			})
		}
	}
}
