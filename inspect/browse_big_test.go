// browse_big_test.go: browsing a big DataFrame (testdata/python/big_table.py)
// through real debugpy. The test (1M rows: generating 10M takes 10–20 s on
// this 2-core machine, too long for make test) checks the first page sorted
// by a numeric column and 10 more page fetches, sorted both ways, into the
// nulls and filtered, against pandas' own sort_values/query in the same
// debuggee. BenchmarkBrowse10M measures page fetches on 10M rows × 10
// columns beside one trivial evaluate in the same run.

package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const bigProgram = "testdata/python/big_table.py"

// launchBig starts big_table.py with rows rows (0: its default, 10M) and
// waits at its breakpoint.
func launchBig(tb testing.TB, rows int) (*session.Manager, *session.Session) {
	tb.Helper()
	var args []string
	if rows > 0 {
		args = []string{fmt.Sprint(rows)}
	}
	mgr, s, err := launchStopped(tb, "debugpy", bigProgram, session.Breakpoint{File: bigProgram, Line: breakLine(tb, bigProgram)}, args...)
	if err != nil {
		tb.Fatal(err)
	}
	return mgr, s
}

func sortBy(col string, desc bool) []inspect.SortKey {
	return []inspect.SortKey{{Column: col, Descending: desc}}
}

func window(off int64, limit int) *inspect.RowWindow {
	return &inspect.RowWindow{Offset: off, Limit: limit}
}

func TestBrowseBigTable(t *testing.T) {
	const rows = 1_000_000
	mgr, s := launchBig(t, rows)
	defer mgr.Close()
	full := inspect.Options{Timeout: 10, RequestTimeout: 120, Precision: inspect.PrecisionFull}
	page := func(sel inspect.Selection) *inspect.Page {
		t.Helper()
		r, err := inspect.Browse(context.Background(), s, 0, "df", sel, full)
		if err != nil {
			t.Fatalf("%+v: %v", sel, err)
		}
		return r.Page
	}
	// check compares a page with pandas' answer for the same window and
	// the page's own id column (column 0) with its positions.
	check := func(sel inspect.Selection, want []int64, total int64) *inspect.Page {
		t.Helper()
		p := page(sel)
		if fmt.Sprint(p.Positions) != fmt.Sprint(want) || p.Total() != total || p.All() != rows {
			t.Fatalf("%+v: %d of %d rows, positions %v…\nwant %d of %d, %v…", sel, len(p.Positions), p.Total(), head(p.Positions), len(want), total, head(want))
		}
		for i, row := range p.Rows {
			if fmt.Sprint(row[0]) != fmt.Sprint(p.Positions[i]) {
				t.Fatalf("%+v: row %d has id %v, position %d", sel, i, row[0], p.Positions[i])
			}
		}
		return p
	}
	expected := func(col string, desc bool, off int64, limit int, query string) []int64 {
		q := "None"
		if query != "" {
			q = fmt.Sprintf("%q", query)
		}
		c := "None"
		if strings.HasPrefix(col, "[") { // several columns, a Python list
			c = col
		} else if col != "" {
			c = fmt.Sprintf("%q", col)
		}
		return pandasPositions(t, s, fmt.Sprintf("expected(df, %s, %s, %d, %d, %s)", c, map[bool]string{true: "True", false: "False"}[desc], off, limit, q))
	}

	// The first page sorted by a numeric column: positions, and the values
	// exactly as pandas holds them.
	first := check(inspect.Selection{Sort: sortBy("a", false), Rows: window(0, 100)}, expected("a", false, 0, 100, ""), rows)
	if first.Cached {
		t.Error("the first sorted page cannot be cached")
	}
	var a []float64
	ev, err := s.Evaluate(context.Background(), fmt.Sprintf("__import__('json').dumps(df['a'].iloc[%s].tolist())", strings.ReplaceAll(fmt.Sprint(first.Positions), " ", ",")), 0, "repl")
	if err != nil || json.Unmarshal([]byte(strings.Trim(ev.Result, "'")), &a) != nil {
		t.Fatalf("values of a: %v %q", err, ev.Result)
	}
	for i, row := range first.Rows {
		if got, _ := row[1].(json.Number).Float64(); got != a[i] {
			t.Fatalf("row %d: a = %v, pandas has %v", i, row[1], a[i])
		}
	}

	// 10 more pages: within the first sorted rows, then past them (the full
	// order), the other way round into the nulls, and filtered.
	for _, off := range []int64{100, 9_900, 10_000, 500_000, rows - 100} {
		check(inspect.Selection{Sort: sortBy("a", false), Rows: window(off, 100)}, expected("a", false, off, 100, ""), rows)
	}
	for _, off := range []int64{0, rows - 100} {
		p := check(inspect.Selection{Sort: sortBy("price", true), Rows: window(off, 100)}, expected("price", true, off, 100, ""), rows)
		if off > 0 && p.Rows[99][9] != nil {
			t.Errorf("nulls must sort last: the last row has price %v", p.Rows[99][9])
		}
	}
	// A string column (ranked through its distinct values, then the same
	// first-rows partition), both ways, and two keys folded into one.
	for _, off := range []int64{0, 9_900, 10_000, rows - 100} {
		check(inspect.Selection{Sort: sortBy("city", off == 9_900), Rows: window(off, 100)}, expected("city", off == 9_900, off, 100, ""), rows)
	}
	cityQty := []inspect.SortKey{{Column: "city"}, {Column: "qty"}}
	for _, off := range []int64{0, 10_000} {
		check(inspect.Selection{Sort: cityQty, Rows: window(off, 100)}, expected(`["city", "qty"]`, false, off, 100, ""), rows)
	}
	count := func(q string) int64 {
		var n int64
		ev, err := s.Evaluate(context.Background(), "len(df.query('"+q+"'))", 0, "repl")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Sscan(ev.Result, &n)
		return n
	}
	// ~900K rows: the first sorted rows of the filtered view, then all.
	const many = "qty < 90"
	for _, off := range []int64{0, 20_000} {
		check(inspect.Selection{Filter: many, Sort: sortBy("b", true), Rows: window(off, 100)}, expected("b", true, off, 100, many), count(many))
	}
	const few = `a > 1 and city == "Nice"`
	check(inspect.Selection{Filter: few, Rows: window(300, 100)}, expected("", false, 300, 100, few), count(few))
}

