// code_javascript_test.go: code_inspect on a JavaScript workspace through the real
// MCP server (a temporary copy of testdata/code/web: ES modules, a
// CommonJS module, a class, node:test files), and the code context of a
// stop in a real Node session on dapscope's Node adapter.

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

func TestCodeInspectJavaScript(t *testing.T) {
	t.Parallel()
	ws := t.TempDir()
	if err := os.CopyFS(ws, os.DirFS(filepath.Join(repoRoot(t), "testdata/code/web"))); err != nil {
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
	has := func(refs []code.Ref, sym string) bool {
		return slices.ContainsFunc(refs, func(r code.Ref) bool { return r.Symbol == sym })
	}

	var res code.Result
	a.call("code_inspect", map[string]any{"symbol": "Cart.addItem", "max_neighbors": 10}, &res)
	if res.Symbol != "src/cart.Cart.addItem" || res.Kind != "method" || res.Path != "src/cart.js" || !strings.Contains(res.Snippet, "addItem(item) {") {
		t.Fatalf("code_inspect Cart.addItem = %+v", res)
	}
	if !has(res.OutgoingCalls, "src/ledger.Ledger.record") || !has(res.IncomingCalls, "src/app.start") ||
		!has(res.RelatedTests, "test/cart.test.Cart.addItem grows the cart") || res.GraphStatus != code.GraphConnected {
		t.Fatalf("Cart.addItem relations: out %+v in %+v tests %+v", res.OutgoingCalls, res.IncomingCalls, res.RelatedTests)
	}
	a.call("code_inspect", map[string]any{"path": "src/logger.cjs", "line": 14}, &res)
	if res.Symbol != "src/logger.persist" || !slices.Contains(res.Enrichment.SideEffects, "filesystem write (fs.writeFileSync)") {
		t.Fatalf("code_inspect logger.cjs:14 = %+v", res)
	}
	if e := a.fail("code_inspect", map[string]any{"path": "../outside.js"}); e.Code != "INVALID_PATH" {
		t.Fatalf("path outside the workspace = %+v", e)
	}

	// A stop in a Node program carries the enclosing symbol and its callers.
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "src/app.mjs", "adapter": "node",
		"breakpoints": []map[string]any{{"file": "src/ledger.js", "line": 8}}}, &stop)
	if stop.Location == nil || stop.Location.Line != 8 || stop.Code == nil || stop.Code.Symbol != "src/ledger.Ledger.record" {
		t.Fatalf("stop = %+v / %+v", stop.Location, stop.Code)
	}
	if !slices.ContainsFunc(stop.Code.Callers, func(r CodeRef) bool { return r.Symbol == "src/cart.Cart.addItem" && r.Path == "src/cart.js" }) {
		t.Fatalf("callers = %+v", stop.Code.Callers)
	}
	a.call("code_inspect", nil, &res) // the code at the stopped frame
	if res.Symbol != "src/ledger.Ledger.record" {
		t.Fatalf("code_inspect at frame = %+v", res)
	}
	a.call("debug_terminate", nil, nil)
}
