// render_test.go: the text and JSON forms of a result (the reviewed text
// renderings are goldens: golden_test.go).

package code

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTextRendering(t *testing.T) {
	ix, dir := openFixture(t)
	r := inspect(t, ix, Query{Symbol: "calc.core.Calculator.total"})
	txt := r.Text()
	if !strings.HasPrefix(txt, "# FILE: calc/core.py\n") {
		t.Errorf("text starts with %q", txt[:min(40, len(txt))])
	}
	for _, h := range []string{"# SOURCE_MODE: symbol", "# SYMBOL: calc.core.Calculator.total", "# KIND: method", "# SUMMARY: Return the sum",
		"# DEFINED SYMBOLS:", "# RELATIONSHIPS:", "# SNIPPET (lines 55–57):\n    def total(self) -> int:"} {
		if !strings.Contains(txt, h) {
			t.Errorf("text lacks %q", h)
		}
	}
	file, _ := os.ReadFile(filepath.Join(dir, "calc/core.py"))
	if strings.Contains(txt, string(file)) || strings.Contains(txt, "# FULL SOURCE") {
		t.Error("text contains the whole file without --full")
	}
	full := inspect(t, ix, Query{Symbol: "calc.core.Calculator.total", IncludeFullSource: true}).Text()
	if !strings.Contains(full, "# FULL SOURCE (calc/core.py):\n"+string(file)) {
		t.Error("text with full source lacks the file")
	}
}

func TestJSONKeys(t *testing.T) {
	ix, _ := openFixture(t)
	b, err := json.Marshal(inspect(t, ix, Query{Symbol: "calc.core.add"}))
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range ResultKeys {
		if _, ok := m[k]; !ok {
			t.Errorf("result JSON lacks %q", k)
		}
	}
	var en, prov map[string]json.RawMessage
	_ = json.Unmarshal(m["enrichment"], &en)
	_ = json.Unmarshal(m["provenance"], &prov)
	for _, k := range []string{"summary", "inputs", "outputs", "side_effects", "pitfalls", "evidence_count"} {
		if _, ok := en[k]; !ok {
			t.Errorf("enrichment lacks %q", k)
		}
	}
	for _, k := range []string{"kind", "last_commit", "last_commit_date", "indexed_at"} {
		if _, ok := prov[k]; !ok {
			t.Errorf("provenance lacks %q", k)
		}
	}
	if len(b) > 3072 {
		t.Errorf("fixture function result is %d bytes, want <= 3 KB", len(b))
	}
}
