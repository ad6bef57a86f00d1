// code_test.go tests the code-context library on the fixture repository in
// testdata/code (Python + Go + Markdown), copied to a temp dir per test so
// .dapscope/ is never written into the source tree.

package code

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func copyFixture(t testing.TB) string {
	t.Helper()
	src, err := filepath.Abs("../../testdata/code")
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	return dst
}

func openFixture(t testing.TB) (*Index, string) {
	t.Helper()
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

func inspect(t testing.TB, ix *Index, q Query) *Result {
	t.Helper()
	r, err := ix.InspectEntity(q)
	if err != nil {
		t.Fatalf("InspectEntity(%+v): %v", q, err)
	}
	return r
}

func symbols(refs []Ref) []string {
	var out []string
	for _, r := range refs {
		out = append(out, r.Symbol)
	}
	return out
}

func hasSym(refs []Ref, sym string) bool {
	for _, r := range refs {
		if r.Symbol == sym {
			return true
		}
	}
	return false
}

func hasItem(items []string, sub string) bool {
	for _, s := range items {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

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

func TestRelationshipsTruncatedToMaxNeighbors(t *testing.T) {
	ix, _ := openFixture(t)
	all := inspect(t, ix, Query{Symbol: "calc.core.add", MaxNeighbors: 20})
	if len(all.IncomingCalls) < 5 {
		t.Fatalf("incoming calls of add = %v, want >= 5", symbols(all.IncomingCalls))
	}
	for _, want := range []string{"calc.core.add_all", "calc.core.incr", "calc.io.load", "calc.core.big_table"} {
		if !hasSym(all.IncomingCalls, want) {
			t.Errorf("incoming calls %v miss %s", symbols(all.IncomingCalls), want)
		}
	}
	def := inspect(t, ix, Query{Symbol: "calc.core.add"})
	if len(def.IncomingCalls) != DefaultMaxNeighbors {
		t.Errorf("default: %d incoming calls, want %d", len(def.IncomingCalls), DefaultMaxNeighbors)
	}
	one := inspect(t, ix, Query{Symbol: "calc.core.add", MaxNeighbors: 1})
	for name, l := range map[string][]Ref{"incoming": one.IncomingCalls, "tests": one.RelatedTests, "docs": one.RelatedDocs, "parents": one.Parents} {
		if len(l) != 1 {
			t.Errorf("max_neighbors=1: %s = %v", name, l)
		}
	}
	// Non-test callers rank before test callers.
	if strings.HasPrefix(one.IncomingCalls[0].Path, "tests/") {
		t.Errorf("a test ranks first: %v", one.IncomingCalls)
	}
}

func TestCallResolution(t *testing.T) {
	ix, _ := openFixture(t)
	cases := []struct {
		sym      string
		out, in  []string
		tests    []string
		docsPath string
	}{
		// self. methods, module functions, re-export through calc/__init__.py.
		{sym: "calc.core.Calculator.push", out: []string{"calc.core.Calculator._check"}, tests: []string{"test_core.TestCalculator.test_total"}},
		{sym: "calc.core.Calculator.total", out: []string{"calc.core.add_all"}, in: []string{"calc.core.Calculator.save", "test_core.TestCalculator.test_total"}},
		{sym: "calc.io.load", out: []string{"calc.core.add"}, docsPath: "docs/usage.md"},
		{sym: "calc.core.add", tests: []string{"test_core.test_add", "test_core.test_add_negative"}, docsPath: "docs/usage.md"},
		// Go: imports, receiver methods, constructor results, tests by name.
		{sym: "main.main", out: []string{"mathx.NewAcc", "mathx.Sum", "mathx.Acc.Add", "mathx.Acc.Total"}},
		{sym: "mathx.Acc.Add", out: []string{"mathx.Acc.log"}, in: []string{"main.main"}, tests: []string{"mathx.TestAcc_Add"}},
		// Typed attributes: self.calc = Calculator(); Go struct fields.
		{sym: "calc.io.Loader.run", out: []string{"calc.core.Calculator.push", "calc.core.Calculator.total", "calc.io.load"}},
		{sym: "mathx.Pair.Bump", out: []string{"mathx.Acc.Add"}},
		{sym: "mathx.Sum", tests: []string{"mathx.TestSum", "mathx.TestSumVariadic"}, docsPath: "README.md"}, // through a test helper
	}
	for _, c := range cases {
		r := inspect(t, ix, Query{Symbol: c.sym, MaxNeighbors: 10})
		for _, o := range c.out {
			if !hasSym(r.OutgoingCalls, o) {
				t.Errorf("%s: outgoing %v miss %s", c.sym, symbols(r.OutgoingCalls), o)
			}
		}
		for _, i := range c.in {
			if !hasSym(r.IncomingCalls, i) {
				t.Errorf("%s: incoming %v miss %s", c.sym, symbols(r.IncomingCalls), i)
			}
		}
		for _, tt := range c.tests {
			if !hasSym(r.RelatedTests, tt) {
				t.Errorf("%s: tests %v miss %s", c.sym, symbols(r.RelatedTests), tt)
			}
		}
		if c.docsPath != "" {
			found := false
			for _, d := range r.RelatedDocs {
				found = found || d.Path == c.docsPath
			}
			if !found {
				t.Errorf("%s: docs %v miss %s", c.sym, r.RelatedDocs, c.docsPath)
			}
		}
		if r.GraphStatus != GraphConnected {
			t.Errorf("%s: graph_status %s", c.sym, r.GraphStatus)
		}
	}
}

func TestEnrichmentMirrorsDocstrings(t *testing.T) {
	ix, _ := openFixture(t)
	add := inspect(t, ix, Query{Symbol: "calc.core.add"}).Enrichment
	if add.Summary != "Add two non-negative integers." {
		t.Errorf("summary = %q", add.Summary)
	}
	if !hasItem(add.Inputs, "a: int — the first operand.") || !hasItem(add.Inputs, "b: int = 0 — the second operand") {
		t.Errorf("inputs = %q", add.Inputs)
	}
	if !hasItem(add.Outputs, "The sum of a and b.") {
		t.Errorf("outputs = %q", add.Outputs)
	}
	if !hasItem(add.Pitfalls, "raises ValueError: if either operand is negative.") {
		t.Errorf("pitfalls = %q", add.Pitfalls)
	}
	if add.EvidenceCount < 3 { // docstring, annotations, raise/return statements
		t.Errorf("evidence_count = %d", add.EvidenceCount)
	}
	// NumPy-style docstring.
	load := inspect(t, ix, Query{Symbol: "calc.io.load"}).Enrichment
	if !hasItem(load.Inputs, "path — (str) File to read.") || !hasItem(load.Outputs, "The sum of all lines.") {
		t.Errorf("numpy docstring not mirrored: inputs %q outputs %q", load.Inputs, load.Outputs)
	}
	if !hasItem(load.SideEffects, "opens files (open)") {
		t.Errorf("load side effects = %q", load.SideEffects)
	}
	save := inspect(t, ix, Query{Symbol: "calc.core.Calculator.save"}).Enrichment
	for _, want := range []string{"opens files (open)", "writes to stdout (print)", "json.dump", "writes global LAST"} {
		if !hasItem(save.SideEffects, want) {
			t.Errorf("save side effects %q miss %q", save.SideEffects, want)
		}
	}
	check := inspect(t, ix, Query{Symbol: "calc.core.Calculator._check"}).Enrichment
	if !hasItem(check.Pitfalls, "raises TypeError") || check.Summary != "" {
		t.Errorf("_check enrichment = %+v", check)
	}
	total := inspect(t, ix, Query{Symbol: "mathx.Acc.Total"}).Enrichment
	if !hasItem(total.Pitfalls, "may panic") || !hasItem(total.Pitfalls, "error") || !hasItem(total.Outputs, "(int, error)") {
		t.Errorf("Go enrichment = %+v", total)
	}
	addGo := inspect(t, ix, Query{Symbol: "mathx.Acc.Add"}).Enrichment
	if !hasItem(addGo.SideEffects, "writes package variable Calls") || addGo.Summary != "Add adds x to the running total." {
		t.Errorf("Go Add enrichment = %+v", addGo)
	}
	// Keys are always present, empty lists rather than null.
	b, _ := json.Marshal(inspect(t, ix, Query{Symbol: "notes.orphan.lonely"}).Enrichment)
	for _, k := range []string{`"inputs":[`, `"outputs":[`, `"side_effects":[]`, `"pitfalls":[]`, `"evidence_count":`, `"summary":`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("enrichment JSON %s lacks %s", b, k)
		}
	}
}

func TestNoGraphStillHasSnippet(t *testing.T) {
	ix, dir := openFixture(t)
	// A file the index does not parse (config), and a Python file that does
	// not parse: snippet present, relationships empty, no error.
	if err := os.WriteFile(filepath.Join(dir, "calc/broken.py"), []byte("def broken(:\n    pass\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"config.toml", "calc/broken.py"} {
		r := inspect(t, ix, Query{Path: p, Line: 1})
		if r.GraphStatus != GraphNotIndexed || r.SourceMode != ModeFile {
			t.Errorf("%s: graph_status %s mode %s", p, r.GraphStatus, r.SourceMode)
		}
		if r.Snippet == "" || len(r.IncomingCalls)+len(r.OutgoingCalls)+len(r.RelatedTests)+len(r.RelatedDocs)+len(r.Parents)+len(r.Children) != 0 {
			t.Errorf("%s: snippet %q relationships %+v", p, r.Snippet, r)
		}
		if r.IncomingCalls == nil || r.RelatedDocs == nil {
			t.Errorf("%s: relationship lists must be empty, not null", p)
		}
	}
	if r := inspect(t, ix, Query{Path: "config.toml"}); r.Provenance.Kind != "config" || !strings.Contains(r.Snippet, "precision = 2") {
		t.Errorf("config: kind %s snippet %q", r.Provenance.Kind, r.Snippet)
	}
	// Indexed but unconnected.
	r := inspect(t, ix, Query{Symbol: "notes.orphan.lonely"})
	if r.GraphStatus != GraphIsolated || !strings.Contains(r.Snippet, "return y") {
		t.Errorf("orphan: graph_status %s snippet %q", r.GraphStatus, r.Snippet)
	}
}

func TestPathAndLineResolution(t *testing.T) {
	ix, _ := openFixture(t)
	for _, c := range []struct {
		line int
		sym  string
		mode string
	}{
		{48, "calc.core.Calculator.push", ModeSymbol},
		{42, "calc.core.Calculator", ModeSymbol},
		{2, "calc.core", ModeFile},
	} {
		r := inspect(t, ix, Query{Path: "calc/core.py", Line: c.line})
		if r.Symbol != c.sym || r.SourceMode != c.mode {
			t.Errorf("line %d: %s (%s), want %s (%s)", c.line, r.Symbol, r.SourceMode, c.sym, c.mode)
		}
	}
	if r := inspect(t, ix, Query{Path: "mathx/mathx.go", Line: 33}); r.Symbol != "mathx.Acc.log" {
		t.Errorf("go line 33: %s", r.Symbol)
	}
	if r := inspect(t, ix, Query{Path: "docs/usage.md", Line: 8}); r.Symbol != "docs/usage.md#Adding numbers" || r.Kind != "doc-section" || !hasSym(r.OutgoingCalls, "calc.io.load") {
		t.Errorf("doc line 8: %s %s mentions %v", r.Symbol, r.Kind, r.OutgoingCalls)
	}
}

func TestSymbolForms(t *testing.T) {
	ix, dir := openFixture(t)
	for q, want := range map[string]string{
		"Calculator.push":               "calc.core.Calculator.push", // unique suffix
		"example.com/fixture/mathx.Sum": "mathx.Sum",                 // Go import path
		"mathx.Acc":                     "mathx.Acc",
		"docs/usage.md#Usage":           "docs/usage.md#Usage",
		"calc":                          "calc", // a package -> file mode
	} {
		r := inspect(t, ix, Query{Symbol: q})
		if r.Symbol != want {
			t.Errorf("%q resolved to %q, want %q", q, r.Symbol, want)
		}
	}
	if r := inspect(t, ix, Query{Symbol: "calc"}); r.SourceMode != ModeFile || r.Path != "calc/__init__.py" {
		t.Errorf("package symbol: %s %s", r.SourceMode, r.Path)
	}
	// Ambiguous across files; the path disambiguates.
	if err := os.WriteFile(filepath.Join(dir, "notes/more.py"), []byte("def incr(x):\n    return x + 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	_, err := ix.InspectEntity(Query{Symbol: "incr"})
	var ce *Error
	if !errors.As(err, &ce) || ce.Code != ErrAmbiguous || len(ce.Matches) != 2 {
		t.Fatalf("ambiguous symbol: %v", err)
	}
	if r := inspect(t, ix, Query{Symbol: "incr", Path: "notes/more.py"}); r.Symbol != "more.incr" {
		t.Errorf("symbol+path: %s", r.Symbol)
	}
}

func TestErrors(t *testing.T) {
	ix, _ := openFixture(t)
	for _, c := range []struct {
		q       Query
		code    string
		matches string
	}{
		{Query{Symbol: "calc.core.ad"}, ErrNotFound, "calc.core.add"},
		{Query{Symbol: "Calculater.push"}, ErrNotFound, "calc.core.Calculator.push"},
		{Query{Path: "calc/cor.py"}, ErrNotFound, "calc/core.py"},
		{Query{Path: "/etc/passwd"}, ErrInvalidPath, ""},
		{Query{Path: "calc/../../x.py"}, ErrInvalidPath, ""},
		{Query{Path: "../repo/calc/core.py"}, ErrInvalidPath, ""},
		{Query{}, ErrInvalidArgument, ""},
		{Query{Path: "calc/core.py", Line: 100000}, ErrInvalidArgument, ""},
		{Query{Path: "calc/core.py", Line: -1}, ErrInvalidArgument, ""},
	} {
		_, err := ix.InspectEntity(c.q)
		var ce *Error
		if !errors.As(err, &ce) || ce.Code != c.code {
			t.Errorf("%+v: err = %v, want %s", c.q, err, c.code)
			continue
		}
		if c.matches != "" && !contains(ce.Matches, c.matches) {
			t.Errorf("%+v: matches %v miss %s", c.q, ce.Matches, c.matches)
		}
	}
	if _, err := Open(filepath.Join(t.TempDir(), "missing"), Options{}); err == nil {
		t.Error("Open of a missing directory succeeded")
	}
}

func TestIncrementalRefresh(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	cold := ix.Stats()
	if cold.Parsed < 10 || cold.Reused != 0 || !cold.Saved {
		t.Fatalf("cold stats = %+v", cold)
	}
	if _, err := os.Stat(filepath.Join(dir, ".dapscope", "code-index.gob")); err != nil {
		t.Fatalf("no store written: %v", err)
	}
	// Warm: nothing is parsed, even after touching a file without changing it.
	now := mustStat(t, filepath.Join(dir, "calc/core.py")).ModTime()
	_ = os.Chtimes(filepath.Join(dir, "calc/core.py"), now, now.Add(5e9))
	ix2, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix2.Stats(); st.Parsed != 0 || st.Reused != cold.Files {
		t.Fatalf("warm stats = %+v (cold %+v)", st, cold)
	}
	// Edit one file: exactly that file is parsed again, and the graph sees it.
	io := filepath.Join(dir, "calc/io.py")
	src, _ := os.ReadFile(io)
	src = append(src, []byte("\n\ndef load_twice(path):\n    \"\"\"Load path twice.\"\"\"\n    return load(path) + load(path)\n")...)
	if err := os.WriteFile(io, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "notes/orphan.py")); err != nil {
		t.Fatal(err)
	}
	ix3, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix3.Stats(); st.Parsed != 1 || st.Removed != 1 || st.Reused != cold.Files-2 {
		t.Fatalf("after editing one file: %+v (cold %+v)", st, cold)
	}
	r := inspect(t, ix3, Query{Symbol: "calc.io.load", MaxNeighbors: 10})
	if !hasSym(r.IncomingCalls, "calc.io.load_twice") {
		t.Errorf("new caller not linked: %v", symbols(r.IncomingCalls))
	}
	if _, err := ix3.InspectEntity(Query{Symbol: "notes.orphan.lonely"}); err == nil {
		t.Error("removed file still resolves")
	}
	// The long-lived index refreshes in place too.
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Parsed != 0 {
		t.Errorf("Refresh after another Open re-parsed: %+v", st)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.io.load_twice"}); r.Enrichment.Summary != "Load path twice." {
		t.Errorf("refreshed index: %+v", r.Enrichment)
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestConcurrentOpen(t *testing.T) {
	dir := copyFixture(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, err := Open(dir, Options{NoGit: true})
			if err == nil {
				var r *Result
				r, err = ix.InspectEntity(Query{Symbol: "calc.core.add"})
				if err == nil && r.GraphStatus != GraphConnected {
					err = errors.New("not connected: " + r.GraphStatus)
				}
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// No temp files left behind, and the store is readable.
	ents, _ := os.ReadDir(filepath.Join(dir, ".dapscope"))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("leftover temp file %s", e.Name())
		}
	}
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil || ix.Stats().Parsed != 0 {
		t.Errorf("reopen after concurrent writers: %v %+v", err, ix.Stats())
	}
}

func TestConcurrentInspectAndRefresh(t *testing.T) {
	ix, _ := openFixture(t)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if i == 0 {
					_ = ix.Refresh(t.Context())
					continue
				}
				if _, err := ix.InspectEntity(Query{Symbol: "mathx.Sum"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestProvenance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed") // provenance without git is covered below
	}
	dir := copyFixture(t)
	git := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_DATE=2024-01-02T10:00:00Z", "GIT_COMMITTER_DATE=2024-01-02T10:00:00Z",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "calc", "tests", "docs", "mathx", "README.md")
	git("commit", "-q", "-m", "fixture")
	ix, err := Open(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Symbol: "calc.core.add"})
	p := r.Provenance
	if p.Kind != "code" || p.LastCommit == nil || len(*p.LastCommit) < 7 || p.LastCommitDate == nil || *p.LastCommitDate != "2024-01-02" || p.IndexedAt == nil {
		t.Errorf("provenance = kind %s commit %v date %v indexed %v", p.Kind, deref(p.LastCommit), deref(p.LastCommitDate), deref(p.IndexedAt))
	}
	if p := inspect(t, ix, Query{Symbol: "test_core.test_add"}).Provenance; p.Kind != "test" || p.LastCommit == nil {
		t.Errorf("test provenance = %+v", p)
	}
	if p := inspect(t, ix, Query{Path: "docs/usage.md"}).Provenance; p.Kind != "docs" {
		t.Errorf("docs provenance kind = %s", p.Kind)
	}
	// Untracked file: nulls, no error.
	if p := inspect(t, ix, Query{Path: "config.toml"}).Provenance; p.LastCommit != nil || p.LastCommitDate != nil || p.Kind != "config" {
		t.Errorf("untracked provenance = %+v", p)
	}
	// No repository at all: nulls, no error.
	ix2, _ := openFixture(t)
	ix2.opts.NoGit = false
	if p := inspect(t, ix2, Query{Symbol: "calc.core.add"}).Provenance; p.LastCommit != nil || p.LastCommitDate != nil {
		t.Errorf("provenance without git = %+v", p)
	}
}

func TestEnclosing(t *testing.T) {
	ix, dir := openFixture(t)
	sym, callers, ok := ix.Enclosing(filepath.Join(dir, "calc/core.py"), 31)
	if !ok || sym != "calc.core.add_all" || len(callers) == 0 || callers[0].Symbol != "calc.core.Calculator.total" {
		t.Errorf("Enclosing(core.py:31) = %s %v %v", sym, callers, ok)
	}
	sym, callers, ok = ix.Enclosing("calc/core.py", 22)
	if !ok || sym != "calc.core.add" || len(callers) != DefaultMaxNeighbors {
		t.Errorf("Enclosing(core.py:22) = %s %v %v", sym, callers, ok)
	}
	if sym, _, ok := ix.Enclosing("mathx/mathx.go", 28); !ok || sym != "mathx.Acc.Add" {
		t.Errorf("Enclosing(mathx.go:28) = %s %v", sym, ok)
	}
	if sym, _, ok := ix.Enclosing("calc/core.py", 2); !ok || sym != "calc.core" {
		t.Errorf("module level = %s %v", sym, ok)
	}
	if _, _, ok := ix.Enclosing("/usr/lib/python3/os.py", 10); ok {
		t.Error("a file outside the repository was resolved")
	}
}

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

func TestPythonModuleNames(t *testing.T) {
	pkgs := map[string]bool{"": true, "core": true, "core/sub": true, "a": true}
	for _, c := range []struct{ rel, root, mod string }{
		{"core/frame.py", "pandas", "pandas.core.frame"},
		{"__init__.py", "pandas", "pandas"},
		{"core/sub/__init__.py", "pandas", "pandas.core.sub"},
		{"scripts/x.py", "pandas", "x"},
		{"a/b.py", "", "a.b"},
	} {
		root := c.root
		p := pkgs
		if root == "" {
			p = map[string]bool{"a": true}
		}
		if got, _ := pythonModule(c.rel, p, root); got != c.mod {
			t.Errorf("pythonModule(%s) = %s, want %s", c.rel, got, c.mod)
		}
	}
}

func TestCorruptStoreReindexes(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	n := ix.Stats().Files
	if err := os.WriteFile(filepath.Join(dir, ".dapscope", "code-index.gob"), []byte("not a gob stream"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Parsed != n || !st.Saved {
		t.Errorf("after a corrupt store: %+v, want all %d parsed and saved", st, n)
	}
	// An unwritable index directory only costs the cache.
	ro := filepath.Join(t.TempDir(), "file-not-dir")
	_ = os.WriteFile(ro, nil, 0o644)
	ix, err = Open(dir, Options{NoGit: true, IndexDir: filepath.Join(ro, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Saved || st.Parsed != n {
		t.Errorf("unwritable index dir: %+v", st)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("in-memory index: %s", r.GraphStatus)
	}
}

func TestSkippedDirectoriesAndLimits(t *testing.T) {
	dir := copyFixture(t)
	for _, p := range []string{"vendor/v.go", "node_modules/m/x.py", ".hidden/h.py", "calc/__pycache__/c.py"} {
		full := filepath.Join(dir, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("def skipped_fn():\n    pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(dir, "calc/huge.py")
	if err := os.WriteFile(big, []byte("def huge_fn():\n    pass\n"+strings.Repeat("# pad\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, Options{NoGit: true, MaxFileBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{"skipped_fn", "huge_fn"} {
		if _, err := ix.InspectEntity(Query{Symbol: sym}); err == nil {
			t.Errorf("%s from a skipped file was indexed", sym)
		}
	}
	// The oversized file is still readable as a not-indexed file.
	if r := inspect(t, ix, Query{Path: "calc/huge.py"}); r.GraphStatus != GraphNotIndexed || !strings.Contains(r.Snippet, "def huge_fn") {
		t.Errorf("oversized file: %s %q", r.GraphStatus, r.Snippet[:min(40, len(r.Snippet))])
	}
}

func TestWithoutPythonParser(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true, Python: filepath.Join(t.TempDir(), "no-python3")})
	if err != nil {
		t.Fatalf("Open without a Python parser: %v", err)
	}
	if r := inspect(t, ix, Query{Symbol: "mathx.Sum"}); r.GraphStatus != GraphConnected {
		t.Errorf("Go graph without Python: %s", r.GraphStatus)
	}
	r := inspect(t, ix, Query{Path: "calc/core.py", Line: 10})
	if r.GraphStatus != GraphNotIndexed || !strings.Contains(r.Snippet, "def add(") {
		t.Errorf("python file without parser: %s %q", r.GraphStatus, r.Snippet[:min(60, len(r.Snippet))])
	}
	// With the parser back, the Python files are parsed (not reused).
	ix, err = Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("after the parser is back: %s", r.GraphStatus)
	}
}

func TestRefreshWithoutChangesKeepsGraph(t *testing.T) {
	ix, dir := openFixture(t)
	g := ix.g
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ix.g != g || ix.Stats().Parsed != 0 {
		t.Errorf("unchanged refresh rebuilt the graph or parsed: %+v", ix.Stats())
	}
	if err := os.WriteFile(filepath.Join(dir, "notes/orphan.py"), []byte("def lonely(x):\n    return incr(x)\n\nfrom calc.core import incr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ix.g == g || ix.Stats().Parsed != 1 {
		t.Errorf("changed refresh: %+v", ix.Stats())
	}
	if r := inspect(t, ix, Query{Symbol: "notes.orphan.lonely"}); !hasSym(r.OutgoingCalls, "calc.core.incr") {
		t.Errorf("edited function's calls: %v", r.OutgoingCalls)
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

func TestHungParserTimesOut(t *testing.T) {
	dir := copyFixture(t)
	fake := filepath.Join(t.TempDir(), "python3")
	// A "python" that never answers (and a grandchild holding its stdout).
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nsleep 5 &\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, Options{NoGit: true, Python: fake, ParseTimeout: 300e6})
	if err != nil {
		t.Fatalf("Open with a hung parser: %v", err)
	}
	if r := inspect(t, ix, Query{Path: "calc/core.py"}); r.GraphStatus != GraphNotIndexed {
		t.Errorf("graph_status %s", r.GraphStatus)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := OpenContext(ctx, copyFixture(t), Options{NoGit: true}); err == nil {
		t.Error("OpenContext with a cancelled context succeeded")
	}
}

func TestHugeNonIndexedFile(t *testing.T) {
	ix, dir := openFixture(t)
	line := strings.Repeat("x", 99) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "data.csv"), []byte(strings.Repeat(line, (maxReadBytes/100)+1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Path: "data.csv"})
	if r.GraphStatus != GraphNotIndexed || !strings.Contains(r.FileSummary, "only its head was read") || len(r.Snippet) > 200*1024 {
		t.Errorf("huge file: %s %q %d bytes", r.GraphStatus, r.FileSummary, len(r.Snippet))
	}
	var ce *Error
	if _, err := ix.InspectEntity(Query{Path: "data.csv", IncludeFullSource: true}); !errors.As(err, &ce) || ce.Code != ErrInvalidArgument {
		t.Errorf("full source of a huge file: %v", err)
	}
}

func TestSymlinkedRoot(t *testing.T) {
	dir := copyFixture(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	ix, err := Open(link, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("through a symlinked root: %s", r.GraphStatus)
	}
	for _, p := range []string{filepath.Join(link, "calc/core.py"), filepath.Join(dir, "calc/core.py")} {
		if sym, _, ok := ix.Enclosing(p, 22); !ok || sym != "calc.core.add" {
			t.Errorf("Enclosing(%s) = %s %v", p, sym, ok)
		}
	}
}

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
