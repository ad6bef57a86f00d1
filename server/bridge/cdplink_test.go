// cdplink_test.go: the CDP link of a bridged session never follows a
// websocket redirect off loopback (issue 28.6: js-debug's proxy link
// followed a 302 and sent the proxy's secret path there). The resolver and
// the dialer are injected and record what they were asked for; nothing is
// dialed outside 127.0.0.0/8, and the error never shows the secret path.

package bridge

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	nodeadapter "github.com/dapscope/dapscope/server/adapter/node"
)

func TestCDPLinkRefusesRedirectOffLoopback(t *testing.T) {
	const secret = "/7c1d-proxy-secret"
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ws://evil.example:9229"+secret, http.StatusFound)
	}))
	defer front.Close()
	var mu sync.Mutex
	var dialed, resolved []string
	hops := nodeadapter.Hops{
		Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			mu.Lock()
			resolved = append(resolved, host)
			mu.Unlock()
			return []netip.Addr{netip.MustParseAddr("203.0.113.7")}, nil
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			mu.Lock()
			dialed = append(dialed, addr)
			mu.Unlock()
			if !strings.HasPrefix(addr, "127.") {
				return nil, fmt.Errorf("test dialer: never dials %s", addr)
			}
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}
	port := front.Listener.Addr().(*net.TCPAddr).Port
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := dialCDPLink(ctx, CDPAddress{Host: "127.0.0.1", Port: port, Path: secret}, hops)
	if err == nil {
		l.close()
		t.Fatal("the link followed a redirect to evil.example")
	}
	if !strings.Contains(err.Error(), "redirect refused") || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %q: want the refusal, never the secret path", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(dialed) != 1 || !strings.HasPrefix(dialed[0], "127.0.0.1:") || len(resolved) != 0 {
		t.Errorf("dialed %v, resolved %v: want the loopback front only", dialed, resolved)
	}
}
