// quickack.go: the inspector connection acknowledges every segment at once.
// Node's inspector socket has no TCP_NODELAY, and an answer often comes as
// two sends: every evaluation compiles a script, so node writes a
// Debugger.scriptParsed event and then the reply (strace: write 571 bytes,
// write 78 bytes); a step writes resumed, then paused. Nagle holds the
// second send until the first is ACKed, and Linux delays that ACK by 40 ms:
// ~45 ms per evaluate for any CDP client with the Debugger domain on
// (server/session/bench_node_test.go, mode=cdp). Turning on TCP_QUICKACK
// after each read (Linux leaves quickack mode on its own) makes our side ACK
// at once: ~0.5 ms. Nothing changes on node's side.

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
