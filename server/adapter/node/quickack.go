// quickack.go: the inspector's TCP connection acknowledges every segment at
// once. A paused node writes each CDP response in two sends; with Linux's
// delayed ACK the second one waited ~40 ms for the ACK of the first, so
// every request on a paused program took ~45 ms (0.2 ms with quick ACKs,
// measured on Node 20). Linux resets quick-ACK mode after a while, so it is
// set again after each read.

package node

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

// quickAckClient is the HTTP client of the websocket handshake: its
// connections (which the websocket keeps) ACK at once; never proxied.
var quickAckClient = &http.Client{Transport: &http.Transport{
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
}}
