// quickack.go: QuickAck, a TCP connection that acknowledges every segment
// at once. A peer that writes one answer in two sends on a socket without
// TCP_NODELAY (a paused node's inspector: an event, then the reply; a
// Jupyter Server relaying kernel messages one write each) makes every
// request wait for Linux's delayed ACK of the first send, ~40 ms. Linux
// leaves quick-ACK mode after a while, so it is set again after each read.
// Elsewhere there is no such switch and the connection is returned as it
// is (quickack_linux.go, quickack_other.go).

package platform

import (
	"net"
	"syscall"
)

// QuickAck makes c, a TCP connection, ACK at once after every read; other
// connections are returned unchanged.
func QuickAck(c net.Conn) net.Conn {
	tc, ok := c.(*net.TCPConn)
	if !ok || !quickAckAvailable {
		return c
	}
	raw, err := tc.SyscallConn()
	if err != nil {
		return c
	}
	quickAck(raw)
	return &quickAckConn{Conn: c, raw: raw}
}

type quickAckConn struct {
	net.Conn
	raw syscall.RawConn
}

func (q *quickAckConn) Read(b []byte) (int, error) {
	n, err := q.Conn.Read(b)
	quickAck(q.raw)
	return n, err
}
