// node_stops_test.go: Node sessions through MCP as a person sees them in
// js-debug (real Node, testdata/node/stops.js): a stop inside a for…of
// reports the loop's Block scope and the function's Local scope, nearest
// first, a shadowed name once (the inner one), each value by the probe's
// one-line summary (a table by its shape and nulls, never a preview cut
// mid-token); snapshots and debug_variables cover the same set, closures on
// request; and debug_inspect_variable browses a JavaScript table by
// columns, rows, sort and filter (the call an agent was refused before),
// an empty page as empty lists (browse_empty_test.go).

package mcp

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
)

func TestNodeStopReportsThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 5*time.Second)
	const prog = "testdata/node/stops.js"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": lineWith(t, prog, "// @loop")},
		{"file": prog, "line": lineWith(t, prog, "main();")}}}, &stop)
	// Module code: the module's functions, not Node's CommonJS wrapper
	// (exports, require, module, __filename, __dirname, this).
	var top []string
	for _, l := range stop.Locals {
		top = append(top, l.Name)
	}
	if got := strings.Join(top, " "); got != "makeCounter records tally report main" || local(t, stop, "main") != "function main" {
		t.Fatalf("module-level locals %s: %+v", got, stop.Locals)
	}
	a.call("debug_continue", nil, &stop)
	if stop.Status != "paused" || stop.Location.Function != "tally" {
		t.Fatalf("stop = %+v", stop)
	}
	var names []string
	for _, l := range stop.Locals {
		names = append(names, l.Name)
		if l.Truncated || strings.Contains(l.Value, "{…") || !utf8.ValidString(l.Value) {
			t.Errorf("local %s = %q (truncated %v): a preview cut mid-token", l.Name, l.Value, l.Truncated)
		}
	}
	// the loop's block (label, it) first, then the function's locals; the
	// outer label is shadowed
	if got := strings.Join(names, " "); got != "label it items byHouse seen limit counter" {
		t.Fatalf("locals %s: %+v", got, stop.Locals)
	}
	if v := local(t, stop, "label"); v != "'inner 1'" {
		t.Errorf("label = %s, want the inner one", v)
	}
	if v := local(t, stop, "items"); v != "Array 600 × 6 · 300 nulls in each of price, note" {
		t.Errorf("items = %q", v)
	}
	if v := local(t, stop, "it"); !strings.HasPrefix(v, "{id: 1, sku: 'SKU-3', qty: 10, price: null, house: 'Lannister', ") || !strings.HasSuffix(v, "…}") {
		t.Errorf("it = %q: an object by its own fields, cut between them", v)
	}
	if v := local(t, stop, "seen"); v != "Map(0) {}" {
		t.Errorf("seen = %q", v)
	}
	if v := local(t, stop, "counter"); v != "function (anonymous)" {
		t.Errorf("counter = %q", v)
	}
	if v := local(t, stop, "byHouse"); !strings.Contains(v, "Stark: Array(150)") {
		t.Errorf("byHouse = %q", v)
	}
	// A snapshot counts the same set; debug_variables shows it too, and
	// the closures on request.
	var snap SnapshotResult
	if a.call("debug_snapshot", map[string]any{"inspect": []string{"items"}}, &snap); snap.Snapshot.Variables != 7 {
		t.Fatalf("snapshot of %d variables, want 7", snap.Snapshot.Variables)
	}
	var vars VariablesResult
	a.call("debug_variables", nil, &vars)
	if len(vars.Variables) != 7 || !strings.HasPrefix(vars.Scope, "Block + ") || !strings.HasSuffix(vars.Scope, " + Local") || vars.Variables[2].Value != "Array 600 × 6 · 300 nulls in each of price, note" || vars.Variables[2].VariablesReference == 0 {
		t.Fatalf("variables = %+v", vars)
	}
	a.call("debug_variables", map[string]any{"scope": "closure"}, &vars)
	if !strings.HasPrefix(vars.Scope, "Closure") || !varIs(vars, "makeCounter", "function makeCounter") || !varIs(vars, "records", "function records") {
		t.Fatalf("closures = %+v", vars)
	}
	// → the next iteration: a diff names what changed, over the same set.
	a.call("debug_continue", nil, &stop)
	var d DiffResult
	a.call("debug_diff", map[string]any{"from": snap.Snapshot.ID}, &d)
	changed := map[string]VarChange{}
	for _, c := range d.Changed {
		changed[c.Name] = c
	}
	if changed["label"].After == "" || changed["it"].After == "" || changed["seen"].After != "Map(1) {'SKU-3' => 11}" || len(d.Added)+len(d.Removed) != 0 {
		t.Fatalf("diff = %+v", d)
	}
	// 600 rows are not compared cell by cell: the advice is a call that
	// works on Node.
	const advice = `debug_inspect_variable {"expression": "items", "rows": {"offset": 0, "limit": 100}, "max_bytes": 102400}`
	if len(d.Inspections) != 1 || !strings.Contains(strings.Join(d.Inspections[0].Notes, "\n"), advice) {
		t.Fatalf("diff of items = %+v", d.Inspections)
	}
	var page struct {
		Page *inspect.Page `json:"page"`
	}
	if a.call("debug_inspect_variable", map[string]any{"expression": "items", "rows": map[string]any{"offset": 0, "limit": 100}, "max_bytes": 102400}, &page); page.Page == nil || len(page.Page.Rows) != 100 {
		t.Fatalf("the advised call = %+v", page.Page)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

// TestNodeModuleStopThroughMCP: ES module code has no Local scope; its
// Module scope is what the Variables view shows.
func TestNodeModuleStopThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 5*time.Second)
	const prog = "testdata/node/esm.mjs"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": lineWith(t, prog, "// @esm")}}}, &stop)
	if stop.Status != "paused" || local(t, stop, "n") != "42" || local(t, stop, "double") != "function double" {
		t.Fatalf("module stop = %+v", stop)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}

