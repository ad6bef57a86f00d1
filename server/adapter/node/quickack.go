// quickack.go: the inspector's TCP connection acknowledges every segment at
// once. A paused node writes each CDP response in two sends; with Linux's
// delayed ACK the second one waited ~40 ms for the ACK of the first, so
// every request on a paused program took ~45 ms (0.2 ms with quick ACKs,
// measured on Node 20). Linux resets quick-ACK mode after a while, so it is
// set again after each read.

package node

import (
	"net"
	"syscall"
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

// quickAckWrap makes a TCP connection of the websocket handshake (which
// the websocket keeps) ACK at once after every read (hops.go dials it).
func quickAckWrap(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	quickAck(raw)
	return &quickAckConn{Conn: c, raw: raw}
}
