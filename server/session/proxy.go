// proxy.go: an editor connecting through the proxy — ServeEditor runs one
// editor connection as the primary client of a new session, ListenEditor
// waits for it on a loopback port — and the "dapscope/…" requests an
// editor sends, answered by the sidecar.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"time"
)

// ProxySpec configures an editor-facing proxy session.
type ProxySpec struct {
	Adapter string `json:"adapter,omitempty"` // an adapter.Kind or alias ("": adapter.Default)
	// Dir is the adapter's working directory (default: the workspace).
	Dir string `json:"dir,omitempty"`
}

// ServeEditor runs one editor connection as the primary client of a new
// session and blocks until the editor disconnects; then the adapter session
// is ended (disconnect, then staged shutdown).
func (m *Manager) ServeEditor(ctx context.Context, conn io.ReadWriteCloser, spec ProxySpec) error {
	d, err := driverOf(spec.Adapter)
	if err != nil {
		_ = conn.Close()
		return err
	}
	s, err := m.newLive(ctx, OriginEditor, d, spec.Dir)
	if err != nil {
		_ = conn.Close()
		return err
	}
	err = s.mux.ServeEditor(ctx, conn)
	s.end(context.Background())
	return err
}

// ListenEditor listens on a loopback port for one editor connection and
// serves it in the background; it returns the address to connect to.
func (m *Manager) ListenEditor(ctx context.Context, spec ProxySpec) (string, error) {
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return "", err
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer ln.Close()
		_ = ln.SetDeadline(time.Now().Add(2 * time.Minute))
		stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
		defer stop()
		c, err := ln.Accept()
		if err != nil {
			m.log.Warn("editor did not connect", "err", err)
			return
		}
		_ = c.(*net.TCPConn).SetNoDelay(true)
		if err := m.ServeEditor(ctx, c, spec); err != nil {
			m.log.Warn("editor session ended", "err", err)
		}
	}()
	return ln.Addr().String(), nil
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
