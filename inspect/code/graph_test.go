// graph_test.go: the code graph — call resolution, neighbours bounded,
// the enclosing symbol of a line, Python module names.

package code

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

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

// writeRepo writes files (slash paths -> content) into a new temporary
// repository and returns its root.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "repo")
	for p, src := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// refStrings renders refs as "symbol (path)", sorted.
func refStrings(refs []Ref) []string {
	out := []string{}
	for _, r := range refs {
		out = append(out, r.Symbol+" ("+r.Path+")")
	}
	slices.Sort(out)
	return out
}

// TestSameNamedScripts is issue 13.7's "total is isolated while main()
// calls it twice": two scripts outside any package share the module name
// report (and helpers), as programs in sibling folders do. A name used in a
// file is that file's definition, and `import helpers` from a script is the
// helpers.py beside it (the script's folder is sys.path[0]); before, both
// files' calls went to one of the two definitions and the other was
// reported isolated.
func TestSameNamedScripts(t *testing.T) {
	report := `from helpers import fmt


def total(xs):
    return sum(xs)


def main():
    a = total([1, 2])
    b = total([3])
    print(fmt(a), fmt(b))


if __name__ == "__main__":
    main()
`
	dir := writeRepo(t, map[string]string{
		"sales/report.py":   report,
		"sales/helpers.py":  "def fmt(x):\n    return f\"{x:.2f}\"\n",
		"backup/report.py":  report,
		"backup/helpers.py": "def fmt(x):\n    return str(x)\n",
	})
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, folder := range []string{"sales", "backup"} {
		for sym, want := range map[string][]string{
			"report.total": {"report.main (" + folder + "/report.py)"},
			"report.main":  {"report (" + folder + "/report.py)"},
			"helpers.fmt":  {"report.main (" + folder + "/report.py)"},
		} {
			file := folder + "/" + strings.SplitN(sym, ".", 2)[0] + ".py"
			r := inspect(t, ix, Query{Symbol: sym, Path: file, MaxNeighbors: 10})
			if got := refStrings(r.IncomingCalls); !slices.Equal(got, want) || r.GraphStatus != GraphConnected {
				t.Errorf("%s in %s: %s, incoming %v, want %v", sym, file, r.GraphStatus, got, want)
			}
		}
		r := inspect(t, ix, Query{Symbol: "report.main", Path: folder + "/report.py", MaxNeighbors: 10})
		want := []string{"helpers.fmt (" + folder + "/helpers.py)", "report.total (" + folder + "/report.py)"}
		if got := refStrings(r.OutgoingCalls); !slices.Equal(got, want) {
			t.Errorf("report.main in %s: outgoing %v, want %v", folder, got, want)
		}
	}
}
