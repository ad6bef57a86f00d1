// code_test.go: the shared helpers of the code-context tests: the fixture
// repository testdata/code (Python + Go + Markdown), copied to a temp dir
// per test so .dapscope/ is never written into the source tree.

package code

import (
	"os"
	"path/filepath"
	"strings"
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
