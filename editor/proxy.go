// This file holds dapscope/startProxy: the extension asks for a proxy for a
// debug session of type dapscope (on a new adapter, or on a debugpy adapter
// that already runs: a debuggee's listen(), a subprocess's child session)
// and gets the address to connect to; the session its connection becomes is
// paired with the asking VS Code session by token (pairing.go).

package editor

import (
	"context"
	"encoding/json"
	"net"
	"strconv"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/session"
)

// StartProxyParams are the dapscope/startProxy parameters.
type StartProxyParams struct {
	Configuration   map[string]any `json:"configuration"`
	VSCodeSessionID string         `json:"vscodeSessionId,omitempty"`
}

// StartProxyResult is the address VS Code connects to as its debug adapter.
type StartProxyResult struct {
	Address string `json:"address"`
	Adapter string `json:"adapter"`
}

func (s *Server) startProxy(ctx context.Context, params json.RawMessage) (any, error) {
	var p StartProxyParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	kind := adapterOf(p.Configuration)
	if kind == "" {
		return nil, invalidParams("configuration.adapter must be %s, got %v", adapter.KindList("%s"), p.Configuration["adapter"])
	}
	spec := session.ProxySpec{Adapter: kind, Connect: adapterAddress(p.Configuration, kind)}
	if p.VSCodeSessionID != "" { // paired by token, never by arrival order (pairing.go)
		spec.Token = s.expectProxy(p.VSCodeSessionID)
		spec.Pair, spec.Unpaired = s.pairProxy, s.unpairedProxy
	}
	addr, err := s.mgr.ListenEditor(s.proxyCtx, spec)
	if err != nil {
		if spec.Token != "" {
			s.unpairedProxy(spec.Token, err)
		}
		return nil, err
	}
	s.log.Info("proxy listening", "addr", addr, "adapter", kind, "vscodeSession", p.VSCodeSessionID)
	return StartProxyResult{Address: addr, Adapter: kind}, nil
}

// adapterAddress is the host:port of a debugpy adapter that already runs
// and that an attach configuration connects to: a debuggee's
// debugpy.listen(), or debugpy's adapter waiting for a subprocess's child
// session (debugpyAttach: subProcessId and connect). "" for anything else:
// the sidecar then starts an adapter.
func adapterAddress(cfg map[string]any, kind string) string {
	if kind != string(adapter.Debugpy) || cfg["request"] != "attach" {
		return ""
	}
	c, _ := cfg["connect"].(map[string]any)
	port, _ := c["port"].(float64)
	if port <= 0 || port > 65535 || port != float64(int(port)) {
		return ""
	}
	host, _ := c["host"].(string)
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port)))
}

// adapterOf is the adapter kind a configuration asks for: its "adapter"
// (a kind or an alias), else the kind its program's extension implies, else
// the default; "" when "adapter" names no known adapter.
func adapterOf(cfg map[string]any) string {
	a, _ := cfg["adapter"].(string)
	if prog, _ := cfg["program"].(string); a == "" {
		if k, ok := adapter.KindForPath(prog); ok {
			return string(k)
		}
	}
	k, err := adapter.ParseKind(a)
	if err != nil {
		return ""
	}
	return string(k)
}