func varIs(r VariablesResult, name, value string) bool {
	for _, v := range r.Variables {
		if v.Name == name {
			return v.Value == value
		}
	}
	return false
}

func TestNodeBrowseThroughMCP(t *testing.T) {
	t.Parallel()
	a := newNodeAgent(t, 5*time.Second)
	const prog = "testdata/node/stops.js"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": lineWith(t, prog, "// @loop")}}}, &stop)
	// The call an agent made: a column that does not exist is named.
	e := a.fail("debug_inspect_variable", map[string]any{"expression": "items", "columns": []string{"sku", "qty", "quantity"}, "max_bytes": 4096})
	if e.Code != errcode.VariableNotFound || !strings.Contains(e.Message, "no column matches 'quantity'") {
		t.Fatalf("a missing column = %+v", e)
	}
	var res struct {
		Summary string        `json:"summary"`
		Page    *inspect.Page `json:"page"`
	}
	r := a.call("debug_inspect_variable", map[string]any{"expression": "items", "columns": []string{"sku", "qty"}, "max_bytes": 4096,
		"sort": []map[string]any{{"column": "qty", "descending": true}, {"column": "sku"}}, "filter": "qty > limit && house === 'Stark'",
		"rows": map[string]any{"offset": 10, "limit": 5}}, &res)
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "items.filter((r) => r.qty > 3 && r.house === 'Stark').length"}, &ev)
	p := res.Page
	if p == nil || p.Kind != "records" || fmt.Sprint(p.Total()) != ev.Result || p.All() != 600 || len(p.Rows) != 5 || len(p.Columns) != 2 || p.ColumnCount != 6 {
		t.Fatalf("page = %+v", p)
	}
	qty := func(row inspect.Cells) float64 { f, _ := strconv.ParseFloat(fmt.Sprint(row[1]), 64); return f }
	for i, row := range p.Rows {
		if q := qty(row); q < 4 || (i > 0 && q > qty(p.Rows[i-1])) {
			t.Fatalf("rows not filtered (qty > 3) and sorted by qty descending: %v", p.Rows)
		}
	}
	if text := textOf(r); !strings.Contains(text, "rows 10–15 of "+ev.Result+" (filtered from 600); 2 of 6 columns") {
		t.Fatalf("text = %q", text)
	}
	// Empty pages are empty lists, their text says why (issue #28.7).
	checkEmptyPages(t, a, "items", "qty > 1000", 600)
	// A filter that would change the program is refused, and says why.
	e = a.fail("debug_inspect_variable", map[string]any{"expression": "items", "filter": "seen.set('x', 1) && true"})
	if e.Code != errcode.InvalidExpression || !strings.Contains(e.Message, "could change the program") || !strings.Contains(e.Hint, "JavaScript expression") {
		t.Fatalf("a filter with a side effect = %+v", e)
	}
	if a.call("debug_evaluate", map[string]any{"expression": "seen.size"}, &ev); ev.Result != "0" {
		t.Fatalf("the refused filter changed seen: size %s", ev.Result)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
