// listen.go: the editor's private connection to its proxy session. A
// listener only this user can reach (listen_unix.go: a unix socket in a
// new 0700 directory; listen_windows.go: a named pipe whose ACL admits
// this user alone and that refuses remote clients), its address as the
// extension gives it to VS Code ("unix:/path", `pipe:\\.\pipe\name`), and
// dialing one (tests, tools). A user-given --listen address may also be a
// loopback host:port.

package platform

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"strings"
	"time"
)

// Address prefixes of the private transports.
const (
	UnixPrefix = "unix:" // a unix socket's path follows
	PipePrefix = "pipe:" // a Windows named pipe's path follows
)

// ListenPrivate listens where only this user can connect. addr is what a
// client dials; cleanup closes the listener and removes what it made.
func ListenPrivate() (ln net.Listener, addr string, cleanup func(), err error) {
	return listenPrivate()
}

// Listen listens on a user-given address: unix:/path, pipe:\\.\pipe\name
// (Windows), or a loopback host:port. Any other host is refused.
func Listen(addr string) (net.Listener, error) {
	if strings.HasPrefix(addr, UnixPrefix) || strings.HasPrefix(addr, PipePrefix) {
		return listenNamed(addr)
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("%q: %v", addr, err)
	}
	ip := net.ParseIP(host)
	if host != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("%q: only loopback addresses are allowed", addr)
	}
	return net.Listen("tcp", addr)
}

// Dial connects to an address of ListenPrivate or Listen.
func Dial(ctx context.Context, addr string) (net.Conn, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if strings.HasPrefix(addr, UnixPrefix) || strings.HasPrefix(addr, PipePrefix) {
		return dialNamed(ctx, addr)
	}
	var d net.Dialer
	return d.DialContext(ctx, "tcp", addr)
}

// randomName is a name no one can guess: 16 random bytes in hex.
func randomName() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return hex.EncodeToString(b)
}
