// browse_test.go: browsing tables by rows against real debugpy. Every page
// (sort, filter, columns, windows) is compared with pandas' own answer
// computed in the same debuggee; errors name the problem; the cached order
// is reused within a stop and dropped at the next one.

package inspect_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const browseProgram = "testdata/python/browse.py"

// pandasPositions evaluates a pandas expression giving row positions.
func pandasPositions(t *testing.T, s *session.Session, expr string) []int64 {
	t.Helper()
	ev, err := s.Evaluate(context.Background(), "__import__('json').dumps([int(x) for x in "+expr+"])", 0, "repl")
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	var out []int64
	if err := json.Unmarshal([]byte(strings.Trim(ev.Result, "'")), &out); err != nil {
		t.Fatalf("%s: %q: %v", expr, ev.Result, err)
	}
	return out
}

func browse(t *testing.T, s *session.Session, expr string, sel inspect.Selection) *inspect.PageResult {
	t.Helper()
	r, err := inspect.Browse(context.Background(), s, 0, expr, sel, inspect.Options{Timeout: 10, RequestTimeout: 60})
	if err != nil {
		t.Fatalf("browse %s %+v: %v", expr, sel, err)
	}
	return r
}

func TestBrowseAgainstPandas(t *testing.T) {
	mgr, s, err := launchStopped(t, "debugpy", browseProgram, session.Breakpoint{File: browseProgram, Line: breakLine(t, browseProgram)})
	if err != nil {
		t.Fatal(err)
	}
	defer mgr.Close()
	pos := func(p *inspect.PageResult) string { return fmt.Sprint(p.Page.Positions) }
	// → sort by price descending (NaN last), a later window
	// (the later window first: pandas' answer is an evaluate, which drops
	// the cached orders)
	p := browse(t, s, "df", inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Rows: &inspect.RowWindow{Offset: 4000, Limit: 50}})
	last := browse(t, s, "df", inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Rows: &inspect.RowWindow{Offset: 4990, Limit: 10}})
	want := pandasPositions(t, s, "[df.index.get_loc(i) for i in df.sort_values('price', ascending=False, kind='stable', na_position='last').index[4000:4050]]")
	if pos(p) != fmt.Sprint(want) || p.Page.Total() != 5000 || len(p.Page.Rows) != 50 {
		t.Fatalf("sorted window: %v\nwant %v", p.Page.Positions, want)
	}
	for _, row := range last.Page.Rows {
		if row[0] != nil { // price is column 0: the NaN rows come last
			t.Fatalf("nulls must sort last: %v", last.Page.Rows)
		}
	}
	if !last.Page.Cached {
		t.Error("the second page of the same sort should reuse the cached order")
	}
	// → filter + two sort keys + chosen columns, compared with df.query
	sel := inspect.Selection{Filter: `qty >= 3 and city == "Nice"`, Sort: []inspect.SortKey{{Column: "qty"}, {Column: "price", Descending: true}},
		Columns: []any{"price", "c*"}, Rows: &inspect.RowWindow{Limit: 1000}}
	p = browse(t, s, "df", sel)
	want = pandasPositions(t, s, `[df.index.get_loc(i) for i in df.query('qty >= 3 and city == "Nice"').sort_values(['qty', 'price'], ascending=[True, False], kind='stable', na_position='last').index]`)
	if pos(p) != fmt.Sprint(want[:min(len(want), 1000)]) || p.Page.Total() != int64(len(want)) || p.Page.All() != 5000 {
		t.Fatalf("filtered: %d rows %v…\nwant %d %v…", p.Page.Total(), p.Page.Positions[:5], len(want), want[:5])
	}
	// pandas 3 infers the str dtype for strings where 1.5 kept object
	if names := fmt.Sprint(p.Page.Columns); names != "[{price float64} {city object} {cat category}]" && names != "[{price float64} {city str} {cat category}]" {
		t.Fatalf("columns %s", names)
	}
	// Categorical, tz-aware and all-null columns sort; the index comes back.
	for _, col := range []string{"cat", "when", "empty"} {
		p = browse(t, s, "df", inspect.Selection{Sort: []inspect.SortKey{{Column: col}}, Rows: &inspect.RowWindow{Limit: 20}})
		want = pandasPositions(t, s, fmt.Sprintf("[df.index.get_loc(i) for i in df.sort_values(%q, kind='stable', na_position='last').index[:20]]", col))
		if pos(p) != fmt.Sprint(want) {
			t.Errorf("sort by %s: %v, want %v", col, p.Page.Positions, want)
		}
	}
	// MultiIndex rows keep their labels; duplicate column names by position.
	p = browse(t, s, "multi", inspect.Selection{Sort: []inspect.SortKey{{Column: "v"}}})
	if pos(p) != "[1 3 2 0]" || fmt.Sprint(p.Page.Index[0]) != "[x 2]" {
		t.Errorf("multiindex: %v %v", p.Page.Positions, p.Page.Index)
	}
	p = browse(t, s, "dup", inspect.Selection{Sort: []inspect.SortKey{{Column: 1}}, Columns: []any{1}})
	if pos(p) != "[2 0 1]" || len(p.Page.Columns) != 1 {
		t.Errorf("duplicate columns by position: %v %v", p.Page.Positions, p.Page.Columns)
	}
	// Arrays (columns 0, 1) and records.
	if p = browse(t, s, "grid", inspect.Selection{Filter: "`0` > 10", Sort: []inspect.SortKey{{Column: 1}}}); pos(p) != "[3 2 1 0]" {
		t.Errorf("array: %v", p.Page.Positions)
	}
	p = browse(t, s, "records", inspect.Selection{Sort: []inspect.SortKey{{Column: "score", Descending: true}}, Rows: &inspect.RowWindow{Limit: 5}})
	want = pandasPositions(t, s, "__import__('pandas').DataFrame(records).sort_values('score', ascending=False, kind='stable').index[:5]")
	if pos(p) != fmt.Sprint(want) || p.Page.Kind != "records" {
		t.Errorf("records: %v, want %v", p.Page.Positions, want)
	}

	// Errors name the problem.
	cases := []struct {
		expr string
		sel  inspect.Selection
		code errcode.Code
		says string
	}{
		{"df", inspect.Selection{Filter: "price >"}, errcode.InvalidExpression, "filter 'price >' at column"},
		{"df", inspect.Selection{Filter: "price + 1"}, errcode.InvalidExpression, "one true/false per row"},
		{"df", inspect.Selection{Filter: "price.to_list()"}, errcode.InvalidExpression, "calling to_list() is not allowed"},
		{"df", inspect.Selection{Columns: []any{"nope"}}, errcode.VariableNotFound, "no column matches"},
		{"df", inspect.Selection{Rows: &inspect.RowWindow{Limit: 5000}}, errcode.InvalidArgument, "rows.limit"},
		{"feature_0", inspect.Selection{}, errcode.InvalidArgument, "cannot be browsed"},
	}
	for _, c := range cases {
		_, err := inspect.Browse(context.Background(), s, 0, c.expr, c.sel, inspect.Options{})
		var ie *errcode.Error
		if !errors.As(err, &ie) || ie.Code != c.code || !strings.Contains(ie.Message, c.says) {
			t.Errorf("%s %+v: %v; want %s saying %q", c.expr, c.sel, err, c.code, c.says)
		}
	}

	// A new stop drops the cached orders: → continue ← stopped (same line).
	if err := s.Continue(context.Background()); err != nil {
		t.Fatal(err)
	}
	if st, err := s.Wait(context.Background(), 0); err != nil || st.Location == nil {
		t.Fatalf("second stop: %+v %v", st, err)
	}
	p = browse(t, s, "df", inspect.Selection{Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Rows: &inspect.RowWindow{Offset: 4990, Limit: 10}})
	if p.Page.Cached {
		t.Error("a new stop must drop the cached orders")
	}
}
