// variables_test.go: scope counts as the program has them. Real debugpy.

package mcp

import "testing"

// TestScopeCounts: debug_scopes counts what the program has, debugpy's
// grouped functions and classes included (issue 13.6: "Globals: 0").
func TestScopeCounts(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog,
		"breakpoints": []map[string]any{{"file": prog, "line": lineWith(t, prog, "# STOP")}}}, &stop)
	var sc ScopesResult
	a.call("debug_scopes", nil, &sc)
	counts := map[string]int{}
	for _, s := range sc.Scopes {
		counts[s.Name] = s.Count
	}
	// add(self, rows) with region and amount from the loop; the module has
	// np, pd, Totals and main.
	if counts["Locals"] != 4 || counts["Globals"] != 4 {
		t.Errorf("scope counts = %v, want Locals 4, Globals 4", counts)
	}
}
