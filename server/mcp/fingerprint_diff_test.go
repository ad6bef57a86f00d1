package mcp

import (
	"strings"
	"testing"
)

// TestDiffComparesFingerprints: a value whose summary is unchanged but
// whose fingerprint is not is "changed" (its content), saying where its
// cells are; equal fingerprints, or none, leave it unchanged.
func TestDiffComparesFingerprints(t *testing.T) {
	from := &snapshot{Locals: []VarValue{
		{Name: "df", Type: "DataFrame", Value: "DataFrame 1,000×10", fp: "aa"},
		{Name: "same", Type: "ndarray", Value: "ndarray (5,)", fp: "bb"},
		{Name: "old", Type: "list", Value: "list len 3"},
	}}
	to := &snapshot{Locals: []VarValue{
		{Name: "df", Type: "DataFrame", Value: "DataFrame 1,000×10", fp: "ab"},
		{Name: "same", Type: "ndarray", Value: "ndarray (5,)", fp: "bb"},
		{Name: "old", Type: "list", Value: "list len 3", fp: "cc"},
	}}
	r := diffSnapshots(from, to, "previous stop", "current stop")
	if len(r.Changed) != 1 || r.Changed[0].Name != "df" || r.Changed[0].Content == "" || r.Unchanged != 2 {
		t.Fatalf("changed %+v, unchanged %d", r.Changed, r.Unchanged)
	}
	if txt := r.text(); !strings.Contains(txt, "~ df: content changed under the same summary") {
		t.Errorf("text:\n%s", txt)
	}
}

// TestDiffNotCompared: debug_diff with no arguments, on real debugpy,
// counts the values whose content it could not compare (no fingerprint
// without running their code: an object with __slots__, a generator) and
// says why per name, in the result and its text; they are not counted
// unchanged.
func TestDiffNotCompared(t *testing.T) {
	t.Parallel()
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/notcompared.py"
	if stop := launchTo(t, a, prog, prog, "# STOP", nil); stop.Status != "paused" {
		t.Fatalf("launch: %+v", stop)
	}
	var stop StopReport
	a.call("debug_continue", map[string]any{}, &stop)
	if stop.Status != "paused" {
		t.Fatalf("continue: %+v", stop)
	}
	var d DiffResult
	r := a.call("debug_diff", map[string]any{}, &d)
	why := map[string]string{}
	for _, n := range d.NotCompared {
		why[n.Name] = n.Reason
	}
	const no = "no fingerprint without running its code"
	if len(why) != 2 || why["slots"] != no || why["gen"] != no {
		t.Errorf("not compared: %+v", d.NotCompared)
	}
	if len(d.Changed) != 1 || d.Changed[0].Name != "n" || d.Unchanged != 1 { // kept
		t.Errorf("changed %+v, unchanged %d", d.Changed, d.Unchanged)
	}
	if txt := textOf(r); !strings.Contains(txt, "1 unchanged, 2 not compared: slots ("+no+"), gen ("+no+")") {
		t.Errorf("text:\n%s", txt)
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
