// resolve_test.go: how queries resolve — paths and lines, symbol forms,
// errors, files outside the graph.

package code

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
)

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
	var ce *errcode.Error
	if !errors.As(err, &ce) || ce.Code != errcode.Ambiguous || len(ce.Matches) != 2 {
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
		code    errcode.Code
		matches string
	}{
		{Query{Symbol: "calc.core.ad"}, errcode.NotFound, "calc.core.add"},
		{Query{Symbol: "Calculater.push"}, errcode.NotFound, "calc.core.Calculator.push"},
		{Query{Path: "calc/cor.py"}, errcode.NotFound, "calc/core.py"},
		{Query{Path: "/etc/passwd"}, errcode.InvalidPath, ""},
		{Query{Path: "calc/../../x.py"}, errcode.InvalidPath, ""},
		{Query{Path: "../repo/calc/core.py"}, errcode.InvalidPath, ""},
		{Query{}, errcode.InvalidArgument, ""},
		{Query{Path: "calc/core.py", Line: 100000}, errcode.InvalidArgument, ""},
		{Query{Path: "calc/core.py", Line: -1}, errcode.InvalidArgument, ""},
	} {
		_, err := ix.InspectEntity(c.q)
		var ce *errcode.Error
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

// Stop locations as each system's debuggers write them, checked on any
// system: Windows drive letters (any case), either separator and shares;
// a case difference on macOS.
func TestRelPathFlavours(t *testing.T) {
	win := platform.Flavour{Windows: true, FoldCase: true}
	mac := platform.Flavour{FoldCase: true}
	for _, tc := range []struct {
		f         platform.Flavour
		root, abs string
		want      string
		ok        bool
	}{
		{win, `C:\repo`, `C:\repo\pkg\mod.py`, "pkg/mod.py", true},
		{win, `C:\repo`, `c:/repo/pkg/mod.py`, "pkg/mod.py", true},
		{win, `C:\Repo`, `C:\REPO\Mod.py`, "Mod.py", true},
		{win, `C:\repo`, `C:\repo2\mod.py`, "", false},
		{win, `C:\repo`, `D:\repo\mod.py`, "", false},
		{win, `C:\repo`, `C:\repo`, "", false},
		{win, `\\srv\share\repo`, `\\srv\share\repo\a.py`, "a.py", true},
		{win, `C:\repo`, `pkg\mod.py`, "pkg/mod.py", true}, // already relative
		{mac, "/Users/me/repo", "/Users/me/Repo/a.py", "a.py", true},
		{platform.Unix, "/home/me/repo", "/home/me/Repo/a.py", "", false},
	} {
		ix := &Index{root: tc.root, alias: tc.root}
		got, ok := ix.relPathIn(tc.f, tc.abs)
		if got != tc.want || ok != tc.ok {
			t.Errorf("RelPath(%q) under %q = %q %v, want %q %v", tc.abs, tc.root, got, ok, tc.want, tc.ok)
		}
	}
}
