//go:build unix

// listen_unix.go: the private listener is a unix socket in a new
// directory only this user may enter (0700): no other user can connect,
// whatever the socket's own mode. See listen.go.

package platform

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// maxSocketPath is the longest socket path every Unix takes (macOS's
// sun_path holds 104 bytes with its NUL).
const maxSocketPath = 103

func listenPrivate() (net.Listener, string, func(), error) {
	var errs []string
	// macOS's $TMPDIR is long; /tmp is the fallback when it is too long.
	for _, base := range []string{os.TempDir(), "/tmp"} {
		ln, addr, cleanup, err := listenIn(base)
		if err == nil {
			return ln, addr, cleanup, nil
		}
		errs = append(errs, err.Error())
	}
	return nil, "", nil, fmt.Errorf("no private socket: %s", strings.Join(errs, "; "))
}

func listenIn(base string) (net.Listener, string, func(), error) {
	dir, err := os.MkdirTemp(base, "dapscope-")
	if err != nil {
		return nil, "", nil, err
	}
	path := filepath.Join(dir, "dap.sock")
	fail := func(err error) (net.Listener, string, func(), error) {
		_ = os.RemoveAll(dir)
		return nil, "", nil, err
	}
	if len(path) > maxSocketPath {
		return fail(fmt.Errorf("socket path %s is longer than %d bytes", path, maxSocketPath))
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fail(err)
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fail(err)
	}
	return ln, UnixPrefix + path, func() { _ = ln.Close(); _ = os.RemoveAll(dir) }, nil
}

func listenNamed(addr string) (net.Listener, error) {
	path, ok := strings.CutPrefix(addr, UnixPrefix)
	if !ok {
		return nil, fmt.Errorf("%q: named pipes are Windows only; give unix:/path", addr)
	}
	return net.Listen("unix", path)
}

func dialNamed(ctx context.Context, addr string) (net.Conn, error) {
	path, ok := strings.CutPrefix(addr, UnixPrefix)
	if !ok {
		return nil, fmt.Errorf("%q: named pipes are Windows only", addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}
