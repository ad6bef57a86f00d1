// proxy.go: an editor connecting through the proxy — ServeEditor runs one
// editor connection as the primary client of a new session (paired with
// whoever asked for the proxy by ProxySpec.Token before any DAP byte is
// proxied), ListenEditor waits for it on a private unix socket (Windows: a
// named pipe) — and the "dapscope/…" requests an editor sends, answered by
// the sidecar.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
)

// ProxySpec configures an editor-facing proxy session.
type ProxySpec struct {
	Adapter string `json:"adapter,omitempty"` // an adapter.Kind or alias ("": adapter.Default)
	// Dir is the adapter's working directory (default: the workspace).
	Dir string `json:"dir,omitempty"`
	// Connect is the host:port of an adapter that already runs, instead of
	// starting one: debugpy's adapter waiting for a subprocess's child
	// session. Loopback only unless the host is in ManagerOptions.AttachHosts.
	Connect string `json:"connect,omitempty"`
	// Token pairs the session with the request that asked for this proxy
	// (the editor channel's dapscope/startProxy): it travels with the
	// listener to the one connection it accepts, and Pair binds that
	// connection's session to it before any DAP byte is proxied, so the
	// asker finds its session by token, never by which connection came
	// first. It is no credential: the private socket's permissions decide
	// who may connect.
	Token string `json:"-"`
	// Pair, when set, binds the session made for the connection to Token
	// before any DAP byte of it is proxied; an error refuses the connection
	// (closed unread, the session ended and forgotten).
	Pair func(token, sessionID string) error `json:"-"`
	// Unpaired, when set, hears that no session was made for Token: no
	// connection came (ListenEditor's wait ended), or its adapter could not
	// start. Exactly one of Pair and Unpaired is called per connection wait.
	Unpaired func(token string, err error) `json:"-"`
}

// unpaired tells the spec's asker that no session came of it.
func (spec ProxySpec) unpaired(err error) {
	if spec.Unpaired != nil {
		spec.Unpaired(spec.Token, err)
	}
}

// ServeEditor runs one editor connection as the primary client of a new
// session and blocks until the editor disconnects; then the adapter session
// is ended (disconnect, then staged shutdown).
func (m *Manager) ServeEditor(ctx context.Context, conn io.ReadWriteCloser, spec ProxySpec) error {
	d, err := driverOf(spec.Adapter, "")
	if err != nil {
		_ = conn.Close()
		spec.unpaired(err)
		return err
	}
	var s *Session
	if spec.Connect != "" {
		s, err = m.connectEditor(ctx, d, spec.Connect)
	} else {
		s, err = m.newLive(ctx, OriginEditor, d, spec.Dir, "")
	}
	if err != nil {
		_ = conn.Close()
		spec.unpaired(err)
		return err
	}
	if spec.Pair != nil {
		if err := spec.Pair(spec.Token, s.id); err != nil {
			_ = conn.Close() // not one byte read from it
			s.end(context.Background())
			m.Remove(s.id)
			return &errcode.Error{Code: errcode.InvalidArgument, Message: "editor connection refused: " + err.Error()}
		}
	}
	err = s.mux.ServeEditor(ctx, conn)
	s.end(context.Background())
	return err
}

// connectEditor is the session of an editor's child session on an adapter
// that already runs (a debugpy subprocess): dialed, never started, and
// attached (the debuggee is not ours to end).
func (m *Manager) connectEditor(ctx context.Context, d adapter.Driver, hostPort string) (*Session, error) {
	host, _, err := net.SplitHostPort(hostPort)
	if err != nil {
		return nil, errcode.Invalid("connect", "%q is not host:port", clip.Bytes.Head(hostPort, 200))
	}
	if !m.attachHostAllowed(host) {
		return nil, errcode.Invalid("connect", "%q is not a loopback address; other hosts must be allowed explicitly (dapscope --attach-hosts %s)", clip.Bytes.Head(host, 200), clip.Bytes.Head(host, 200))
	}
	dctx, cancel := context.WithTimeout(ctx, DefaultConnectTimeout)
	defer cancel()
	ad, err := adapter.Dial(dctx, d.Kind(), hostPort)
	if err != nil {
		return nil, &errcode.Error{Code: errcode.LaunchFailed, Message: err.Error()}
	}
	s, err := m.newLiveOn(ctx, OriginEditor, d, ad)
	if err != nil {
		return nil, err
	}
	s.attached.Store(true)
	return s, nil
}

// ListenEditor listens for ONE editor connection and serves it in the
// background; it returns the address to connect to: "unix:/path" for a
// socket in a private 0700 directory, or on Windows `pipe:\\.\pipe\name`
// for a named pipe only this user may open (platform.ListenPrivate). The
// listener closes as soon as that one connection arrives (or after two
// minutes without one), so nothing else can connect to the session; the
// spec's Token goes with it to that connection (Pair, or Unpaired when none
// came).
func (m *Manager) ListenEditor(ctx context.Context, spec ProxySpec) (string, error) {
	ln, addr, cleanup, err := platform.ListenPrivate()
	if err != nil {
		return "", err
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cleanup()
		c, err := acceptOne(ctx, ln, 2*time.Minute)
		if err != nil {
			m.log.Warn("editor did not connect", "err", err)
			spec.unpaired(err)
			return
		}
		if err := m.ServeEditor(ctx, c, spec); err != nil {
			m.log.Warn("editor session ended", "err", err)
		}
	}()
	return addr, nil
}

// DialProxy connects to an address ListenEditor returned (tests, tools).
func DialProxy(addr string) (net.Conn, error) {
	return platform.Dial(context.Background(), addr)
}

// acceptOne accepts one connection, then closes the listener; it gives up
// when ctx ends or after wait.
func acceptOne(ctx context.Context, ln net.Listener, wait time.Duration) (net.Conn, error) {
	defer ln.Close()
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	c, err := ln.Accept()
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("no connection: %w", context.Cause(ctx))
	}
	return c, err
}

// custom answers a "dapscope/…" request of an editor on session s.
func (m *Manager) custom(ctx context.Context, s *Session, cmd string, args json.RawMessage) (any, error) {
	if cmd == "dapscope/session" {
		return s.Info(), nil
	}
	h, ok := m.opts.Custom[cmd]
	if !ok {
		return nil, fmt.Errorf("unknown command %s", cmd)
	}
	return h(ctx, s, args)
}
