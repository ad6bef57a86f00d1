// browse_pending_test.go: a page whose totals an engine counts on request
// (a filtered Dask frame, as a Spark frame) through mcp-go's client
// against real debugpy: the page comes first, total_rows absent and
// total_pending saying so ("of ?" in the text); compute: true counts it.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
)

func TestInspectBrowsePending(t *testing.T) {
	testpython.Require(t, "debugpy", "pandas", "dask")
	t.Parallel()
	a := stdioAgent(t)
	var stop StopReport
	const prog = "testdata/python/dask_page.py"
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": lineWith(t, prog, "# BREAK")}}}, &stop)
	if stop.Status != "paused" {
		t.Fatalf("launch: %+v", stop)
	}
	type page struct {
		Page struct {
			TotalRows    *int64  `json:"total_rows"`
			AllRows      *int64  `json:"all_rows"`
			TotalPending string  `json:"total_pending"`
			Rows         [][]any `json:"rows"`
			Computed     string  `json:"computed"`
		} `json:"page"`
	}
	args := map[string]any{"expression": "ddf", "filter": "qty >= 3", "rows": map[string]any{"limit": 5}}
	var first page
	r := a.call("debug_inspect_variable", args, &first)
	if p := first.Page; p.TotalRows != nil || !strings.HasPrefix(p.TotalPending, "counted on request") || len(p.Rows) != 5 {
		t.Fatalf("the page first: %+v", p)
	}
	if text := textOf(r); !strings.Contains(text, "rows 0–5 of ? (not counted: counted on request") {
		t.Fatalf("text: %s", text)
	}
	args["compute"] = true
	var counted page
	r = a.call("debug_inspect_variable", args, &counted)
	// qty = i % 7 over 100 rows: 56 are >= 3
	if p := counted.Page; p.TotalRows == nil || *p.TotalRows != 56 || p.AllRows == nil || *p.AllRows != 100 || p.TotalPending != "" || len(p.Rows) != 5 {
		t.Fatalf("counted: %+v", p)
	}
	if text := textOf(r); !strings.Contains(text, "rows 0–5 of 56 (filtered from 100)") {
		t.Fatalf("text: %s", text)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
