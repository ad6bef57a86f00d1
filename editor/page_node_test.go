// page_node_test.go: dapscope/page on a Node session through dapscope's
// proxy and Node adapter (real Node, the fake editor): the webview's data
// viewer sorts and filters a JavaScript table; each page equals the
// program's own Array.prototype.sort/filter run in the frame; the filter
// runs under V8's side-effect check (a refused one comes back inline, the
// program unchanged); empty pages are empty lists (page_empty_test.go); a
// new stop drops the cached order of a value changed in place.

package editor_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

func TestPageWithNode(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/page.js")
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	bpLine := slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.HasSuffix(l, "// BREAKPOINT") }) + 1
	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	c := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	c.Initialize()
	proxy := c.StartProxy(editor.StartProxyParams{VSCodeSessionID: "vs-js", Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "node", "program": fixture}})
	ed := c.DialProxy(proxy.Address)
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	stopped, frame := ed.LaunchToFrame(map[string]any{"program": fixture, "cwd": filepath.Dir(fixture)}, fixture, bpLine)
	c.SessionEvent("stopped")
	thread := stopped.Body.ThreadId

	// The program's own answer, evaluated by the editor in the frame.
	const order = `rows.map((r, i) => i).filter((i) => rows[i].qty >= 3 && rows[i].city !== 'Lyon')` +
		`.sort((a, b) => { const x = rows[a].price, y = rows[b].price; return x === null ? (y === null ? 0 : 1) : y === null ? -1 : y - x; })`
	program := func(frameID int, expr string) []int64 {
		t.Helper()
		r := ed.Evaluate("JSON.stringify("+expr+")", frameID, "clipboard")
		var out []int64
		if err := json.Unmarshal([]byte(r.Result), &out); err != nil {
			t.Fatalf("%s = %q: %v", expr, r.Result, err)
		}
		return out
	}
	page := func(p editor.PageParams) *inspect.PageResult {
		t.Helper()
		res := c.Page(p)
		return &res
	}
	// The program's answer first: an evaluate drops the probe's cached
	// orders (the values may have changed), so the pages come after it.
	all := program(frame.Id, order)
	sel := inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Filter: "qty >= 3 && city !== 'Lyon'",
		Columns: []any{"city", "price"}, Rows: &inspect.RowWindow{Limit: 50}}
	res := page(editor.PageParams{VSCodeSessionID: "vs-js", Expression: "rows", Selection: sel})
	if res.Error != nil || res.Page == nil {
		t.Fatalf("page: %+v", res)
	}
	if p := res.Page; !slices.Equal(p.Positions, all[:50]) || p.Total() != int64(len(all)) || p.All() != 2000 || p.ColumnCount != 3 || p.Columns[1].Dtype != "number" {
		t.Fatalf("page %+v\nthe program says %v (%d rows)", p, all[:50], len(all))
	}
	// A later window comes from the cached order; nulls last.
	sel.Rows = &inspect.RowWindow{Offset: int64(len(all)) - 30, Limit: 100}
	res = page(editor.PageParams{VSCodeSessionID: "vs-js", FrameID: frame.Id, Expression: "rows", Selection: sel})
	if res.Page == nil || !slices.Equal(res.Page.Positions, all[len(all)-30:]) || !res.Page.Cached || res.Page.Rows[29][1] != nil {
		t.Fatalf("last window %+v", res.Page)
	}
	// Typed errors inline: a filter that would change the program, a
	// syntax error, an unknown column; the program is unchanged.
	for filter, want := range map[string]string{"rows.splice(0) && true": "could change the program", "qty >=": "SyntaxError"} {
		res = page(editor.PageParams{VSCodeSessionID: "vs-js", Expression: "rows", Selection: inspect.Selection{Filter: filter}})
		if res.Error == nil || res.Error.Code != errcode.InvalidExpression || !strings.Contains(res.Error.Message, want) || res.Page != nil {
			t.Fatalf("filter %q: %+v", filter, res)
		}
	}
	if n := ed.Evaluate("rows.length", frame.Id, "repl"); n.Result != "2000" {
		t.Fatalf("rows.length = %s after the refused filter", n.Result)
	}
	res = page(editor.PageParams{VSCodeSessionID: "vs-js", Expression: "rows", Selection: inspect.Selection{Columns: []any{"nope"}}})
	if res.Error == nil || res.Error.Code != errcode.VariableNotFound || !slices.Contains(res.Error.AvailableVariables, "price") {
		t.Fatalf("unknown column: %+v", res)
	}

	// Empty pages are empty lists (issue #28.7).
	checkEmptyPages(t, c, "vs-js", "rows", "qty > 100", "none", 2000)

	// Next: the prices change in place; the same selection sees the new order.
	ed.Next(thread)
	ed.Stopped()
	c.SessionEvent("stopped")
	frame = ed.TopFrame(thread)
	sel.Rows = &inspect.RowWindow{Limit: 50}
	res = page(editor.PageParams{VSCodeSessionID: "vs-js", Expression: "rows", Selection: sel})
	if want := program(frame.Id, order); res.Page == nil || !slices.Equal(res.Page.Positions, want[:50]) || res.Page.Cached {
		t.Fatalf("after the change: %+v, the program says %v", res.Page, want[:50])
	}
	if err := c.Shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
