// Test helpers: goleak over the package's tests, a logger writing to the
// test log, hovering a word of a line, and process checks.

package editor_test

import (
	"log/slog"
	"os"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/platform"
)

// TestMain checks for leaked goroutines; go-winio's one I/O completion
// goroutine (Windows: the editor's named pipe) lives as long as the process.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/Microsoft/go-winio.ioCompletionProcessor"))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(p))
	return len(p), nil
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// hoverAt hovers word in line (0-based lineNo of file), one character in.
func hoverAt(t *testing.T, ed *editortest.Editor, file, line string, lineNo int, word string) *protocol.Hover {
	t.Helper()
	return ed.Hover(file, lineNo, strings.Index(line, word)+1)
}

// lineWith is the 0-based index of the first line of src with prefix.
func lineWith(t *testing.T, src []byte, prefix string) int {
	t.Helper()
	for i, l := range strings.Split(string(src), "\n") {
		if strings.HasPrefix(l, prefix) {
			return i
		}
	}
	t.Fatalf("no line starts with %q", prefix)
	return -1
}

func processGone(pid int) bool {
	_, running := platform.ProcessStart(pid)
	return !running
}

// children lists live (non-zombie) processes whose parent is this process.
func children() []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		st := string(b)
		i := strings.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(st[i+1:])
		if len(f) > 1 && f[1] == self && f[0] != "Z" {
			out = append(out, d.Name()+" "+st[:i+1])
		}
	}
	return out
}
