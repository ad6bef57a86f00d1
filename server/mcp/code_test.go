// code_test.go: code context through MCP on a real workspace (a temporary
// copy of the example program, since the indexer skips testdata/): the stop
// report names the enclosing symbol and its callers, and code_inspect
// answers for the stopped frame, a symbol, and an unknown symbol.

package mcp

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect/code"
	"github.com/dapscope/dapscope/server/session"
)

func TestCodeContext(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	src, err := os.ReadFile(filepath.Join(repoRoot(t), agentPy))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "agent.py"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: ws, Logger: testLogger()})
	srv := New(mgr, Options{Logger: testLogger()})
	t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	a := httpAgent(t, ep)

	// code_inspect waits for the index; after it the stop report has code context.
	var res code.Result
	a.call("code_inspect", map[string]any{"symbol": "agent.main"}, &res)
	if res.Symbol != "agent.main" || !strings.Contains(res.Snippet, "def main") || res.FullSource != nil {
		t.Fatalf("code_inspect agent.main = %+v", res)
	}
	if !slices.ContainsFunc(res.OutgoingCalls, func(r code.Ref) bool { return r.Symbol == "agent.clean" }) {
		t.Fatalf("outgoing calls of main = %+v", res.OutgoingCalls)
	}

	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "agent.py", "breakpoints": []map[string]any{{"file": "agent.py", "line": 12}}}, &stop)
	if stop.Location == nil || stop.Location.Line != 12 || stop.Code == nil || stop.Code.Symbol != "agent.clean" {
		t.Fatalf("stop report code context = %+v / %+v", stop.Location, stop.Code)
	}
	if len(stop.Code.Callers) == 0 || stop.Code.Callers[0].Symbol != "agent.main" || stop.Code.Callers[0].Path != "agent.py" {
		t.Fatalf("callers = %+v", stop.Code.Callers)
	}
	// No symbol/path: the code at the stopped frame, with the full source.
	a.call("code_inspect", map[string]any{"include_full_source": true}, &res)
	if res.Symbol != "agent.clean" || res.FullSource == nil || *res.FullSource != string(src) && !strings.Contains(string(src), *res.FullSource) {
		t.Fatalf("code_inspect at frame = %+v", res)
	}
	if e := a.fail("code_inspect", map[string]any{"symbol": "agent.nothing_like_this"}); e.Code != "NOT_FOUND" {
		t.Fatalf("unknown symbol = %+v", e)
	}
	if e := a.fail("code_inspect", map[string]any{"path": "../outside.py"}); e.Code != "INVALID_PATH" {
		t.Fatalf("path outside the workspace = %+v", e)
	}
	a.call("debug_terminate", nil, nil)
}
