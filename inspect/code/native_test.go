// native_test.go: the code graph of Rust, C and C++ (parse_native.go,
// link_native.go) on dapscope's native test programs (testdata/native):
// the function at a line, its kind and file, and its callers.

package code

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func openNative(t *testing.T) (*Index, string) {
	t.Helper()
	src, err := filepath.Abs("../../testdata/native")
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "repo")
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	// a second C++ file calling into the first, and a Rust module with a test
	extra := map[string]string{
		"report.cpp": "// report prints an account.\nvoid report(const Account &a) {\n\tdouble b = a.get_balance();\n\tprint_all(b);\n}\n",
		"util.cpp":   "#include <cstdio>\n/* print_all prints b\n   twice. */\nvoid print_all(double b) {\n\tprintf(\"{%f}\\n\", b); // } not a brace\n}\n",
		"rust/src/stats.rs": "/// Mean of xs.\npub fn mean(xs: &[f64]) -> f64 {\n    let s: f64 = xs.iter().sum(); let c = '}';\n    s / xs.len() as f64\n}\n\n" +
			"#[cfg(test)]\nmod tests {\n    #[test]\n    fn it_means() {\n        assert_eq!(super::mean(&[1.0, 3.0]), 2.0);\n    }\n}\n",
	}
	for name, body := range extra {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	return ix, dir
}

func lineOf(t *testing.T, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, marker) {
			return i + 1
		}
	}
	t.Fatalf("no %q in %s", marker, path)
	return 0
}

func TestNativeEnclosing(t *testing.T) {
	ix, dir := openNative(t)
	for _, tc := range []struct {
		file, marker, symbol, caller string
	}{
		{"arrays.c", "getter_calls++", "arrays.point_norm", "arrays.main"},
		{"arrays.c", "tick line", "arrays.tick", "arrays.main"},
		{"arrays.c", "break here", "arrays.main", ""},
		{"containers.cpp", "return balance", "containers.Account.get_balance", "report.report"},
		{"containers.cpp", "return o << a.owner", "containers.operator<<", ""},
		{"util.cpp", "printf", "util.print_all", "report.report"},
		{"rust/src/main.rs", "DISPLAY_CALLS.fetch_add", "rust/src/main.Quote.fmt", ""},
		{"rust/src/main.rs", "break here", "rust/src/main.main", ""},
		{"rust/src/stats.rs", "xs.len()", "rust/src/stats.mean", "rust/src/stats.it_means"},
	} {
		sym, callers, ok := ix.Enclosing(filepath.Join(dir, tc.file), lineOf(t, filepath.Join(dir, tc.file), tc.marker))
		if !ok || sym != tc.symbol {
			t.Errorf("%s %q: %q, %v; want %q", tc.file, tc.marker, sym, ok, tc.symbol)
			continue
		}
		var names []string
		for _, c := range callers {
			names = append(names, c.Symbol)
		}
		if tc.caller != "" && !strings.Contains(strings.Join(names, " "), tc.caller) {
			t.Errorf("%s: callers %v, want %s", tc.symbol, names, tc.caller)
		}
	}
	r := inspect(t, ix, Query{Symbol: "rust/src/stats.mean"})
	if r.Kind != "function" || r.Path != "rust/src/stats.rs" || r.Enrichment.Summary == "" || !strings.Contains(r.Enrichment.Summary, "Mean of xs") {
		t.Errorf("mean: kind %q path %q summary %q", r.Kind, r.Path, r.Enrichment.Summary)
	}
	r = inspect(t, ix, Query{Symbol: "rust/src/stats.it_means"})
	if r.Kind != "test" {
		t.Errorf("it_means: kind %q, want test", r.Kind)
	}
	r = inspect(t, ix, Query{Symbol: "util.print_all"})
	if !strings.Contains(r.Enrichment.Summary, "print_all prints b") || r.PrimarySpan != [2]int{4, 6} {
		t.Errorf("print_all: summary %q span %v", r.Enrichment.Summary, r.PrimarySpan)
	}
	r = inspect(t, ix, Query{Path: "containers.cpp"})
	if !strings.Contains(r.FileSummary, "C++ file") || !strings.Contains(r.FileSummary, "1 struct") {
		t.Errorf("containers.cpp: %q", r.FileSummary)
	}
}
