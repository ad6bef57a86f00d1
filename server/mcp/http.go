// http.go: the streamable HTTP transport for the editor-attached sidecar:
// loopback-only bind (other addresses refused), a random per-launch bearer
// token (compared in constant time, never logged), and Host/Origin checks
// against DNS rebinding, and a bound on request bodies (413 past it); its
// MCP sessions expire and are bounded in number (httpsessions.go).

package mcp

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
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

// MaxRequestBody bounds an HTTP request body. The largest legitimate
// message is a tool call with a few expressions; 4 MiB leaves ample room
// and keeps a client with the token from ballooning the sidecar's memory.
const MaxRequestBody = 4 << 20

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
		if !limitBody(w, r, MaxRequestBody) {
			return
		}
		h.ServeHTTP(w, r)
	})
}

// limitBody answers 413 for a body over limit bytes: at once when the
// declared Content-Length says so, else by reading at most limit+1 bytes
// (chunked bodies) and handing the handler what was read.
func limitBody(w http.ResponseWriter, r *http.Request, limit int64) bool {
	tooLarge := func(n string) bool {
		w.Header().Set("Connection", "close")
		http.Error(w, fmt.Sprintf("request body too large: %s bytes, the limit is %d bytes", n, limit), http.StatusRequestEntityTooLarge)
		return false
	}
	if r.Body == nil || r.Body == http.NoBody {
		return true
	}
	if r.ContentLength > limit {
		return tooLarge(strconv.FormatInt(r.ContentLength, 10))
	}
	if r.ContentLength >= 0 {
		r.Body = http.MaxBytesReader(w, r.Body, limit)
		return true
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
	if err != nil {
		http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
		return false
	}
	if int64(len(body)) > limit {
		return tooLarge("more than " + strconv.FormatInt(limit, 10))
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	return true
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
	sessions := newHTTPSessions(s.opts.HTTPSessionIdle, s.opts.MaxHTTPSessions) // httpsessions.go
	streamable := mcpserver.NewStreamableHTTPServer(s.mcp,
		mcpserver.WithEndpointPath(endpointPath),
		mcpserver.WithStreamableHTTPServer(httpSrv),
		mcpserver.WithStreamableHTTPLogger(s.log),
		mcpserver.WithHeartbeatInterval(15*time.Second),
		mcpserver.WithSessionIdManager(sessions),
	)
	mux := http.NewServeMux()
	mux.Handle(endpointPath, idHandler(newRPCIDs(), sessions.track(streamable))) // rpcid.go
	httpSrv.Handler = guard(mux, token)
	s.mu.Lock()
	s.httpSessions = append(s.httpSessions, sessions)
	s.mu.Unlock()
	s.bg.Add(3)
	go func() { // idle sessions expire
		defer s.bg.Done()
		tick := time.NewTicker(max(10*time.Millisecond, min(s.opts.HTTPSessionIdle/4, time.Minute)))
		defer tick.Stop()
		for {
			select {
			case <-tick.C:
				sessions.sweep()
				sessions.release(streamable)
			case <-ctx.Done():
				return
			case <-s.bgCtx.Done():
				return
			}
		}
	}()
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
