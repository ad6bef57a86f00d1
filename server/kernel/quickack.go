// quickack.go: the websocket's TCP connection to a Jupyter Server
// acknowledges every segment at once. The server (tornado) writes each
// relayed kernel message on its own, without TCP_NODELAY: with Linux's
// delayed ACK every request waited ~40 ms for the ACK of an earlier write.
// (platform.QuickAck, as the Node adapter's connection to V8's inspector).

package kernel

import (
	"context"
	"net"
	"net/http"
	"time"

	"github.com/dapscope/dapscope/platform"
)

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
			return platform.QuickAck(c), nil
		},
	}
}
