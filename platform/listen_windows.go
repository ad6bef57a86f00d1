// listen_windows.go: the private listener is a named pipe (see listen.go)
// with a random name and ONE instance: created first (FILE_FLAG_FIRST_
// PIPE_INSTANCE, so no one can have squatted the name), whose DACL admits
// only this user, and which refuses remote clients. It takes a single
// connection, which is all the editor's proxy needs; its I/O is
// overlapped, through go-winio. (go-winio's own listener keeps a
// placeholder instance that Wine lets clients connect to, where they then
// hang.) A user-given unix:path is an AF_UNIX socket, which Windows 10 and
// later have.

package platform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// pipeBuffer is the pipe's buffer size each way.
const pipeBuffer = 64 << 10

func listenPrivate() (net.Listener, string, func(), error) {
	path := `\\.\pipe\dapscope-` + randomName()
	ln, err := listenPipe(path)
	if err != nil {
		return nil, "", nil, err
	}
	return ln, PipePrefix + path, func() { _ = ln.Close() }, nil
}

func listenNamed(addr string) (net.Listener, error) {
	if path, ok := strings.CutPrefix(addr, PipePrefix); ok {
		return listenPipe(path)
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

// userOnlySDDL is a security descriptor that grants this process's user,
// and no one else, full access (protected: nothing inherited).
func userOnlySDDL() (string, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return "", fmt.Errorf("reading this process's user: %w", err)
	}
	return "D:P(A;;GA;;;" + tu.User.Sid.String() + ")", nil
}

// pipeListener is a named pipe's one instance, waiting for its client.
type pipeListener struct {
	path string

	mu        sync.Mutex
	handle    windows.Handle // the pipe, until it is accepted or closed
	cancel    windows.Handle // an event: Close sets it
	used      bool           // Accept was called
	accepting bool
	closed    bool
}

func listenPipe(path string) (*pipeListener, error) {
	sddl, err := userOnlySDDL()
	if err != nil {
		return nil, err
	}
	sd, err := windows.SecurityDescriptorFromString(sddl)
	if err != nil {
		return nil, err
	}
	sa := &windows.SecurityAttributes{Length: uint32(unsafe.Sizeof(windows.SecurityAttributes{})), SecurityDescriptor: sd}
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateNamedPipe(name,
		windows.PIPE_ACCESS_DUPLEX|windows.FILE_FLAG_OVERLAPPED|windows.FILE_FLAG_FIRST_PIPE_INSTANCE,
		windows.PIPE_TYPE_BYTE|windows.PIPE_READMODE_BYTE|windows.PIPE_WAIT|windows.PIPE_REJECT_REMOTE_CLIENTS,
		1, pipeBuffer, pipeBuffer, 0, sa)
	if err != nil {
		return nil, fmt.Errorf("creating pipe %s: %w", path, err)
	}
	ev, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		_ = windows.CloseHandle(h)
		return nil, err
	}
	return &pipeListener{path: path, handle: h, cancel: ev}, nil
}

var errListenerClosed = errors.New("pipe listener closed")

// Accept waits for the pipe's client; a second Accept fails.
func (l *pipeListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	switch {
	case l.closed:
		l.mu.Unlock()
		return nil, errListenerClosed
	case l.used:
		l.mu.Unlock()
		return nil, errors.New("the pipe takes one connection")
	}
	l.used, l.accepting = true, true
	h, cancel := l.handle, l.cancel
	l.mu.Unlock()
	f, err := connectPipe(h, cancel)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.accepting = false
	if err == nil {
		l.handle = 0 // the connection's now
	}
	if l.closed { // Close came while waiting
		if err == nil {
			_ = f.Close()
		}
		l.release()
		return nil, errListenerClosed
	}
	if err != nil {
		return nil, err
	}
	return &pipeConn{ReadWriteCloser: f, addr: pipeAddr(l.path)}, nil
}

// connectPipe waits for a client on h, or for cancel; the connected pipe
// then does overlapped I/O through go-winio.
func connectPipe(h, cancel windows.Handle) (io.ReadWriteCloser, error) {
	done, err := windows.CreateEvent(nil, 1, 0, nil)
	if err != nil {
		return nil, err
	}
	defer windows.CloseHandle(done)
	ov := &windows.Overlapped{HEvent: done}
	err = windows.ConnectNamedPipe(h, ov)
	switch {
	case err == nil, errors.Is(err, windows.ERROR_PIPE_CONNECTED):
	case errors.Is(err, windows.ERROR_IO_PENDING):
		ev, werr := windows.WaitForMultipleObjects([]windows.Handle{done, cancel}, false, windows.INFINITE)
		var n uint32
		if werr != nil || ev != windows.WAIT_OBJECT_0 {
			_ = windows.CancelIoEx(h, ov)
			_ = windows.GetOverlappedResult(h, ov, &n, true)
			return nil, errListenerClosed
		}
		if err := windows.GetOverlappedResult(h, ov, &n, false); err != nil {
			return nil, err
		}
	default:
		return nil, err
	}
	return winio.NewOpenFile(h)
}

// Close stops a pending Accept, and closes the pipe unless a client has
// it.
func (l *pipeListener) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	_ = windows.SetEvent(l.cancel)
	if !l.accepting {
		l.release()
	}
	return nil
}

// release closes the listener's handles (with l.mu held, no Accept
// waiting).
func (l *pipeListener) release() {
	if l.handle != 0 {
		_ = windows.CloseHandle(l.handle)
		l.handle = 0
	}
	if l.cancel != 0 {
		_ = windows.CloseHandle(l.cancel)
		l.cancel = 0
	}
}

func (l *pipeListener) Addr() net.Addr { return pipeAddr(l.path) }

// pipeAddr is a pipe's path as a net.Addr.
type pipeAddr string

func (a pipeAddr) Network() string { return "pipe" }
func (a pipeAddr) String() string  { return string(a) }

// pipeConn is the server's end of a connected pipe.
type pipeConn struct {
	io.ReadWriteCloser
	addr pipeAddr
}

func (c *pipeConn) LocalAddr() net.Addr  { return c.addr }
func (c *pipeConn) RemoteAddr() net.Addr { return c.addr }

// Deadlines go to go-winio's file, which has them.
func (c *pipeConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}

func (c *pipeConn) SetReadDeadline(t time.Time) error {
	if d, ok := c.ReadWriteCloser.(interface{ SetReadDeadline(time.Time) error }); ok {
		return d.SetReadDeadline(t)
	}
	return errors.ErrUnsupported
}

func (c *pipeConn) SetWriteDeadline(t time.Time) error {
	if d, ok := c.ReadWriteCloser.(interface{ SetWriteDeadline(time.Time) error }); ok {
		return d.SetWriteDeadline(t)
	}
	return errors.ErrUnsupported
}
