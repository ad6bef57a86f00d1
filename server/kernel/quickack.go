// quickack.go: the websocket's TCP connection to a Jupyter Server
// acknowledges every segment at once. The server (tornado) writes each
// relayed kernel message on its own, without TCP_NODELAY: with Linux's
// delayed ACK every request waited ~40 ms for the ACK of an earlier write.
// Linux leaves quick-ACK mode after a while, so it is set after each read
// (as the Node adapter does for V8's inspector).

package kernel

import (
	"context"
	"net"
	"net/http"
	"syscall"
	"time"
)

// quickAckConn sets TCP_QUICKACK after every read.
type quickAckConn struct {
	net.Conn
	raw syscall.RawConn
}

func (q *quickAckConn) Read(b []byte) (int, error) {
	n, err := q.Conn.Read(b)
	quickAck(q.raw)
	return n, err
}

// quickAckTransport dials connections that ACK at once; the websocket
// keeps the connection of its handshake. Never proxied: the server is
// reached directly.
func quickAckTransport() *http.Transport {
	return &http.Transport{
		Proxy: nil,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			d := net.Dialer{Timeout: 10 * time.Second}
			c, err := d.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc, ok := c.(*net.TCPConn)
			if !ok {
				return c, nil
			}
			raw, err := tc.SyscallConn()
			if err != nil {
				return c, nil
			}
			quickAck(raw)
			return &quickAckConn{Conn: c, raw: raw}, nil
		},
	}
}
