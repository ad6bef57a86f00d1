// browse_empty_test.go: a page without rows from debug_inspect_variable —
// a filter that matches nothing, a window past the end — is rows [] and
// positions [] in the structured answer, never null, and its text says why
// it is empty (issue #28.7). Run by TestInspectBrowse (debugpy) and
// TestNodeBrowseThroughMCP (Node) on their real sessions.

package mcp

import (
	"strconv"
	"strings"
	"testing"
)

// checkEmptyPages pages expr (a table of n rows) with noMatch and past its end.
func checkEmptyPages(t *testing.T, a *agent, expr, noMatch string, n int) {
	t.Helper()
	for _, tc := range []struct {
		name string
		args map[string]any
		text string
	}{
		{"a filter that matches nothing", map[string]any{"filter": noMatch}, "no rows of " + strconv.Itoa(n) + " match the filter"},
		{"a window past the end", map[string]any{"rows": map[string]any{"offset": n + 100, "limit": 10}}, "no rows at offset " + strconv.Itoa(n+100) + " (limit 10) of " + strconv.Itoa(n)},
	} {
		tc.args["expression"] = expr
		var res struct {
			Page *struct {
				Rows      []any `json:"rows"`
				Positions []any `json:"positions"`
			} `json:"page"`
		}
		r := a.call("debug_inspect_variable", tc.args, &res)
		if p := res.Page; p == nil || p.Rows == nil || len(p.Rows) != 0 || p.Positions == nil || len(p.Positions) != 0 {
			t.Errorf("%s: the page's rows and positions must be empty lists: %#v", tc.name, p)
		}
		if text := textOf(r); !strings.Contains(text, tc.text) {
			t.Errorf("%s: text %q does not say %q", tc.name, text, tc.text)
		}
	}
}
