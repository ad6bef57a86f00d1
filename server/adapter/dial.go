// dial.go: a DAP connection to an adapter that is already running, such as
// the one `debugpy.listen()` starts inside a debuggee, or a bridged DAP
// stream. There is no child process to manage; Close just closes the
// connection.

package adapter

import (
	"context"
	"fmt"
	"io"
	"net"
	"time"
)

// Over wraps a DAP stream that is no process of ours (a session of the
// editor's own debugger, bridged through the editor channel): like a dialed
// adapter, Close just closes the stream.
func Over(kind Kind, conn io.ReadWriteCloser) *Adapter {
	return &Adapter{Kind: kind, conn: conn, waitDone: make(chan struct{}), dialed: true}
}

// Dial connects to an adapter listening on addr.
func Dial(ctx context.Context, kind Kind, addr string) (*Adapter, error) {
	d := net.Dialer{Timeout: 10 * time.Second}
	c, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("connecting to the debug adapter at %s: %w", addr, err)
	}
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetNoDelay(true)
	}
	done := make(chan struct{})
	return &Adapter{Kind: kind, conn: c, waitDone: done, dialed: true}, nil
}
