// debugpy_wake_test.go: the embedded wake patch is ASCII Python that
// compiles and behaves outside a debugger; WakeStatus reads the combined
// first-stop result. (Against real debugpy: server/session/wake_test.go.)

package adapter

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/testpython"
)

func TestWakeExpressionsAreSafePython(t *testing.T) {
	for name, src := range map[string]string{"install": wakeInstallPy, "uninstall": wakeUninstallPy} {
		for i := 0; i < len(src); i++ {
			if src[i] >= 0x80 {
				t.Fatalf("%s: non-ASCII byte at %d (the Go-quoted literal must be valid Python)", name, i)
			}
		}
		if strings.Contains(src, "@LINE@") {
			t.Fatalf("%s contains @LINE@, which pydevd rewrites in expressions", name)
		}
	}
	// The expressions are single-line Python that compiles, evaluated
	// outside a debugger: the install skips (no pydevd), the uninstall
	// finds nothing, the quiet form yields None.
	cmd := exec.Command(testpython.Path(), "-c", "import sys\nfor e in sys.stdin.read().split('\\0'):\n    print(repr(eval(e)))")
	cmd.Stdin = strings.NewReader(WakeInstallExpr + "\x00" + WakeUninstallExpr + "\x00" + WakeUninstallQuietExpr)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("python: %v\n%s", err, out)
	}
	want := "'skipped: pydevd is not loaded'\n'not installed'\nNone\n"
	if string(out) != want {
		t.Fatalf("outside a debugger:\n%s\nwant:\n%s", out, want)
	}
	for _, tc := range []struct{ in, want string }{
		{`'nodelay: ok; wake: installed v1'`, "installed v1"},
		{`"nodelay: ok; wake: skipped: it's odd"`, "skipped: it's odd"},
		{`'ok'`, "unexpected result: ok"},
	} {
		if got := WakeStatus(tc.in); got != tc.want {
			t.Errorf("WakeStatus(%s) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
