// hops_test.go: an attach checks every hop against the loopback rule
// (issue 28.6): an HTTP redirect of /json/list, a webSocketDebuggerUrl and
// a websocket redirect that lead off loopback are refused, and so is a
// name that resolves off loopback (DNS rebinding); redirects that stay on
// loopback are followed to the real inspector; a host the attach allows is
// let through. The resolver and the dialer are injected and record what
// they were asked for; this test never dials outside 127.0.0.0/8.

package node

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

	"github.com/dapscope/dapscope/server/dap/daptest"
)

// recorder is a Hops whose resolver answers from a table and whose dialer
// records every address and dials loopback ones only.
type recorder struct {
	mu     sync.Mutex
	dialed []string
	names  map[string]string
}

func (r *recorder) hops() Hops {
	return Hops{
		Resolve: func(_ context.Context, host string) ([]netip.Addr, error) {
			a, ok := r.names[strings.ToLower(host)]
			if !ok {
				return nil, fmt.Errorf("test resolver: no %s", host)
			}
			return []netip.Addr{netip.MustParseAddr(a)}, nil
		},
		Dial: func(ctx context.Context, network, addr string) (net.Conn, error) {
			r.mu.Lock()
			r.dialed = append(r.dialed, addr)
			r.mu.Unlock()
			host, _, _ := net.SplitHostPort(addr)
			if ip, err := netip.ParseAddr(host); err != nil || !netip.MustParsePrefix("127.0.0.0/8").Contains(ip) {
				return nil, fmt.Errorf("test dialer: never dials %s", addr)
			}
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}
}

func (r *recorder) offLoopback() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, a := range r.dialed {
		if !strings.HasPrefix(a, "127.") {
			out = append(out, a)
		}
	}
	return out
}

// attachVia attaches through a fake inspector front (handler) and returns
// the attach's response.
func attachVia(t *testing.T, r *recorder, handler http.HandlerFunc, extra map[string]any) daptest.Msg {
	t.Helper()
	front := httptest.NewServer(handler)
	t.Cleanup(front.Close)
	port := front.Listener.Addr().(*net.TCPAddr).Port
	c := start(t, Options{Hops: r.hops()})
	args := map[string]any{"request": "attach", "address": "127.0.0.1", "port": port}
	for k, v := range extra {
		args[k] = v
	}
	seq := c.Send("attach", args)
	m := c.Expect("the attach's answer or initialized", func(m daptest.Msg) bool {
		return m.Env.Type == "response" && m.Env.RequestSeq == seq || m.Env.Type == "event" && m.Env.Event == "initialized"
	})
	if m.Env.Type == "response" {
		return m
	}
	c.ConfigurationDone() // connected: the attach answers once configured
	return c.Response(seq)
}

func failed(m daptest.Msg) bool { return m.Env.Success != nil && !*m.Env.Success }

func TestAttachChecksEveryHop(t *testing.T) {
	prog := program(t, "spin.js")
	_, realPort := startInspected(t, prog)
	names := map[string]string{"evil.example": "203.0.113.7", "localhost": "127.0.0.1"}
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		extra   map[string]any
		names   map[string]string
		want    string // in the error; "" = the attach succeeds
		offLoop []string
	}{
		{name: "HTTP redirect of /json/list off loopback", want: "redirect refused",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://evil.example:9229/json/list", http.StatusFound)
			}},
		{name: "webSocketDebuggerUrl off loopback", want: "names a websocket elsewhere",
			handler: func(w http.ResponseWriter, r *http.Request) {
				fmt.Fprint(w, `[{"webSocketDebuggerUrl":"ws://evil.example:9229/0f0e-secret"}]`)
			}},
		{name: "websocket redirect off loopback", want: "redirect refused",
			handler: func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/json/list" {
					fmt.Fprintf(w, `[{"webSocketDebuggerUrl":"ws://%s/ws"}]`, r.Host)
					return
				}
				http.Redirect(w, r, "ws://evil.example:9229/0f0e-secret", http.StatusFound)
			}},
		{name: "a name that resolves off loopback", want: "resolves to 203.0.113.9, not a loopback address",
			names: map[string]string{"localhost": "203.0.113.9"},
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, fmt.Sprintf("http://localhost:%d/json/list", realPort), http.StatusFound)
			}},
		{name: "redirects on loopback reach the inspector",
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, fmt.Sprintf("http://localhost:%d/json/list", realPort), http.StatusFound)
			}},
		{name: "an allowed host is let through", want: "test dialer: never dials evil.example:9229",
			extra: map[string]any{"dapscopeAllowHosts": []string{"evil.example"}}, offLoop: []string{"evil.example:9229"},
			handler: func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "http://evil.example:9229/json/list", http.StatusFound)
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := &recorder{names: names}
			if tc.names != nil {
				r.names = tc.names
			}
			resp := attachVia(t, r, tc.handler, tc.extra)
			msg := ""
			if failed(resp) {
				msg = fmt.Sprint(resp.Decoded)
			}
			switch {
			case tc.want == "" && failed(resp):
				t.Fatalf("attach failed: %s", msg)
			case tc.want != "" && !strings.Contains(msg, tc.want):
				t.Fatalf("attach = %s; want an error with %q", msg, tc.want)
			case strings.Contains(msg, "secret"):
				t.Errorf("the error shows the websocket's path: %s", msg)
			}
			if got := r.offLoopback(); fmt.Sprint(got) != fmt.Sprint(tc.offLoop) {
				t.Errorf("dialed off loopback: %v, want %v", got, tc.offLoop)
			}
		})
	}
}
