// Package editor is the sidecar's JSON-RPC channel to the VS Code extension
// (LSP-style framing over stdio, go.lsp.dev/jsonrpc2): initialize/shutdown,
// hover with the smart summary of the value under the cursor, the custom
// requests dapscope/inspect, dapscope/page, dapscope/sessions,
// dapscope/startProxy and dapscope/mcpEndpoint, the live Jupyter kernels'
// dapscope/kernels, dapscope/kernelAttach and dapscope/kernelVariables
// (kernels.go), dapscope/inspectProcesses (one question to every process
// of a tree, processes.go), dapscope/rayList (a Ray cluster's paused
// tasks, ray.go), session notifications to
// the extension, and the transport of the bridge (server/bridge: the
// editor's own debug sessions): the tracker's dapscope/bridgeEvent in, the
// bridge's dapscope/dapRequest out (bridged.go).
//
// This file holds the Server, its lifecycle and the method table.
package editor

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

// Endpoint is the MCP streamable-HTTP endpoint of this sidecar.
type Endpoint struct {
	URL   string `json:"url"`
	Token string `json:"token"`
}

// Options configure a Server.
type Options struct {
	Manager *session.Manager // required; the Server closes it on shutdown/exit
	Logger  *slog.Logger
	Version string
	// MCPEndpoint starts (once) and returns the MCP HTTP endpoint; nil when
	// this build has no MCP HTTP transport.
	MCPEndpoint func(ctx context.Context) (Endpoint, error)
	// Kernels is where dapscope/kernels and dapscope/kernelAttach look for
	// local Jupyter kernels (default: the runtime directory and processes).
	Kernels kernel.ListOptions
}

// Server is one editor connection.
type Server struct {
	opts Options
	log  *slog.Logger
	mgr  *session.Manager
	r    *router
	docs *documents
	// bridge holds the editor's own debug sessions; its requests go out as
	// dapscope/dapRequest on conn.
	bridge *bridge.Bridge

	mu       sync.Mutex
	conn     jsonrpc2.Conn
	pairs    pairings // the proxies of dapscope/startProxy by token (pairing.go)
	shutdown bool
	exited   chan struct{}
	// proxyCtx bounds the editor proxies; cancelled before the manager closes
	// so a still-connected editor cannot hold the shutdown.
	proxyCtx    context.Context
	proxyCancel context.CancelFunc
	closeMgr    sync.Once
}

// New returns a Server.
func New(opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		opts:   opts,
		log:    opts.Logger,
		mgr:    opts.Manager,
		r:      newRouter(opts.Logger),
		docs:   newDocuments(),
		pairs:  newPairings(),
		exited: make(chan struct{}),
	}
	opts.Manager.OnRemove(s.forgetPaired) // a forgotten session's pairing goes with it
	s.bridge = bridge.New(bridge.Options{Manager: opts.Manager, Editor: bridge.EditorFunc(s.dapRequest), Logger: opts.Logger})
	s.proxyCtx, s.proxyCancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

func (s *Server) routes() {
	r := s.r
	r.calls["initialize"] = s.initialize
	r.calls["shutdown"] = s.shutdownCall
	r.calls["textDocument/hover"] = s.hover
	r.calls["dapscope/inspect"] = s.inspectCall
	r.calls["dapscope/page"] = s.pageCall
	r.calls["dapscope/sessions"] = s.sessions
	r.calls["dapscope/startProxy"] = s.startProxy
	r.calls["dapscope/mcpEndpoint"] = s.mcpEndpoint
	r.calls["dapscope/kernels"] = s.kernels // kernels.go
	r.calls["dapscope/kernelAttach"] = s.kernelAttach
	r.calls["dapscope/kernelVariables"] = s.kernelVariables
	r.calls["dapscope/inspectProcesses"] = s.inspectProcesses // processes.go
	r.calls["dapscope/rayList"] = s.rayList                   // ray.go
	r.notes["initialized"] = func(context.Context, json.RawMessage) {}
	r.notes["exit"] = func(context.Context, json.RawMessage) { s.exit() }
	r.notes["textDocument/didOpen"] = s.docs.didOpen
	r.notes["textDocument/didChange"] = s.docs.didChange
	r.notes["textDocument/didClose"] = s.docs.didClose
	r.notes["dapscope/bridgeEvent"] = s.bridgeEvent
}

// Serve runs the channel on rwc until the client sends exit, the stream ends
// or ctx is cancelled; then every session and child process is ended.
func (s *Server) Serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	conn := jsonrpc2.NewConn(newStream(rwc, s.log))
	s.mu.Lock()
	s.conn = conn
	s.mu.Unlock()
	events, unsubscribe := s.mgr.Subscribe()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.forward(ctx, conn, events)
	}()
	conn.Go(ctx, s.r.handle)
	var err error
	select {
	case <-conn.Done():
		err = conn.Err()
	case <-s.exited:
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.r.cancelAll()
	s.closeManager()
	unsubscribe()
	cancel()
	_ = conn.Close()
	// A read blocked on a blocking stdin is not interrupted by Close; don't
	// let it hold the exit.
	select {
	case <-conn.Done():
	case <-time.After(time.Second):
		s.log.Debug("the reader did not stop; leaving it to process exit")
	}
	wg.Wait()
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) || isClosedErr(err) {
		err = nil
	}
	return err
}

func isClosedErr(err error) bool {
	return err != nil && (errors.Is(err, context.Canceled) || containsAny(err.Error(), "file already closed", "use of closed", "EOF"))
}

func containsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		for i := 0; i+len(sub) <= len(s); i++ {
			if s[i:i+len(sub)] == sub {
				return true
			}
		}
	}
	return false
}

