// browse_filter_test.go: browse filters and the cached row orders against
// real debugpy (testdata/python/browse.py). A filter that reaches for
// Python (issue #28's exploit: dunders, calls) is refused and runs
// nothing; filters over nullable, string, boolean and categorical columns
// give pandas' own nullable (Kleene) answer, unknown rows counted; a
// backticked integer label names its column. A cached order is dropped
// when an evaluate writes into the frame, when rows are dropped in place,
// and when a property builds a new frame at each read.

package inspect_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func launchBrowse(t *testing.T) *session.Session {
	t.Helper()
	mgr, s, err := launchStopped(t, "debugpy", browseProgram, session.Breakpoint{File: browseProgram, Line: breakLine(t, browseProgram)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mgr.Close() })
	return s
}

func TestBrowseFilterSafeAndNullable(t *testing.T) {
	s := launchBrowse(t)
	ctx := context.Background()
	marker := filepath.Join(t.TempDir(), "ran")
	exploit := "a.to_list.__func__.__globals__.get('__builtins__').get('__import__').__self__.__import__('os').system('touch " + marker + "') == 0"
	refused := []struct{ filter, says string }{
		{exploit, "__"},
		{"__import__('os').system('touch " + marker + "') == 0", "__import__"},
		{"a.to_list() == [1]", "calling to_list() is not allowed"},
		{"price.apply(print) > 0", "calling apply() is not allowed"},
		{"a[0] > 1", "Subscript is not allowed"},
		{"(lambda: 1)() == 1", "is not allowed"},
		{"'x' * 100000000 == city", "arithmetic needs numbers"},
		{"nulls.a > 1", "the attribute a is not allowed"},
	}
	for _, c := range refused {
		_, err := inspect.Browse(ctx, s, 0, "nulls", inspect.Selection{Filter: c.filter}, inspect.Options{})
		var ie *errcode.Error
		if !errors.As(err, &ie) || ie.Code != errcode.InvalidExpression || !strings.Contains(ie.Message, "refused") || !strings.Contains(ie.Message, c.says) {
			t.Errorf("filter %q: %v; want INVALID_EXPRESSION refusing %q", c.filter, err, c.says)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a refused filter ran its command")
	}

	// Each filter against pandas' own nullable answer (Kleene logic over
	// the nullable dtypes): positions where true, and the unknown rows.
	cases := []struct{ filter, oracle string }{
		{"qty > 5 and price < 15", "(nulls.qty > 5) & (nulls.price.astype('Float64') < 15)"},
		{"qty > 5 or price < 15", "(nulls.qty > 5) | (nulls.price.astype('Float64') < 15)"},
		{`city == "Nice" and flag`, "(nulls.city == 'Nice') & nulls.flag"},
		{`not (city != "Nice")`, "~(nulls.city != 'Nice')"},
		{`kind == "x" or qty.isna()`, "nulls.kind.astype('string').eq('x') | nulls.qty.isna()"},
		{`city.str.contains("i") & (a >= 2)`, "nulls.city.str.contains('i', regex=False) & (nulls.a >= 2)"},
		{"qty.isin([1, 9]) | flag", "nulls.qty.isin([1, 9]).astype('boolean').mask(nulls.qty.isna()) | nulls.flag"},
		{"1 < qty * 2 <= 14", "(1 < nulls.qty * 2) & (nulls.qty * 2 <= 14)"},
	}
	for _, c := range cases {
		p := browse(t, s, "nulls", inspect.Selection{Filter: c.filter})
		want := pandasPositions(t, s, "__import__('numpy').flatnonzero(("+c.oracle+").fillna(False).to_numpy(bool))")
		na := pandasPositions(t, s, "[("+c.oracle+").isna().sum()]")
		if fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) || p.Page.FilterNA != na[0] || p.Page.Total() != int64(len(want)) || p.Page.All() != 6 {
			t.Errorf("filter %q: positions %v, %d unknown; pandas: %v, %d unknown", c.filter, p.Page.Positions, p.Page.FilterNA, want, na[0])
		}
		if na[0] > 0 && !strings.Contains(inspect.FormatPage(p.Page), fmt.Sprintf("%d rows unknown to the filter", na[0])) {
			t.Errorf("filter %q: the page text does not say how many rows were unknown:\n%s", c.filter, inspect.FormatPage(p.Page))
		}
	}
	// A backticked integer label is the column (issue #28: `0` > 1 failed).
	p := browse(t, s, "ints", inspect.Selection{Filter: "`0` > 1 and `2` != 0"})
	if want := pandasPositions(t, s, "__import__('numpy').flatnonzero((ints[0] > 1) & (ints[2] != 0))"); fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
		t.Errorf("`0` > 1 and `2` != 0: %v, want %v", p.Page.Positions, want)
	}
	// A filter that is not true/false per row, or names no column, says so.
	for filter, says := range map[string]string{"price + 1": "does not give one true/false per row", "nope > 1": "no column named nope"} {
		if _, err := inspect.Browse(ctx, s, 0, "nulls", inspect.Selection{Filter: filter}, inspect.Options{}); err == nil || !strings.Contains(err.Error(), says) {
			t.Errorf("filter %q: %v, want %q", filter, err, says)
		}
	}
	if _, err := inspect.Browse(ctx, s, 0, "nulls", inspect.Selection{Filter: strings.Repeat("a > 1 and ", 300) + "a > 1"}, inspect.Options{}); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Errorf("a 3,000-character filter: %v", err)
	}
}

