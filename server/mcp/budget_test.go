// budget_test.go: debug_inspect_variable fits its answer into max_bytes
// (default 8 KB) by dropping facts in a fixed order and says what it
// dropped and how to get it; the one column with nulls of a 5000 × 301
// frame is named in the first lines (issue 12). Real debugpy.

package mcp

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
)

func TestInspectBudget(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/wide.py"
	launchTo(t, a, prog, prog, "# STOP", nil)
	var res inspect.Result
	r := a.call("debug_inspect_variable", map[string]any{"expression": "wide"}, &res)
	n := responseBytes(t, r)
	text := textOf(r)
	first := strings.Join(strings.SplitN(text, "\n", 8)[:7], "\n")
	t.Logf("default: %d bytes; text:\n%s", n, text)
	if n > 8<<10 {
		t.Errorf("default response is %d bytes, want ≤ 8192", n)
	}
	if !strings.Contains(first, "label") || !strings.Contains(text, "nulls: label 1,6") {
		t.Errorf("the column with nulls is not named in the first lines:\n%s", first)
	}
	if res.Budget == nil || len(res.Budget.Dropped) == 0 || !strings.Contains(text, "max_bytes") {
		t.Fatalf("budget note = %+v", res.Budget)
	}
	whats := []string{}
	for _, d := range res.Budget.Dropped {
		whats = append(whats, d.What)
	}
	if whats[0] != "tail rows" || !strings.Contains(whats[len(whats)-1], "columns") {
		t.Errorf("drop order = %q", whats)
	}
	kept := map[string]bool{}
	for _, c := range res.Structure.Columns {
		kept[c.Name] = true
	}
	if !kept["label"] || !kept["f000"] || len(kept) >= 301 {
		t.Errorf("kept %d columns, label %v", len(kept), kept["label"])
	}
	// A larger budget keeps more; the hard cap bounds it.
	var big inspect.Result
	r = a.call("debug_inspect_variable", map[string]any{"expression": "wide", "max_bytes": 60000}, &big)
	if n2 := responseBytes(t, r); n2 > 60000 || len(big.Structure.Columns) <= len(res.Structure.Columns) {
		t.Errorf("max_bytes 60000: %d bytes, %d columns", n2, len(big.Structure.Columns))
	}
	if e := a.fail("debug_inspect_variable", map[string]any{"expression": "wide", "max_bytes": 100}); e.Code != "INVALID_ARGUMENT" || e.Field != "max_bytes" {
		t.Errorf("max_bytes 100 = %+v", e)
	}
}
