// snippet_test.go: snippets and outlines — symbol mode shorter than the
// file, long symbols cut, defined symbols in file and symbol mode, the full
// source on request.

package code

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSymbolModeSnippetShorterThanFile(t *testing.T) {
	ix, dir := openFixture(t)
	r := inspect(t, ix, Query{Symbol: "calc.core.add"})
	file, _ := os.ReadFile(filepath.Join(dir, "calc/core.py"))
	if r.SourceMode != ModeSymbol || r.Path != "calc/core.py" || r.Kind != "function" {
		t.Fatalf("mode/path/kind = %s %s %s", r.SourceMode, r.Path, r.Kind)
	}
	if r.PrimarySpan != [2]int{7, 24} {
		t.Errorf("primary_span = %v, want [7 24]", r.PrimarySpan)
	}
	if r.FullSource != nil {
		t.Error("full_source is set without being asked for")
	}
	if len(r.Snippet) >= len(file) || !strings.HasPrefix(r.Snippet, "def add(a: int, b: int = 0) -> int:") {
		t.Errorf("snippet (%d bytes, file %d) = %q", len(r.Snippet), len(file), r.Snippet)
	}
	if !strings.Contains(r.Snippet, "return a + b") {
		t.Errorf("snippet lost the body: %q", r.Snippet)
	}
	b, _ := json.Marshal(r)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	if v, ok := m["full_source"]; !ok || v != nil {
		t.Errorf("full_source = %v (present %v), want null", v, ok)
	}
}

func TestLongSymbolSnippetIsCut(t *testing.T) {
	ix, _ := openFixture(t)
	r := inspect(t, ix, Query{Symbol: "calc.core.big_table"})
	lines := strings.Split(r.Snippet, "\n")
	if span := r.PrimarySpan[1] - r.PrimarySpan[0] + 1; span <= symbolBudget {
		t.Fatalf("fixture function too short: %d lines", span)
	}
	if len(lines) > symbolBudget {
		t.Errorf("snippet has %d lines, budget %d", len(lines), symbolBudget)
	}
	if lines[0] != "def big_table(n):" || strings.TrimSpace(lines[len(lines)-1]) != "return rows" {
		t.Errorf("head/tail not kept: first %q last %q", lines[0], lines[len(lines)-1])
	}
	if !strings.Contains(r.Snippet, "omitted] ...") {
		t.Error("cut is not marked")
	}
}

func TestFileModeDefinedSymbols(t *testing.T) {
	ix, _ := openFixture(t)
	r := inspect(t, ix, Query{Path: "calc/core.py"})
	if r.SourceMode != ModeFile || r.Symbol != "calc.core" || r.Kind != "module" {
		t.Fatalf("mode/symbol/kind = %s %s %s", r.SourceMode, r.Symbol, r.Kind)
	}
	names := map[string]DefinedSymbol{}
	for _, d := range r.DefinedSymbols {
		names[d.Name] = d
	}
	if len(r.DefinedSymbols) > 10 {
		t.Errorf("%d defined symbols, want <= 10", len(r.DefinedSymbols))
	}
	if d, ok := names["calc.core.add"]; !ok || d.Type != "function" || d.Line != 7 || d.Summary != "Add two non-negative integers." {
		t.Errorf("add entry = %+v", d)
	}
	if d, ok := names["calc.core.Calculator"]; !ok || d.Type != "class" {
		t.Errorf("Calculator entry = %+v", d)
	}
	// Ranked by connectivity: add (called from many places) comes first.
	if r.DefinedSymbols[0].Name != "calc.core.add" {
		t.Errorf("first defined symbol %q, want the most connected calc.core.add", r.DefinedSymbols[0].Name)
	}
	if !strings.HasPrefix(r.FileSummary, "Core arithmetic.") {
		t.Errorf("file_summary = %q", r.FileSummary)
	}
	if !hasSym(r.Parents, "calc") {
		t.Errorf("parents = %v, want the calc package", r.Parents)
	}
	if !strings.Contains(r.Snippet, "class Calculator:") || !strings.Contains(r.Snippet, "omitted") {
		t.Errorf("long file snippet should outline the top-level definitions: %q", r.Snippet)
	}
}

func TestFullSourceEqualsFile(t *testing.T) {
	ix, dir := openFixture(t)
	for _, q := range []Query{{Symbol: "calc.core.Calculator.push", IncludeFullSource: true}, {Path: "mathx/mathx.go", IncludeFullSource: true}} {
		r := inspect(t, ix, q)
		want, _ := os.ReadFile(filepath.Join(dir, r.Path))
		if r.FullSource == nil || *r.FullSource != string(want) {
			t.Errorf("%+v: full_source differs from the file on disk", q)
		}
		if r.Snippet == "" {
			t.Errorf("%+v: snippet missing next to full_source", q)
		}
	}
}

func TestSymbolModeDefinedSymbols(t *testing.T) {
	ix, _ := openFixture(t)
	r := inspect(t, ix, Query{Symbol: "calc.core.Calculator"})
	var names []string
	for _, d := range r.DefinedSymbols {
		names = append(names, d.Name)
	}
	if len(names) != 5 || !contains(names, "calc.core.Calculator.push") || contains(names, "calc.core.Calculator") {
		t.Errorf("class defined symbols = %v, want its 5 methods", names)
	}
	if len(r.Children) != DefaultMaxNeighbors || r.Enrichment.Summary != "A running total of pushed numbers." {
		t.Errorf("children %v summary %q", r.Children, r.Enrichment.Summary)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.incr"}); len(r.DefinedSymbols) != 0 {
		t.Errorf("a leaf function defines %v", r.DefinedSymbols)
	}
}
