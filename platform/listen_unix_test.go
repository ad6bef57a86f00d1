//go:build unix

// listen_unix_test.go: the private socket lives in a directory only this
// user may enter, which goes with cleanup; a too-long temporary directory
// (macOS's $TMPDIR can be) falls back to /tmp.

package platform

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func checkPrivate(t *testing.T, _ net.Listener, addr string) {
	t.Helper()
	path, ok := strings.CutPrefix(addr, UnixPrefix)
	if !ok {
		t.Fatalf("address %q, want unix:/path", addr)
	}
	st, err := os.Stat(filepath.Dir(path))
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v, want 0700", st, err)
	}
}

func TestListenPrivateLongTempDir(t *testing.T) {
	long := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	if err := os.MkdirAll(long, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TMPDIR", long)
	ln, addr, cleanup, err := ListenPrivate()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	if !strings.HasPrefix(addr, UnixPrefix+"/tmp/") {
		t.Errorf("address %q, want the /tmp fallback", addr)
	}
	roundTrip(t, ln, addr)
	dir := filepath.Dir(strings.TrimPrefix(addr, UnixPrefix))
	cleanup()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("cleanup left %s: %v", dir, err)
	}
}
