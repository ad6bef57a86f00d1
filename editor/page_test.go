// Tests of dapscope/page against real debugpy through the editor channel
// (the fake editor, editortest):
// a sorted, filtered page of chosen columns equals pandas' own answer in
// the debuggee; later windows, an empty window (the column list), typed
// errors in the result (bad filter, unknown column), empty pages as empty
// lists (page_empty_test.go), a new stop dropping
// the cached order of a value changed in place, and NOT_PAUSED while
// running.

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

func TestPageWithDebugpy(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/page.py")
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	bpLine := slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.HasSuffix(l, "# BREAKPOINT") }) + 1
	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	c := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	c.Initialize()
	proxy := c.StartProxy(editor.StartProxyParams{VSCodeSessionID: "vs-1", Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "debugpy", "program": fixture}})
	ed := c.DialProxy(proxy.Address)
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	stopped, frame := ed.LaunchToFrame(map[string]any{"program": fixture, "console": "internalConsole", "cwd": filepath.Dir(fixture), "justMyCode": true}, fixture, bpLine)
	c.SessionEvent("stopped")
	thread := stopped.Body.ThreadId

	// pandas' own answer, evaluated by the (scripted) editor in the frame.
	pandas := func(frameID int, expr string) []int64 {
		t.Helper()
		r := ed.Evaluate("__import__('json').dumps([int(i) for i in "+expr+"])", frameID, "repl")
		var out []int64
		if err := json.Unmarshal([]byte(strings.Trim(r.Result, `'"`)), &out); err != nil {
			t.Fatalf("pandas %s = %q: %v", expr, r.Result, err)
		}
		return out
	}
	page := func(p editor.PageParams) *inspect.PageResult {
		t.Helper()
		res := c.Page(p)
		return &res
	}
	sortDesc := inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Filter: "qty >= 3 and city != 'Lyon'"}
	query := `df.query("qty >= 3 and city != 'Lyon'").sort_values("price", ascending=False, kind="stable", na_position="last").index`

	// pandas' answers first: an evaluate (the editor's too) drops the
	// debuggee's cached orders (issue #28.4).
	want := pandas(frame.Id, query+"[:50]")
	total := pandas(frame.Id, "[len(df.query(\"qty >= 3 and city != 'Lyon'\"))]")[0]
	wantLast := pandas(frame.Id, query+"[-30:]")

	// The first page: 50 rows of two columns, sorted and filtered.
	sel := sortDesc
	sel.Columns = []any{"city", "price"}
	sel.Rows = &inspect.RowWindow{Offset: 0, Limit: 50}
	res := page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: sel})
	if res.Error != nil || res.Page == nil {
		t.Fatalf("page: %+v", res)
	}
	p := res.Page
	if !slices.Equal(p.Positions, want) {
		t.Fatalf("positions %v, pandas says %v", p.Positions, want)
	}
	if p.Total() != total || p.All() != 2000 || p.ColumnCount != 3 || len(p.Rows) != 50 {
		t.Fatalf("page counts: total %d (pandas %d), all %d, columns %d, rows %d", p.Total(), total, p.All(), p.ColumnCount, len(p.Rows))
	}
	if names := []string{p.Columns[0].Name, p.Columns[1].Name}; !slices.Equal(names, []string{"city", "price"}) || p.Columns[1].Dtype != "float64" {
		t.Fatalf("columns %+v", p.Columns)
	}
	if got := p.Rows[0][1]; got != json.Number("100") && got != json.Number("100.0") && got != float64(100) {
		t.Fatalf("the highest price is %#v, want 100", got)
	}

	// A later window of the same view comes from the debuggee's cached order.
	sel.Rows = &inspect.RowWindow{Offset: total - 30, Limit: 100}
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", FrameID: frame.Id, Expression: "df", Selection: sel})
	if res.Page == nil || !slices.Equal(res.Page.Positions, wantLast) || !res.Page.Cached {
		t.Fatalf("last window %+v, pandas says %v", res.Page, wantLast)
	}
	// The nulls come last.
	if last := res.Page.Rows[len(res.Page.Rows)-1]; last[1] != nil {
		t.Fatalf("last row %v: the nulls should sort last", last)
	}

	// An empty window: the counts and every column, no rows.
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: inspect.Selection{Rows: &inspect.RowWindow{Limit: 0}}})
	if res.Page == nil || len(res.Page.Rows) != 0 || len(res.Page.Columns) != 3 || res.Page.Total() != 2000 {
		t.Fatalf("empty window: %+v", res.Page)
	}

	// Typed errors come back in the result, for the webview to show inline.
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: inspect.Selection{Filter: "qty >="}})
	if res.Error == nil || res.Error.Code != errcode.InvalidExpression || !strings.Contains(res.Error.Message, "filter") || res.Page != nil {
		t.Fatalf("bad filter: %+v", res)
	}
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: inspect.Selection{Columns: []any{"nope"}}})
	if res.Error == nil || res.Error.Code != errcode.VariableNotFound || !slices.Contains(res.Error.AvailableVariables, "price") {
		t.Fatalf("unknown column: %+v", res)
	}
	if err := c.Call("dapscope/page", map[string]any{"vscodeSessionId": "vs-1"}, nil); err == nil || !strings.Contains(err.Error(), "expression") {
		t.Fatalf("no expression: %v", err)
	}

	// Empty pages are empty lists (issue #28.7).
	checkEmptyPages(t, c, "vs-1", "df", "qty > 100", "empty", 2000)

	// Next: the prices change in place; the same selection sees the new order.
	ed.Next(thread)
	ed.Stopped()
	c.SessionEvent("stopped")
	frame = ed.TopFrame(thread)
	sel.Rows = &inspect.RowWindow{Offset: 0, Limit: 50}
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: sel})
	if want := pandas(frame.Id, query+"[:50]"); res.Page == nil || !slices.Equal(res.Page.Positions, want) || res.Page.Cached {
		t.Fatalf("after the change: %+v, pandas says %v", res.Page, want)
	}

	// Running: NOT_PAUSED.
	ed.Continue(thread)
	c.SessionEvent("continued")
	res = page(editor.PageParams{VSCodeSessionID: "vs-1", Expression: "df", Selection: sel})
	if res.Error == nil || res.Error.Code != errcode.NotPaused {
		t.Fatalf("running: %+v", res)
	}

	if err := c.Shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
