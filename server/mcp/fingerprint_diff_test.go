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