func head(p []int64) []int64 { return p[:min(len(p), 5)] }

// freshStops makes every Browse look like a new stop, so the probe's cached
// orders are dropped and each sorted/filtered first page is computed cold.
type freshStops struct {
	*session.Session
	gen int
}

func (f *freshStops) ValuesGen() int { f.gen += 1_000_000; return f.gen }

func BenchmarkBrowse10M(b *testing.B) {
	mgr, s := launchBig(b, 0)
	defer mgr.Close()
	ctx := context.Background()
	top, err := s.TopFrame(ctx)
	if err != nil {
		b.Fatal(err)
	}
	opts := inspect.Options{Timeout: 10, RequestTimeout: 120}
	const rows = 10_000_000
	get := func(b *testing.B, t inspect.Target, sel inspect.Selection) *inspect.PageResult {
		r, err := inspect.Browse(ctx, t, top.Id, "df", sel, opts)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.Page.Rows) != 100 || len(r.Page.Columns) != 10 {
			b.Fatalf("page of %d rows × %d columns", len(r.Page.Rows), len(r.Page.Columns))
		}
		return r
	}
	cold := &freshStops{Session: s}
	const q = `a > 1 and city == "Nice"`
	var step int64
	later := func() *inspect.RowWindow { step++; return window(10_000+(step*7_919_993)%(rows-20_000), 100) }
	for _, c := range []struct {
		name string
		t    inspect.Target
		sel  func() inspect.Selection
	}{
		{"unsorted", s, func() inspect.Selection { return inspect.Selection{Rows: later()} }},
		{"sorted_first", cold, func() inspect.Selection { return inspect.Selection{Sort: sortBy("a", false), Rows: window(0, 100)} }},
		{"sorted_full", cold, func() inspect.Selection { return inspect.Selection{Sort: sortBy("a", false), Rows: later()} }},
		{"sorted_later", s, func() inspect.Selection { return inspect.Selection{Sort: sortBy("a", false), Rows: later()} }},
		{"sorted_string_first", cold, func() inspect.Selection { return inspect.Selection{Sort: sortBy("city", false), Rows: window(0, 100)} }},
		{"sorted_2keys_first", cold, func() inspect.Selection {
			return inspect.Selection{Sort: []inspect.SortKey{{Column: "city"}, {Column: "qty", Descending: true}}, Rows: window(0, 100)}
		}},
		{"filtered_first", cold, func() inspect.Selection { return inspect.Selection{Filter: q, Rows: window(0, 100)} }},
		{"filtered_later", s, func() inspect.Selection { return inspect.Selection{Filter: q, Rows: window(10_000+step%200_000, 100)} }},
	} {
		b.Run("floor", func(b *testing.B) {
			for b.Loop() {
				if _, err := s.Evaluate(ctx, "1", top.Id, "repl"); err != nil {
					b.Fatal(err)
				}
			}
		})
		if c.name == "unsorted" {
			// The transport's share: an evaluate whose answer is as big as a
			// page (10 KB, fetched raw like the probe's), nothing computed.
			b.Run("floor_10KB", func(b *testing.B) {
				args := map[string]any{"expression": "'x' * 10240", "frameId": top.Id, "context": "repl", "format": map[string]any{"rawString": true}}
				for b.Loop() {
					var out struct{ Result string }
					if err := s.Request(ctx, "evaluate", args, &out); err != nil || len(out.Result) < 10240 {
						b.Fatalf("%d bytes, %v", len(out.Result), err)
					}
				}
			})
		}
		b.Run(c.name, func(b *testing.B) {
			get(b, c.t, c.sel()) // the probe is installed and the order computed before the timing
			partial, probe := 0, 0.0
			for b.Loop() {
				r := get(b, c.t, c.sel())
				if r.Partial {
					partial++
				}
				probe += r.ProbeMs
			}
			b.ReportMetric(float64(partial)/float64(b.N), "partial/op")
			b.ReportMetric(probe/float64(b.N), "probe_ms/op")
		})
	}
}
