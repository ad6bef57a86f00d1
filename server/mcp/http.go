// http.go: the streamable HTTP transport for the editor-attached sidecar:
// loopback-only bind (other addresses refused), a random per-launch bearer
// token (compared in constant time, never logged), and Host/Origin checks
// against DNS rebinding.

package mcp

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Endpoint is where an HTTP client reaches the server.
type Endpoint struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// endpointPath is the MCP path on the HTTP server.
const endpointPath = "/mcp"

// loopbackAddr checks that addr (host:port) names a loopback host.
func loopbackAddr(addr string) (string, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("mcp http: bad address %q: %v", addr, err)
	}
	if strings.EqualFold(host, "localhost") {
		host = "127.0.0.1"
	}
	ip, err := netip.ParseAddr(host)
	if err != nil || !ip.IsLoopback() {
		return "", fmt.Errorf("mcp http: refusing to bind %q: only loopback addresses (127.0.0.1, ::1) are allowed", addr)
	}
	return net.JoinHostPort(ip.String(), port), nil
}

func isLoopbackHost(hostport string) bool {
	host, _, err := net.SplitHostPort(hostport)
	if err != nil {
		host = strings.Trim(hostport, "[]")
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// guard wraps h with the rebinding checks and the bearer token.
func guard(h http.Handler, token string) http.Handler {
	want := []byte(token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !isLoopbackHost(r.Host) {
			http.Error(w, "forbidden: Host must be a loopback address", http.StatusForbidden)
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			u, err := url.Parse(o)
			if err != nil || u.Host == "" || !isLoopbackHost(u.Host) {
				http.Error(w, "forbidden: foreign Origin", http.StatusForbidden)
				return
			}
		}
		scheme, cred, _ := strings.Cut(r.Header.Get("Authorization"), " ")
		if !strings.EqualFold(scheme, "Bearer") || subtle.ConstantTimeCompare([]byte(strings.TrimSpace(cred)), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dapscope"`)
			http.Error(w, "unauthorized: a valid bearer token is required", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// ServeHTTP serves streamable HTTP on a loopback address (e.g.
// "127.0.0.1:0") until ctx is done, in the background. It returns the
// endpoint URL and the bearer token clients must send.
func (s *Server) ServeHTTP(ctx context.Context, addr string) (Endpoint, error) {
	addr, err := loopbackAddr(addr)
	if err != nil {
		return Endpoint{}, err
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return Endpoint{}, err
	}
	token := hex.EncodeToString(raw)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return Endpoint{}, err
	}
	httpSrv := &http.Server{ReadHeaderTimeout: 10 * time.Second}
	streamable := mcpserver.NewStreamableHTTPServer(s.mcp,
		mcpserver.WithEndpointPath(endpointPath),
		mcpserver.WithStreamableHTTPServer(httpSrv),
		mcpserver.WithStreamableHTTPLogger(s.log),
		mcpserver.WithHeartbeatInterval(15*time.Second),
	)
	mux := http.NewServeMux()
	mux.Handle(endpointPath, streamable)
	httpSrv.Handler = guard(mux, token)
	s.bg.Add(2)
	go func() {
		defer s.bg.Done()
		if err := httpSrv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("mcp http server", "err", err)
		}
	}()
	go func() {
		defer s.bg.Done()
		select {
		case <-ctx.Done():
		case <-s.bgCtx.Done():
		}
		sctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		_ = streamable.Shutdown(sctx)
		_ = httpSrv.Shutdown(sctx)
		_ = httpSrv.Close()
	}()
	ep := Endpoint{URL: "http://" + ln.Addr().String() + endpointPath, Token: token}
	s.log.Info("mcp http listening", "url", ep.URL) // the token is never logged
	return ep, nil
}
