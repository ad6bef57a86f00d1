// golden_test.go: Check and CheckTxtar against files in a temporary
// directory — equal passes, a difference fails with the differing line,
// a missing file or section fails, and -update rewrites only what it names.

package golden

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper()                           {}
func (r *recorder) Fatal(args ...any)                 { r.failures = append(r.failures, fmt.Sprint(args...)) }
func (r *recorder) Fatalf(format string, args ...any) { r.Fatal(fmt.Sprintf(format, args...)) }
func (r *recorder) Errorf(format string, args ...any) { r.Fatal(fmt.Sprintf(format, args...)) }

func withUpdate(t *testing.T, on bool) {
	old := *update
	*update = on
	t.Cleanup(func() { *update = old })
}

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "a.txt")

	r := &recorder{TB: t}
	Check(r, path, []byte("x\n"))
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], "-update") {
		t.Fatalf("missing file: %q", r.failures)
	}

	withUpdate(t, true)
	r = &recorder{TB: t}
	Check(r, path, []byte("one\ntwo\n"))
	if b, err := os.ReadFile(path); err != nil || string(b) != "one\ntwo\n" || len(r.failures) != 0 {
		t.Fatalf("update wrote %q, %v; failures %q", b, err, r.failures)
	}

	withUpdate(t, false)
	r = &recorder{TB: t}
	Check(r, path, []byte("one\ntwo\n"))
	if len(r.failures) != 0 {
		t.Fatalf("equal: %q", r.failures)
	}
	Check(r, path, []byte("one\nthree\n"))
	if len(r.failures) != 1 || !strings.Contains(r.failures[0], "line 2:\n  want: two\n  got:  three") {
		t.Fatalf("differing: %q", r.failures)
	}
}

func TestCheckTxtar(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.txtar")
	const archive = "comment\n-- query --\n{}\n-- want --\nold\n"
	if err := os.WriteFile(path, []byte(archive), 0o644); err != nil {
		t.Fatal(err)
	}
	r := &recorder{TB: t}
	CheckTxtar(r, path, "want", []byte("old\n"))
	CheckTxtar(r, path, "nope", []byte("old\n"))
	CheckTxtar(r, path, "want", []byte("new\n"))
	if len(r.failures) != 2 || !strings.Contains(r.failures[0], "no nope section") || !strings.Contains(r.failures[1], "got:  new") {
		t.Fatalf("failures %q", r.failures)
	}

	withUpdate(t, true)
	CheckTxtar(r, path, "want", []byte("new\n"))
	CheckTxtar(r, path, "extra", []byte("e\n"))
	if b, _ := os.ReadFile(path); string(b) != "comment\n-- query --\n{}\n-- want --\nnew\n-- extra --\ne\n" {
		t.Fatalf("updated archive:\n%s", b)
	}
}

func TestDiff(t *testing.T) {
	if d := Diff("a\nb", "a\nb"); d != "" {
		t.Fatalf("equal texts: %q", d)
	}
	if d := Diff("a", "a\nb"); !strings.Contains(d, "line 2:\n  want: \n  got:  b") {
		t.Fatalf("longer: %q", d)
	}
}
