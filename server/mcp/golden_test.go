// golden_test.go: the text renderings agents read — a stop report, a
// snapshot, a diff of values, an outcome — reviewed as golden files from a
// real debugpy run of testdata/mcp/valdiff.py. Run with -update to rewrite
// testdata/golden/*.txt (internal/golden), then review the diff.

package mcp

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/golden"
)

// volatileText are the parts of a rendering that differ between runs.
var volatileText = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`), "SESSION"},
	{regexp.MustCompile(`\b\d+(\.\d+)? (B|KB|MB)\b`), "SIZE"},
	{regexp.MustCompile(`\b\d+ ms\b`), "N ms"},
	{regexp.MustCompile(`0x[0-9a-f]+`), "0xADDR"},
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	for _, v := range volatileText {
		got = v.re.ReplaceAllString(got, v.with)
	}
	got = strings.ReplaceAll(got, repoRoot(t), "REPO")
	golden.Check(t, filepath.Join("testdata", "golden", name+".txt"), []byte(got))
}

func TestGoldenTexts(t *testing.T) {
	a, _ := newHTTPAgent(t, Options{})
	const prog = "testdata/mcp/valdiff.py"
	stop, r := launchToRaw(t, a, prog, prog, "# STOP", nil)
	checkGolden(t, "stop_report", textOf(r))
	var s1 SnapshotResult
	checkGolden(t, "snapshot", textOf(a.call("debug_snapshot", map[string]any{"inspect": []string{"self", "self.by_region"}}, &s1)))
	checkGolden(t, "continue", textOf(a.call("debug_continue", nil, &stop)))
	checkGolden(t, "diff_values", textOf(a.call("debug_diff", map[string]any{"from": s1.Snapshot.ID}, nil)))
	checkGolden(t, "diff_stops", textOf(a.call("debug_diff", nil, nil)))
	a.call("debug_continue", nil, &stop)
	checkGolden(t, "outcome", textOf(a.call("debug_outcome", nil, nil)))
}
