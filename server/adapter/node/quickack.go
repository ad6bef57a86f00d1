// quickack.go: the inspector connection acknowledges every segment at once.
// Node's inspector socket has no TCP_NODELAY and writes a websocket frame
// in more than one send, so the second part of every reply waits for the
// ACK of the first, which Linux delays by 40 ms: ~47 ms per evaluate, for
// any CDP client (measured in server/session/bench_node_test.go). Turning
// on TCP_QUICKACK after each read (Linux resets it on its own) makes our
// side ACK at once: ~1 ms. Nothing changes on node's side.

package node

import (
	"context"
	"net"
	"net/http"
	"syscall"
)

// quickAckConn is a TCP connection that re-arms TCP_QUICKACK after each
// read.
type quickAckConn struct {
	*net.TCPConn
	raw syscall.RawConn
}

func (c *quickAckConn) Read(p []byte) (int, error) {
	n, err := c.TCPConn.Read(p)
	quickAck(c.raw)
	return n, err
}

// quickAckClient is the HTTP client the websocket handshake runs on; the
// websocket keeps its connection.
func quickAckClient() *http.Client {
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
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
		return &quickAckConn{TCPConn: tc, raw: raw}, nil
	}
	return &http.Client{Transport: &http.Transport{DialContext: dial, DisableKeepAlives: true}}
}
