// agent_read_test.go: what an agent reads of an unfamiliar pandas invoice
// report (issue 26, points 1–5), against real debugpy on
// testdata/mcp/invoices.py (51 duplicate rows, a non-unique index, 93 lines
// without a unit price), and node for the language-independent
// evaluate rendering:
//   - max_bytes is kept while paging, statistics follow the selection
//     (chosen columns, filtered rows) and say so, the structure describes
//     the whole frame; the minimum budget is in the error and the schema;
//   - at the smallest budget the text names every problem: all three
//     columns with nulls, the duplicate rows, the non-unique index;
//   - null counts read as cells, a memory estimate is stable across a step
//     that builds the index's lookup table and says it is an estimate, one
//     number format per line;
//   - evaluate results show nested tuple keys and multi-line strings.

package mcp

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

const invoices = "testdata/mcp/invoices.py"

// pyInt evaluates a Python integer expression.
func pyInt(t *testing.T, a *agent, expr string) int64 {
	t.Helper()
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": expr}, &ev)
	n, err := strconv.ParseInt(ev.Result, 10, 64)
	if err != nil {
		t.Fatalf("%s = %q", expr, ev.Result)
	}
	return n
}

func commasOf(n int64) string {
	s := strconv.FormatInt(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func TestBudgetKeptWhilePaging(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	launchTo(t, a, invoices, invoices, "# STOP", nil)
	chosen := []any{"order_id", "qty", "unit_price", "amount"}
	args := func(maxBytes int) map[string]any {
		return map[string]any{"expression": "lines", "filter": "qty > 15", "columns": chosen,
			"rows": map[string]any{"limit": 6}, "max_bytes": maxBytes}
	}
	filtered := pyInt(t, a, "int((lines.qty > 15).sum())")
	nanFiltered := pyInt(t, a, "int(lines[lines.qty > 15].unit_price.isna().sum())")
	wantRows := fmt.Sprintf("filtered, %s of 4,051", commasOf(filtered))

	// A budget that holds everything: every row asked for, and statistics
	// of the 4 chosen columns over the filtered rows only.
	var big InspectResult
	r := a.call("debug_inspect_variable", args(16384), &big)
	st := big.Statistics
	if st == nil || st.Rows != wantRows || st.ColumnScope != "chosen, 4 of 9" || len(st.Columns) != 4 {
		t.Fatalf("statistics = %+v, want rows %q, columns chosen 4 of 9", st, wantRows)
	}
	for i, c := range st.Columns {
		if c.Name != chosen[i] {
			t.Errorf("statistics column %d is %q, want %v", i, c.Name, chosen[i])
		}
	}
	if c := st.Columns[2]; c.NaNCount == nil || *c.NaNCount != nanFiltered {
		t.Errorf("unit_price NaN count %v, want the filtered rows' %d (the whole frame has 93)", c.NaNCount, nanFiltered)
	}
	if s := big.Structure; len(s.Shape) != 2 || s.Shape[0] != 4051 || s.Shape[1] != 9 || len(s.Columns) != 9 {
		t.Errorf("structure = %+v: it describes the whole frame", s)
	}
	if big.Page == nil || len(big.Page.Rows) != 6 || big.Budget != nil {
		t.Fatalf("page %+v, budget %+v", big.Page, big.Budget)
	}
	if text := textOf(r); !strings.Contains(text, "rows "+wantRows) || !strings.Contains(text, "columns chosen, 4 of 9") {
		t.Errorf("the text does not say what the statistics cover:\n%s", text)
	}

	// Smaller budgets are kept, and say what they left out.
	whole := responseBytes(t, r)
	for _, budget := range []int{2048, 3000, 4096} {
		var res InspectResult
		r := a.call("debug_inspect_variable", args(budget), &res)
		if n := responseBytes(t, r); n > budget {
			t.Errorf("max_bytes %d: %d bytes", budget, n)
		}
		if res.Page == nil || len(res.Page.Rows) == 0 || whole > budget && (res.Budget == nil || len(res.Budget.Dropped) == 0) {
			t.Errorf("max_bytes %d (all of it is %d): budget %+v, page %+v", budget, whole, res.Budget, res.Page)
		}
		if res.Statistics == nil || res.Statistics.Rows != wantRows {
			t.Errorf("max_bytes %d: statistics %+v", budget, res.Statistics)
		}
	}

	// The minimum budget is in the schema, and the refusal says the range.
	e := a.fail("debug_inspect_variable", map[string]any{"expression": "lines", "max_bytes": 2000})
	if e.Field != "max_bytes" || !strings.Contains(e.Message, "2048..102400") {
		t.Errorf("max_bytes 2000 = %+v", e)
	}
}

func TestProblemsNamedUnderASmallBudget(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	launchTo(t, a, invoices, invoices, "# STOP", nil)
	for _, format := range []string{"markdown", "tui"} {
		var res InspectResult
		r := a.call("debug_inspect_variable", map[string]any{"expression": "lines", "max_bytes": 2048, "format": format}, &res)
		text := strings.ReplaceAll(textOf(r), `\_`, "_")
		if n := responseBytes(t, r); n > 2048 {
			t.Errorf("%s: %d bytes for max_bytes 2048", format, n)
		}
		if res.Budget == nil {
			t.Fatalf("%s: nothing was left out at 2048 bytes?\n%s", format, text)
		}
		cut := strings.Index(text, "left out")
		if cut < 0 {
			cut = len(text)
		}
		head := text[:cut]
		for _, want := range []string{"unit_price 93 (2.3%)", "amount 93 (2.3%)", "amount_eur 93 (2.3%)", "duplicate rows: 51 (1.3%)", "index: 51 repeated labels (1.3%) — not unique"} {
			if !strings.Contains(head, want) {
				t.Errorf("%s: %q is not named before what the budget left out:\n%s", format, want, text)
			}
		}
	}
}

func TestNumbersThatDoNotMislead(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	stop, r := launchToRaw(t, a, invoices, invoices, "# STOP", nil)
	var before InspectResult
	a.call("debug_inspect_variable", map[string]any{"expression": "lines"}, &before)
	if !strings.Contains(before.Summary, "93 nulls in each of 3 columns") || strings.Contains(before.Summary, "279 nulls") {
		t.Errorf("summary %q: the nulls are cells of 3 columns, not 279 rows", before.Summary)
	}
	// Memory is an estimate where object columns are counted shallowly
	// (pandas 1.5's strings); pandas 3 stores strings in its str dtype,
	// whose size pandas knows exactly.
	if objects := pyInt(t, a, "int((lines.dtypes == object).sum())"); objects > 0 {
		if !strings.Contains(before.Summary, "estimated") || !before.Structure.MemoryEstimated {
			t.Errorf("summary %q: a shallow memory figure (%d object columns) must say it is an estimate", before.Summary, objects)
		}
	} else if strings.Contains(before.Summary, "estimated") || before.Structure.MemoryEstimated {
		t.Errorf("summary %q: no object column, so the memory figure is exact", before.Summary)
	}
	locals := lineWithPrefix(textOf(r), "locals:")
	if !strings.Contains(locals, "lines=DataFrame 4,051 × 9 · 93 nulls in each of unit_price, amount, amount_eur") {
		t.Errorf("locals: %s", locals)
	}
	// One number format per line: 757512.3 is not 7.575e+05 beside 989366.
	if !strings.Contains(locals, "daily=Series float64 (3,) · min 757512.3 max 989366") {
		t.Errorf("locals: %s", locals)
	}
	// A step that builds the index's lookup table changes nothing of the frame.
	var after StopReport
	rs := a.call("debug_step", map[string]any{"direction": "over"}, &after)
	if after.Location == nil || after.Location.Line != stop.Location.Line+1 {
		t.Fatalf("step: %+v", after.Location)
	}
	rs = a.call("debug_step", map[string]any{"direction": "over"}, &after)
	var again InspectResult
	a.call("debug_inspect_variable", map[string]any{"expression": "lines"}, &again)
	if *again.Structure.MemoryBytes != *before.Structure.MemoryBytes || again.Summary != before.Summary {
		t.Errorf("unchanged frame: %d bytes (%q), then %d (%q)", *before.Structure.MemoryBytes, before.Summary, *again.Structure.MemoryBytes, again.Summary)
	}
	if l2 := lineWithPrefix(textOf(rs), "locals:"); memoryOf(l2, "lines=") != memoryOf(locals, "lines=") || memoryOf(locals, "lines=") == "" {
		t.Errorf("the locals line's memory changed over a step:\n%s\n%s", locals, l2)
	}
}

func lineWithPrefix(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// memoryOf is the memory part of a local's summary ("≥316.5 KB estimated").
func memoryOf(locals, local string) string {
	i := strings.Index(locals, local)
	if i < 0 {
		return ""
	}
	rest := locals[i:]
	if j := strings.Index(rest, ";"); j >= 0 {
		rest = rest[:j]
	}
	for _, part := range strings.Split(rest, " · ") {
		if strings.Contains(part, "KB") || strings.Contains(part, "MB") {
			return part
		}
	}
	return ""
}

func TestEvaluateReadable(t *testing.T) {
	t.Parallel()
	t.Run("python", func(t *testing.T) {
		a, _ := newHTTPAgent(t, Options{})
		launchTo(t, a, invoices, invoices, "# STOP", nil)
		var ev EvaluateResult
		r := a.call("debug_evaluate", map[string]any{"expression": "by_key"}, &ev)
		if !ev.Expanded || strings.Contains(ev.Result, "(...)") || !strings.Contains(textOf(r), "{'count': {('east', 'acme'): 189, ('east', 'globex'): 208") {
			t.Errorf("nested keys: %s", textOf(r))
		}
		r = a.call("debug_evaluate", map[string]any{"expression": "report"}, &ev)
		want := pyInt(t, a, "len(report)")
		if ev.Length != int(want) || ev.Lines != 22 || !strings.HasPrefix(ev.Text, "invoice report\nregion customer") {
			t.Errorf("report: length %d (want %d), %d lines, text %.60q", ev.Length, want, ev.Lines, ev.Text)
		}
		if text := textOf(r); !strings.Contains(text, fmt.Sprintf("of %d characters, 22 lines:\n```\ninvoice report\nregion customer", want)) {
			t.Errorf("report text:\n%s", text)
		}
	})
	t.Run("node", func(t *testing.T) {
		a, _ := newHTTPAgent(t, Options{})
		const prog = "testdata/node/agent.js"
		launchTo(t, a, prog, prog, "@call", nil)
		var ev EvaluateResult
		a.call("debug_evaluate", map[string]any{"expression": "({region: {north: {acme: 189}}, rows: [1, [2, [3]]]})"}, &ev)
		if !ev.Expanded || ev.Result != "{region: {north: {acme: 189}}, rows: (2) [1, (2) [2, (1) [3]]]}" {
			t.Errorf("nested: %s (expanded %v)", ev.Result, ev.Expanded)
		}
		a.call("debug_evaluate", map[string]any{"expression": "'invoice\\nregion'"}, &ev)
		if ev.Text != "invoice\nregion" || ev.Lines != 2 || ev.Length != 14 {
			t.Errorf("multi-line string: %+v", ev)
		}
	})
}
