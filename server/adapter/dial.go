// dial.go: a DAP connection to an adapter that is already running, such as
// the one `debugpy.listen()` starts inside a debuggee. There is no child
// process to manage; Close just closes the connection.

package adapter

import (
	"context"
	"fmt"
	"net"
	"time"
)

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
