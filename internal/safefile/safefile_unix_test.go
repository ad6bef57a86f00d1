//go:build unix

package safefile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

// What is not a regular file is refused at once: a FIFO without a writer
// (os.ReadFile blocks for ever), /dev/zero (Stat says size 0, a read never
// ends), and a link to it.
func TestReadRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "map.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "zero.js.map")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", link} {
		if _, err := Read(p, 1<<20); !errcode.Is(err, errcode.InvalidPath) {
			t.Errorf("Read(%s) = %v, want INVALID_PATH", p, err)
		}
		if _, err := CountLines(p, 1<<20); !errcode.Is(err, errcode.InvalidPath) {
			t.Errorf("CountLines(%s) = %v, want INVALID_PATH", p, err)
		}
	}
}
