// browse_test.go: debug_inspect_variable with columns, rows, sort and
// filter through mcp-go's client against real debugpy: the page matches
// pandas' own answer in the debuggee, empty pages are empty lists
// (browse_empty_test.go), errors are typed tool results.

package mcp

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

func TestInspectBrowse(t *testing.T) {
	t.Parallel()
	a := stdioAgent(t)
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": "testdata/python/browse.py", "breakpoints": []map[string]any{{"file": "testdata/python/browse.py", "line": lineWith(t, "testdata/python/browse.py", "# BREAK")}}}, &stop)
	if stop.Status != "paused" {
		t.Fatalf("launch: %+v", stop)
	}
	// → the 5 most expensive rows with qty >= 3, two columns
	var res struct {
		Summary string `json:"summary"`
		Page    struct {
			TotalRows int64                   `json:"total_rows"`
			AllRows   int64                   `json:"all_rows"`
			Positions []int64                 `json:"positions"`
			Columns   []struct{ Name string } `json:"columns"`
			Rows      [][]any                 `json:"rows"`
		} `json:"page"`
	}
	r := a.call("debug_inspect_variable", map[string]any{"expression": "df", "filter": "qty >= 3",
		"sort": []map[string]any{{"column": "price", "descending": true}}, "rows": map[string]any{"limit": 5}, "columns": []any{"price", "city"}}, &res)
	var want struct {
		Result string `json:"result"`
	}
	a.call("debug_evaluate", map[string]any{"expression": "str([df.index.get_loc(i) for i in df.query('qty >= 3').sort_values('price', ascending=False, kind='stable', na_position='last').index[:5]])"}, &want)
	if got := fmt.Sprint(res.Page.Positions); strings.ReplaceAll(strings.Trim(want.Result, "'"), ",", "") != got {
		t.Fatalf("positions %s, pandas says %s", got, want.Result)
	}
	if len(res.Page.Rows) != 5 || len(res.Page.Columns) != 2 || res.Page.AllRows != 5000 || res.Page.TotalRows >= 5000 || !strings.HasPrefix(res.Summary, "DataFrame") {
		t.Fatalf("page: %+v", res.Page)
	}
	if text := textOf(r); !strings.Contains(text, "| pos | price | city |") || !strings.Contains(text, "(filtered from 5000)") {
		t.Fatalf("text: %s", text)
	}
	// Empty pages are empty lists, their text says why (issue #28.7).
	checkEmptyPages(t, a, "df", "qty > 100", 5000)
	// A bad filter is a typed tool error naming the problem.
	e := a.fail("debug_inspect_variable", map[string]any{"expression": "df", "filter": "qty >="})
	if e.Code != "INVALID_EXPRESSION" || !strings.Contains(e.Message, "filter") {
		t.Fatalf("bad filter: %+v", e)
	}
	b, _ := json.Marshal(e)
	t.Logf("error: %s", b)
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
