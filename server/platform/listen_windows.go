// listen_windows.go: the private listener is a named pipe with a random
// name, created first (so no one can have squatted it), whose ACL admits
// only this user, and which refuses remote clients (go-winio sets
// FILE_PIPE_REJECT_REMOTE_CLIENTS). A user-given unix:path is an AF_UNIX
// socket, which Windows 10 and later have. See listen.go.

package platform

import (
	"context"
	"fmt"
	"net"
	"strings"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

func listenPrivate() (net.Listener, string, func(), error) {
	sd, err := userOnlySDDL()
	if err != nil {
		return nil, "", nil, err
	}
	path := `\\.\pipe\dapscope-` + randomName()
	ln, err := winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: sd})
	if err != nil {
		return nil, "", nil, err
	}
	return ln, PipePrefix + path, func() { _ = ln.Close() }, nil
}

// userOnlySDDL is a security descriptor that grants this process's user,
// and no one else, full access (protected: nothing inherited).
func userOnlySDDL() (string, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("reading this process's user: %w", err)
	}
	return "D:P(A;;GA;;;" + tu.User.Sid.String() + ")", nil
}

func listenNamed(addr string) (net.Listener, error) {
	if path, ok := strings.CutPrefix(addr, PipePrefix); ok {
		sd, err := userOnlySDDL()
		if err != nil {
			return nil, err
		}
		return winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: sd})
	}
	return net.Listen("unix", strings.TrimPrefix(addr, UnixPrefix))
}

func dialNamed(ctx context.Context, addr string) (net.Conn, error) {
	if path, ok := strings.CutPrefix(addr, PipePrefix); ok {
		return winio.DialPipeContext(ctx, path)
	}
	var d net.Dialer
	return d.DialContext(ctx, "unix", strings.TrimPrefix(addr, UnixPrefix))
}
