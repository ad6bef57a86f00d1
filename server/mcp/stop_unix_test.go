//go:build unix

package mcp

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A frame whose file is a FIFO or /dev/zero shows no source lines, at
// once (issue #37.3: reading them blocked, or never ended).
func TestSourceLinesNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "app.py")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.py")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero, "/dev/zero"} {
		if got := sourceLines(p, 1, 3); got != nil {
			t.Errorf("sourceLines(%s) = %v", p, got)
		}
	}
}
