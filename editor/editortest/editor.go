// Package editortest is the fake editor of the editor channel's tests, as
// daptest is the scripted DAP client and in the manner of gopls'
// fake.Editor: it serves a real editor.Server on one end of an in-memory
// pipe and plays VS Code with the dapscope extension on the other. It
// sends the channel's requests and notifications with the channel's own
// protocol types, keeps the sidecar's session notifications, answers the
// bridge's dapscope/dapRequest with a bridgetest.Extension (as the
// extension does with session.customRequest), and opens VS Code's DAP
// connection to a proxy the channel hands out (a daptest client). Every
// call and wait is bounded; the server and the connection end with the
// test.
package editortest

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

// DefaultTimeout bounds each call and wait of a new Editor.
const DefaultTimeout = 60 * time.Second

// Message is one message on the channel as the fake editor saw it.
type Message struct {
	Method string
	From   string // "extension" (sent by the fake editor) or "sidecar"
	Kind   string // "request" or "notification"
	// Params of a request or notification, or Result of a request
	// (IsResult) once answered.
	Params, Result json.RawMessage
	IsResult       bool
}

// Options configure an Editor.
type Options struct {
	// Extension answers dapscope/dapRequest (nil: the method is not found).
	Extension *bridgetest.Extension
	// Trace, if set, sees every message and every result, in order per
	// direction.
	Trace func(Message)
}

// Editor is the fake editor connected to one Server.
type Editor struct {
	Timeout time.Duration // bounds every call and wait; DefaultTimeout unless set

	t     testing.TB
	opts  Options
	conn  jsonrpc2.Conn
	serve chan error // Serve's result
	once  sync.Once
	err   error // Serve's result, once received

	mu      sync.Mutex
	events  []editor.SessionEvent // received, not yet taken
	changed chan struct{}
}

// Connect serves srv on an in-memory pipe and connects the fake editor to
// it; when the test ends the connection is closed and Serve awaited.
func Connect(t testing.TB, srv *editor.Server, opts Options) *Editor {
	t.Helper()
	a, b := net.Pipe()
	e := &Editor{Timeout: DefaultTimeout, t: t, opts: opts, serve: make(chan error, 1), changed: make(chan struct{}, 1)}
	go func() { e.serve <- srv.Serve(context.Background(), a) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	e.conn.Go(context.Background(), e.handle)
	t.Cleanup(func() {
		_ = e.conn.Close()
		<-e.conn.Done()
		select {
		case <-e.serve:
		case <-time.After(e.Timeout):
			t.Errorf("editortest: Serve did not return after the editor left")
		}
	})
	return e
}

func (e *Editor) trace(m Message) {
	if e.opts.Trace != nil {
		e.opts.Trace(m)
	}
}

// handle takes the sidecar's messages: session notifications, and the
// bridge's requests, answered asynchronously as customRequest does.
func (e *Editor) handle(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	switch req.Method() {
	case "dapscope/sessionEvent":
		e.trace(Message{Method: req.Method(), From: "sidecar", Kind: "notification", Params: req.Params()})
		var ev editor.SessionEvent
		if err := json.Unmarshal(req.Params(), &ev); err != nil {
			e.t.Errorf("editortest: %s: %v", req.Method(), err)
			return nil
		}
		e.mu.Lock()
		e.events = append(e.events, ev)
		e.mu.Unlock()
		select {
		case e.changed <- struct{}{}:
		default:
		}
		return nil
	case "dapscope/dapRequest":
		if e.opts.Extension == nil {
			break
		}
		e.trace(Message{Method: req.Method(), From: "sidecar", Kind: "request", Params: req.Params()})
		var p editor.DAPRequestParams
		if err := json.Unmarshal(req.Params(), &p); err != nil {
			return reply(ctx, nil, jsonrpc2.Errorf(jsonrpc2.InvalidParams, "%v", err))
		}
		r := bridgetest.Request{VSCodeSessionID: p.VSCodeSessionID, Command: p.Command}
		if string(p.Arguments) != "null" {
			r.Arguments = p.Arguments
		}
		go func() {
			body, err := e.opts.Extension.Run(ctx, r)
			if err != nil {
				_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InternalError, err.Error()))
				return
			}
			e.trace(Message{Method: req.Method(), From: "sidecar", Kind: "request", Result: body, IsResult: true})
			_ = reply(ctx, body, nil)
		}()
		return nil
	}
	return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
}

// Call sends a request with any params (a protocol type, or a map for a
// shape of the extension's own) and decodes its result into out (nil:
// dropped). Use it for requests that must fail; the typed methods below
// fail the test instead.
func (e *Editor) Call(method string, params, out any) error {
	e.t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		e.t.Fatalf("editortest: %s params: %v", method, err)
	}
	e.trace(Message{Method: method, From: "extension", Kind: "request", Params: raw})
	ctx, cancel := context.WithTimeout(context.Background(), e.Timeout)
	defer cancel()
	var res json.RawMessage
	if _, err := e.conn.Call(ctx, method, json.RawMessage(raw), &res); err != nil {
		return err
	}
	e.trace(Message{Method: method, From: "extension", Kind: "request", Result: res, IsResult: true})
	if out != nil && len(res) > 0 {
		if err := json.Unmarshal(res, out); err != nil {
			e.t.Fatalf("editortest: %s result: %v", method, err)
		}
	}
	return nil
}

func (e *Editor) mustCall(method string, params, out any) {
	e.t.Helper()
	if err := e.Call(method, params, out); err != nil {
		e.t.Fatalf("editortest: %s: %v", method, err)
	}
}

