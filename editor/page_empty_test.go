// page_empty_test.go: the empty pages of dapscope/page — a filter that
// matches nothing, a window past the end, an empty table — answer rows []
// and positions [] in the JSON the webview reads, never null (issue #28.7:
// the viewer threw on rows: null and stayed on "loading rows…"). Run by
// TestPageWithDebugpy and TestPageWithNode on their real sessions.

package editor_test

import (
	"encoding/json"
	"testing"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/inspect"
)

// checkEmptyPages pages table with noMatch (a filter that holds for no
// row) and past its end, and pages the empty table empty, as the extension
// does; each answer's page has rows and positions as empty JSON lists.
func checkEmptyPages(t *testing.T, c *editortest.Editor, vscodeID, table, noMatch, empty string, tableRows int64) {
	t.Helper()
	for _, tc := range []struct {
		name       string
		expr       string
		sel        inspect.Selection
		total, all int64
	}{
		{"a filter that matches nothing", table, inspect.Selection{Filter: noMatch, Rows: &inspect.RowWindow{Limit: 200}}, 0, tableRows},
		{"a window past the end", table, inspect.Selection{Rows: &inspect.RowWindow{Offset: tableRows + 200, Limit: 200}}, tableRows, tableRows},
		{"an empty table", empty, inspect.Selection{Rows: &inspect.RowWindow{Limit: 200}}, 0, 0},
	} {
		var raw json.RawMessage
		if err := c.Call("dapscope/page", editor.PageParams{VSCodeSessionID: vscodeID, Expression: tc.expr, Selection: tc.sel}, &raw); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var res struct {
			Error any `json:"error"`
			Page  *struct {
				Rows      []any `json:"rows"`
				Positions []any `json:"positions"`
				Columns   []any `json:"columns"`
				TotalRows int64 `json:"total_rows"`
				AllRows   int64 `json:"all_rows"`
			} `json:"page"`
		}
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatalf("%s: %v: %s", tc.name, err, raw)
		}
		p := res.Page
		if res.Error != nil || p == nil {
			t.Fatalf("%s: %s", tc.name, raw)
		}
		// JSON null decodes to a nil slice, [] to an empty one.
		if p.Rows == nil || len(p.Rows) != 0 || p.Positions == nil || len(p.Positions) != 0 || p.Columns == nil {
			t.Errorf("%s: rows, positions and columns must be lists (empty ones here): %s", tc.name, raw)
		}
		if p.TotalRows != tc.total || p.AllRows != tc.all {
			t.Errorf("%s: total_rows %d, all_rows %d, want %d, %d", tc.name, p.TotalRows, p.AllRows, tc.total, tc.all)
		}
	}
}
