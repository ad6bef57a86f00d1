// Package golden compares test output with golden files, and rewrites them
// when the test binary runs with -update (the one registration of that
// flag in any test binary that imports it). Files are compared byte for
// byte; what varies from run to run is for the caller to mask first.
//
// golden.go: the flag, Check for plain files, CheckTxtar for one section of
// a txtar archive, and the line diff their failures show.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
)

var update = flag.Bool("update", false, "rewrite the golden files instead of comparing with them")

// Update reports whether the test binary runs with -update.
func Update() bool { return *update }

// Check compares got with the golden file at path; with -update it writes
// got there instead (creating the directory).
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (run go test -run '%s' -update): %v", t.Name(), err)
		return
	}
	if string(want) != string(got) {
		t.Errorf("%s differs (rerun with -update if intended, then review the diff):\n%s", path, Diff(string(want), string(got)))
	}
}

// CheckTxtar compares got with the section named section of the txtar
// archive at path; with -update it rewrites that section (adding it when
// missing) and leaves the rest of the archive as it is.
func CheckTxtar(t testing.TB, path, section string, got []byte) {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
		return
	}
	var want *txtar.File
	for i := range ar.Files {
		if ar.Files[i].Name == section {
			want = &ar.Files[i]
		}
	}
	if *update {
		if want == nil {
			ar.Files = append(ar.Files, txtar.File{Name: section})
			want = &ar.Files[len(ar.Files)-1]
		}
		want.Data = got
		if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want == nil {
		t.Fatalf("%s has no %s section (run go test -run '%s' -update)", path, section, t.Name())
		return
	}
	if string(want.Data) != string(got) {
		t.Errorf("%s: section %s differs (rerun with -update if intended, then review the diff):\n%s", path, section, Diff(string(want.Data), string(got)))
	}
}

// Diff shows the first lines (up to 12) where two texts differ.
func Diff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	shown := 0
	for i := 0; i < max(len(w), len(g)) && shown < 12; i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c || (i < len(w)) != (i < len(g)) {
			fmt.Fprintf(&b, "line %d:\n  want: %s\n  got:  %s\n", i+1, a, c)
			shown++
		}
	}
	return b.String()
}
