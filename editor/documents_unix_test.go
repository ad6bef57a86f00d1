//go:build unix

package editor

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// A hover's document that is not open and is a FIFO or /dev/zero on disk
// is not read (issue #37.3).
func TestDocumentNotRegular(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "app.py")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.py")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	d := newDocuments()
	for _, p := range []string{fifo, zero} {
		if _, ok := d.get(protocol.DocumentURI(uri.File(p))); ok {
			t.Errorf("get(%s) read it", p)
		}
	}
}
