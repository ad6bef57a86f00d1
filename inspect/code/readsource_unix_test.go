//go:build unix

package code

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A file that is a FIFO or a link to /dev/zero is not read (issue #37.3:
// Stat says size 0, and the read blocked or never ended); a large file is
// cut by what was read.
func TestReadSourceNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "m.py")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "z.py")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, zero} {
		if _, _, err := readSource(p); err == nil {
			t.Errorf("readSource(%s) read it", p)
		}
	}
	if readGoModule(fifo) != "" {
		t.Error("readGoModule read a FIFO")
	}
	big := filepath.Join(dir, "big.py")
	line := []byte("x = 1\n")
	b := make([]byte, 0, maxReadBytes+len(line))
	for len(b) <= maxReadBytes {
		b = append(b, line...)
	}
	if err := os.WriteFile(big, b, 0o644); err != nil {
		t.Fatal(err)
	}
	src, truncated, err := readSource(big)
	if err != nil || !truncated || len(src) > headBytes || src[len(src)-1] != '\n' {
		t.Fatalf("big: %d bytes, truncated %v, %v", len(src), truncated, err)
	}
}