func TestBrowseCacheFollowsChanges(t *testing.T) {
	s := launchBrowse(t)
	ctx := context.Background()
	byA := inspect.Selection{Sort: []inspect.SortKey{{Column: "a", Descending: true}}, Columns: []any{"a"}}
	col := func(p *inspect.PageResult) string {
		var v []string
		for _, r := range p.Page.Rows {
			v = append(v, fmt.Sprint(r[0]))
		}
		return strings.Join(v, " ")
	}
	if p := browse(t, s, "nulls", byA); col(p) != "6 5 4 3 2 1" || p.Page.Cached {
		t.Fatalf("first sort: %s cached=%v", col(p), p.Page.Cached)
	}
	if p := browse(t, s, "nulls", byA); !p.Page.Cached {
		t.Fatal("the same sort again should come from the cache")
	}
	// → an evaluate writes into the frame's own array (same arrays, same
	// length: only the sidecar's generation can tell; an iloc write is in
	// place on pandas 1.5 and, the frame sharing nothing, under pandas 3's
	// copy-on-write too, where .values is read-only)
	if _, err := s.Evaluate(ctx, "nulls.iloc[:, nulls.columns.get_loc('a')] = [6, 5, 4, 3, 2, 1]", 0, "repl"); err != nil {
		t.Fatal(err)
	}
	if p := browse(t, s, "nulls", byA); col(p) != "6 5 4 3 2 1" || p.Page.Cached || fmt.Sprint(p.Page.Positions) != "[0 1 2 3 4 5]" {
		t.Fatalf("after an evaluate wrote the column: %s at %v cached=%v", col(p), p.Page.Positions, p.Page.Cached)
	}
	// → rows dropped in place (was: INTERNAL IndexError)
	if _, err := s.Evaluate(ctx, "nulls.drop(index=[0, 1], inplace=True)", 0, "repl"); err != nil {
		t.Fatal(err)
	}
	if p := browse(t, s, "nulls", byA); col(p) != "4 3 2 1" || p.Page.Total() != 4 {
		t.Fatalf("after drop(inplace=True): %s, %d rows", col(p), p.Page.Total())
	}
	// ← a property that builds a new frame at each read: a cached order
	// is never reused for another frame, whatever its id.
	byX := inspect.Selection{Sort: []inspect.SortKey{{Column: "x"}}, Columns: []any{"x"}, Rows: &inspect.RowWindow{Limit: 200}}
	want := make([]string, 200)
	for i := range want {
		want[i] = fmt.Sprint(i)
	}
	for i := 0; i < 30; i++ {
		if p := browse(t, s, "holder.frame", byX); col(p) != strings.Join(want, " ") {
			t.Fatalf("read %d of holder.frame: not sorted (cached=%v): %.80s…", i, p.Page.Cached, col(p))
		}
	}
}
