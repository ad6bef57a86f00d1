//go:build unix

package session

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

// A breakpoint file that is a FIFO, or a link to /dev/zero, is refused at
// once (issue #37.3): counting its lines blocked for ever, or never ended.
func TestBreakpointFileNotRegular(t *testing.T) {
	ws := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(ws, "fifo.py"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(ws, "zero.py")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"fifo.py", "zero.py"} {
		_, err := validateBreakpoints(ws, []Breakpoint{{File: name, Line: 1}}, "breakpoints")
		if !errcode.Is(err, errcode.InvalidArgument) && !errcode.Is(err, errcode.InvalidPath) {
			t.Errorf("%s: %v, want a refusal", name, err)
		}
	}
}