// closeManager ends every session (shutdown, or the channel's end), then
// the bridge: its links to the manager and to js-debug's CDP proxies.
func (s *Server) closeManager() {
	s.closeMgr.Do(func() {
		s.proxyCancel()
		if err := s.mgr.Close(); err != nil {
			s.log.Warn("closing sessions", "err", err)
		}
		s.bridge.Close()
	})
}

func (s *Server) exit() {
	s.mu.Lock()
	defer s.mu.Unlock()
	select {
	case <-s.exited:
	default:
		close(s.exited)
	}
}

// SessionEvent is the dapscope/sessionEvent notification.
type SessionEvent struct {
	SessionID       string                `json:"sessionId"`
	VSCodeSessionID string                `json:"vscodeSessionId,omitempty"`
	Kind            string                `json:"kind"` // stopped | continued | terminated
	Stop            *session.StopLocation `json:"stop,omitempty"`
}

// forward sends session lifecycle events to the extension.
func (s *Server) forward(ctx context.Context, conn jsonrpc2.Conn, events <-chan session.Event) {
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-events:
			if !ok {
				return
			}
			n := SessionEvent{SessionID: ev.SessionID, Kind: ev.Kind, Stop: ev.Stop, VSCodeSessionID: s.vscodeIDOf(ev.SessionID)}
			if err := conn.Notify(ctx, "dapscope/sessionEvent", n); err != nil {
				s.log.Debug("notify failed", "err", err)
			}
		}
	}
}

func (s *Server) initialize(ctx context.Context, params json.RawMessage) (any, error) {
	// Only what we use: newer clients send fields older protocol types reject.
	var p struct {
		ClientInfo *protocol.ClientInfo `json:"clientInfo"`
	}
	_ = json.Unmarshal(params, &p)
	s.log.Info("editor connected", "client", clientName(p.ClientInfo))
	return map[string]any{
		"capabilities": protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: true, Change: protocol.TextDocumentSyncKindFull},
			HoverProvider:    true,
			Experimental: map[string]any{"dapscope": map[string]any{
				"inspect": true, "page": true, "sessions": true, "startProxy": true, "mcpEndpoint": s.opts.MCPEndpoint != nil,
				"bridge": true, "kernels": true, "inspectProcesses": true, "rayList": true, "notifications": []string{"dapscope/sessionEvent"},
			}},
		},
		"serverInfo": protocol.ServerInfo{Name: "dapscope", Version: s.opts.Version},
	}, nil
}

func clientName(ci *protocol.ClientInfo) string {
	if ci == nil {
		return ""
	}
	return ci.Name + " " + ci.Version
}

func (s *Server) shutdownCall(ctx context.Context, _ json.RawMessage) (any, error) {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.closeManager()
	return nil, nil
}

// InspectParams are the dapscope/inspect parameters.
type InspectParams struct {
	SessionID       string          `json:"sessionId,omitempty"`
	VSCodeSessionID string          `json:"vscodeSessionId,omitempty"`
	FrameID         int             `json:"frameId,omitempty"`
	Expression      string          `json:"expression"`
	Options         inspect.Options `json:"options"`
}

// inspectCall answers dapscope/inspect: the Result, or a Result carrying the
// inspector's typed error (so the webview shows code, hint and names).
func (s *Server) inspectCall(ctx context.Context, params json.RawMessage) (any, error) {
	var p InspectParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.Expression == "" {
		return nil, invalidParams("expression is required")
	}
	t, err := s.target(p.SessionID, p.VSCodeSessionID)
	if err != nil {
		return nil, err
	}
	res, err := inspect.Inspect(ctx, t, p.FrameID, p.Expression, p.Options)
	if err != nil {
		if ie := errcode.As(err); ie != nil {
			return &inspect.Result{Name: p.Expression, Error: ie}, nil
		}
		return nil, err
	}
	return res, nil
}

// target resolves the session an editor request means: a bridged session by
// VS Code id, a proxied one by VS Code id (paired by startProxy's token: one
// that has not connected yet is NOT_FOUND, never another session), a
// sidecar session by id, else the active session.
func (s *Server) target(sessionID, vscodeID string) (inspect.Target, error) {
	if vscodeID != "" {
		b, ended := s.bridge.Lookup(vscodeID)
		if b != nil {
			return b, nil
		}
		if ended { // not the active session instead
			return nil, &errcode.Error{Code: errcode.NotFound, Field: "vscodeSessionId", Message: "the debug session has ended"}
		}
		if sessionID == "" {
			id, err := s.sidecarIDOf(vscodeID)
			if err != nil { // a proxy of its own that has not connected: never another session
				return nil, err
			}
			sessionID = id
		}
	}
	ss, err := s.mgr.Get(sessionID)
	if err != nil {
		return nil, err
	}
	return ss, nil
}

// SessionsResult is the dapscope/sessions answer.
type SessionsResult struct {
	Sessions []session.Info `json:"sessions"`
	Bridged  []bridge.Info  `json:"bridged,omitempty"`
	Active   string         `json:"active,omitempty"`
}

func (s *Server) sessions(ctx context.Context, _ json.RawMessage) (any, error) {
	out := SessionsResult{Sessions: []session.Info{}, Active: s.mgr.Active()}
	for _, ss := range s.mgr.List() {
		out.Sessions = append(out.Sessions, ss.Info())
	}
	for _, b := range s.bridge.List() {
		out.Bridged = append(out.Bridged, b.Info())
	}
	return out, nil
}

func (s *Server) mcpEndpoint(ctx context.Context, _ json.RawMessage) (any, error) {
	if s.opts.MCPEndpoint == nil {
		return nil, errors.New("this dapscope build has no MCP HTTP endpoint; use `dapscope mcp` over stdio")
	}
	return s.opts.MCPEndpoint(ctx)
}
