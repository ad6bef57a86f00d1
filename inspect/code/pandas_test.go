// pandas_test.go: the index on real code — Debian's pandas sources, and odd
// Python sources.

package code

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestPandas checks the index on a real library: Debian's pandas sources.
func TestPandas(t *testing.T) {
	if testing.Short() {
		t.Skip("indexes pandas (seconds); skipped with -short")
	}
	dir := pandasCopy(t)
	ix, err := Open(dir, Options{IndexDir: filepath.Join(t.TempDir(), "index"), NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Files < 1000 || st.Parsed != st.Files {
		t.Fatalf("stats %+v", st)
	}
	r := inspect(t, ix, Query{Symbol: "pandas.core.frame.DataFrame.merge", MaxNeighbors: 50})
	if r.Path != "core/frame.py" || r.Kind != "method" || !hasSym(r.OutgoingCalls, "pandas.core.reshape.merge.merge") || !hasSym(r.Parents, "pandas.core.frame.DataFrame") {
		t.Errorf("DataFrame.merge: %s %s out %v parents %v", r.Path, r.Kind, symbols(r.OutgoingCalls), symbols(r.Parents))
	}
	found := false
	for _, tt := range r.RelatedTests {
		found = found || strings.HasPrefix(tt.Path, "tests/reshape/merge/")
	}
	if !found {
		t.Errorf("DataFrame.merge tests: %v", r.RelatedTests)
	}
	if !hasItem(r.Enrichment.Inputs, "how: str = 'inner'") {
		t.Errorf("inputs %q", r.Enrichment.Inputs)
	}
	// Issue 13.7: NDFrame.head's related tests are the tests named after it
	// (frame/methods/test_head_tail.py), before tests that merely call it.
	r = inspect(t, ix, Query{Symbol: "pandas.core.generic.NDFrame.head"})
	if len(r.RelatedTests) == 0 || !strings.HasSuffix(r.RelatedTests[0].Path, "/test_head_tail.py") {
		t.Errorf("NDFrame.head tests: %v", r.RelatedTests)
	}
	// A suffix and a path + line resolve as well; the default result is small.
	r = inspect(t, ix, Query{Symbol: "Series.map"})
	if r.Symbol != "pandas.core.series.Series.map" || r.Enrichment.Summary == "" {
		t.Errorf("Series.map: %s %q", r.Symbol, r.Enrichment.Summary)
	}
	if b, _ := json.Marshal(r); len(b) > 4096 {
		t.Errorf("Series.map result is %d bytes", len(b))
	}
	if sym, callers, ok := ix.Enclosing(filepath.Join(dir, "core/reshape/merge.py"), 120); !ok || sym != "pandas.core.reshape.merge.merge" || len(callers) == 0 {
		t.Errorf("Enclosing(merge.py:120) = %s %v %v", sym, callers, ok)
	}
	// Parallel linking builds exactly the serial graph.
	saved := maxLinkWorkers
	maxLinkWorkers = 1
	serial := buildGraph(ix.files, "")
	maxLinkWorkers = saved
	par := ix.g
	if len(serial.ents) != len(par.ents) {
		t.Fatalf("%d vs %d entities", len(serial.ents), len(par.ents))
	}
	edges := 0
	for i := range par.ents {
		a, b := &serial.ents[i], &par.ents[i]
		edges += len(b.out)
		if !slices.Equal(a.out, b.out) || !slices.Equal(a.in, b.in) || !slices.Equal(a.tests, b.tests) || !slices.Equal(a.subjects, b.subjects) {
			t.Fatalf("entity %s differs between serial and parallel linking", a.qual)
		}
	}
	if edges < 20000 {
		t.Errorf("only %d call edges in pandas", edges)
	}
	t.Logf("pandas: %d entities, %d resolved call edges", len(par.ents), edges)
}

func TestOddPythonSources(t *testing.T) {
	dir := copyFixture(t)
	files := map[string]string{
		"odd/bom.py":      "\ufeffdef with_bom():\n    \"\"\"Has a BOM.\"\"\"\n    return 1\n",
		"odd/latin.py":    "# -*- coding: latin-1 -*-\ndef caf\xe9_name():\n    return '\xe9'\n",
		"odd/py2.py":      "print 'hello'\n",
		"odd/nul.py":      "x = 1\x00\n",
		"odd/deep.py":     "x = " + strings.Repeat("(", 300) + "1" + strings.Repeat(")", 300) + "\n\ndef after_deep():\n    return x\n",
		"odd/__init__.py": "",
	}
	for p, src := range files {
		full := filepath.Join(dir, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := inspect(t, ix, Query{Symbol: "odd.bom.with_bom"}); r.Enrichment.Summary != "Has a BOM." {
		t.Errorf("BOM file: %+v", r.Enrichment)
	}
	for _, p := range []string{"odd/py2.py", "odd/nul.py"} {
		if r := inspect(t, ix, Query{Path: p}); r.GraphStatus != GraphNotIndexed {
			t.Errorf("%s: %s", p, r.GraphStatus)
		}
	}
	// Whatever the parser makes of these, nothing fails and the rest works.
	for _, p := range []string{"odd/latin.py", "odd/deep.py"} {
		if r := inspect(t, ix, Query{Path: p}); r.Snippet == "" {
			t.Errorf("%s: empty snippet", p)
		}
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("fixture broken by odd files: %s", r.GraphStatus)
	}
}