// Notify sends a notification.
func (e *Editor) Notify(method string, params any) {
	e.t.Helper()
	raw, err := json.Marshal(params)
	if err != nil {
		e.t.Fatalf("editortest: %s params: %v", method, err)
	}
	e.trace(Message{Method: method, From: "extension", Kind: "notification", Params: raw})
	if err := e.conn.Notify(context.Background(), method, json.RawMessage(raw)); err != nil {
		e.t.Fatalf("editortest: %s: %v", method, err)
	}
}

// InitializeResult is the sidecar's answer to initialize.
type InitializeResult struct {
	Capabilities protocol.ServerCapabilities `json:"capabilities"`
	ServerInfo   *protocol.ServerInfo        `json:"serverInfo"`
}

// Initialize sends initialize (this process, client "editortest") and
// initialized.
func (e *Editor) Initialize() InitializeResult {
	e.t.Helper()
	var res InitializeResult
	e.mustCall("initialize", protocol.InitializeParams{ProcessID: int32(os.Getpid()), ClientInfo: &protocol.ClientInfo{Name: "editortest", Version: "1"}}, &res)
	e.Notify("initialized", protocol.InitializedParams{})
	return res
}

// DidOpen opens the file path with text (its buffer, as hover reads it).
func (e *Editor) DidOpen(path, languageID, text string) {
	e.t.Helper()
	e.Notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri.File(path), LanguageID: protocol.LanguageIdentifier(languageID), Version: 1, Text: text}})
}

// Hover asks for the hover at a 0-based line and UTF-16 character of path;
// nil is the sidecar's null.
func (e *Editor) Hover(path string, line, character int) *protocol.Hover {
	e.t.Helper()
	var raw json.RawMessage
	e.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: uri.File(path)},
		Position:     protocol.Position{Line: uint32(line), Character: uint32(character)}}}, &raw)
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var h protocol.Hover
	if err := json.Unmarshal(raw, &h); err != nil {
		e.t.Fatalf("editortest: hover: %v", err)
	}
	return &h
}

// Inspect sends dapscope/inspect.
func (e *Editor) Inspect(p editor.InspectParams) inspect.Result {
	e.t.Helper()
	var res inspect.Result
	e.mustCall("dapscope/inspect", p, &res)
	return res
}

// Page sends dapscope/page.
func (e *Editor) Page(p editor.PageParams) inspect.PageResult {
	e.t.Helper()
	var res inspect.PageResult
	e.mustCall("dapscope/page", p, &res)
	return res
}

// Sessions sends dapscope/sessions.
func (e *Editor) Sessions() editor.SessionsResult {
	e.t.Helper()
	var res editor.SessionsResult
	e.mustCall("dapscope/sessions", nil, &res)
	return res
}

// StartProxy sends dapscope/startProxy.
func (e *Editor) StartProxy(p editor.StartProxyParams) editor.StartProxyResult {
	e.t.Helper()
	var res editor.StartProxyResult
	e.mustCall("dapscope/startProxy", p, &res)
	return res
}

// MCPEndpoint sends dapscope/mcpEndpoint.
func (e *Editor) MCPEndpoint() (editor.Endpoint, error) {
	e.t.Helper()
	var res editor.Endpoint
	err := e.Call("dapscope/mcpEndpoint", nil, &res)
	return res, err
}

// BridgeEvent reports an event of one of the editor's own sessions, as the
// extension's tracker does.
func (e *Editor) BridgeEvent(ev bridge.Event) {
	e.t.Helper()
	e.Notify("dapscope/bridgeEvent", ev)
}

// SessionEvent waits for the next session notification of kind; earlier
// ones of other kinds are dropped.
func (e *Editor) SessionEvent(kind string) editor.SessionEvent {
	e.t.Helper()
	deadline := time.After(e.Timeout)
	for {
		e.mu.Lock()
		for i, ev := range e.events {
			if ev.Kind == kind {
				e.events = e.events[i+1:]
				e.mu.Unlock()
				return ev
			}
		}
		e.events = nil
		e.mu.Unlock()
		select {
		case <-e.changed:
		case <-deadline:
			e.t.Fatalf("editortest: no %s session notification within %v", kind, e.Timeout)
		}
	}
}

// DialProxy connects VS Code's DAP client to a proxy address from
// dapscope/startProxy; its waits are bounded by 90 s.
func (e *Editor) DialProxy(addr string) *daptest.Client {
	e.t.Helper()
	conn, err := session.DialProxy(addr)
	if err != nil {
		e.t.Fatal(err)
	}
	c := daptest.New(e.t, conn)
	c.Timeout = 90 * time.Second
	return c
}

// Shutdown sends shutdown, then exit, and returns Serve's result.
func (e *Editor) Shutdown() error {
	e.t.Helper()
	e.mustCall("shutdown", nil, nil)
	e.Notify("exit", nil)
	return e.Wait()
}

// Wait waits for Serve to return (after exit, or the stream's end) and
// returns its result.
func (e *Editor) Wait() error {
	e.t.Helper()
	e.once.Do(func() {
		select {
		case e.err = <-e.serve:
			e.serve <- e.err // for the cleanup
		case <-time.After(e.Timeout):
			e.t.Fatalf("editortest: Serve did not return within %v", e.Timeout)
		}
	})
	return e.err
}

// Close closes the editor's end of the channel (the editor went away).
func (e *Editor) Close() {
	_ = e.conn.Close()
	<-e.conn.Done()
}
