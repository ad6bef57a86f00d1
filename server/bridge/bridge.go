// Package bridge is a virtual debug adapter for the editor's own debug
// sessions: sessions that VS Code runs with its own adapter (js-debug, the
// Python extension's debugpy, vscode-go) and that the extension's tracker
// reports. Each is an inspect.Target whose DAP requests run in the editor
// (Editor: VS Code's session.customRequest, reached through the extension),
// and, when its language has a dapscope adapter kind, a session of the
// session manager behind an in-memory DAP pipe (dap.go), so MCP agents reach
// it too. A js-debug session's probe evaluates go to V8 through js-debug's
// CDP proxy (cdp.go, cdplink.go). The session manager's side (registering a
// bridged session, the commands it sends) is server/session/bridged.go; the
// editor channel (editor/) decodes the extension's notifications into
// Events and carries the requests, and the bridge knows nothing of it.
//
// This file holds the Bridge: the sessions by VS Code id, the events that
// drive them, and the Editor the requests go to.
package bridge

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

// Editor runs DAP requests in the editor's own debug sessions.
type Editor interface {
	// DAPRequest runs command with args (nil: none) in the editor's session
	// vscodeSessionID and returns the response body (empty or null: none).
	// A request the editor answered with an error is an *EditorError.
	DAPRequest(ctx context.Context, vscodeSessionID, command string, args any) (json.RawMessage, error)
}

// EditorFunc is an Editor made of a function.
type EditorFunc func(ctx context.Context, vscodeSessionID, command string, args any) (json.RawMessage, error)

// DAPRequest calls f.
func (f EditorFunc) DAPRequest(ctx context.Context, vscodeSessionID, command string, args any) (json.RawMessage, error) {
	return f(ctx, vscodeSessionID, command, args)
}

// EditorError is the editor's refusal of a request: Message is its own
// words (the debug adapter's message when customRequest failed).
type EditorError struct{ Message string }

func (e *EditorError) Error() string { return e.Message }

// Event is what the extension's tracker reports about one of the editor's
// sessions (the editor channel's dapscope/bridgeEvent).
type Event struct {
	VSCodeSessionID string `json:"vscodeSessionId"`
	DebugType       string `json:"debugType"`
	Name            string `json:"name"`
	Adapter         string `json:"adapter"`
	Kind            string `json:"kind"` // started | stopped | continued | terminated | event | frame | cdp
	ThreadID        int    `json:"threadId,omitempty"`
	FrameID         int    `json:"frameId,omitempty"` // kind frame: the top frame, from the editor's first stackTrace of the stop
	Line            int    `json:"line,omitempty"`    // kind frame: the top frame's line
	Path            string `json:"path,omitempty"`    // kind frame: the top frame's source path
	// CDP (kind cdp) is js-debug's CDP proxy for the session (cdp.go).
	CDP               *CDPAddress `json:"cdp,omitempty"`
	Reason            string      `json:"reason,omitempty"`
	AllThreadsStopped bool        `json:"allThreadsStopped,omitempty"`
	// Event and Body are the DAP event as the debug adapter sent it: Body
	// for stopped, continued and terminated, both for kind "event" (output,
	// thread, exited, breakpoint…).
	Event string          `json:"event,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"`
}

// Info describes a bridged session (the editor channel's dapscope/sessions).
type Info struct {
	VSCodeSessionID string    `json:"vscodeSessionId"`
	Name            string    `json:"name"`
	DebugType       string    `json:"debugType"`
	Adapter         string    `json:"adapter"`
	Status          string    `json:"status"`
	ThreadID        int       `json:"threadId,omitempty"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

// Options configure a Bridge.
type Options struct {
	// Manager registers each session whose language has an adapter kind,
	// for MCP agents; required.
	Manager *session.Manager
	Editor  Editor // required
	Logger  *slog.Logger
}

// Bridge holds the editor's sessions reported so far.
type Bridge struct {
	mgr *session.Manager
	ed  Editor
	log *slog.Logger
	// ctx ends the CDP dials; cancelled by Close.
	ctx    context.Context
	cancel context.CancelFunc
	cdpWG  sync.WaitGroup // linkCDP goroutines

	mu       sync.Mutex
	sessions map[string]*Session // by VS Code session id
	links    []*dapLink          // sessions registered with the manager
	linked   map[string]string   // their sidecar session id → VS Code session id
	closed   bool
}

// New returns a Bridge; Close ends it.
func New(opts Options) *Bridge {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	br := &Bridge{mgr: opts.Manager, ed: opts.Editor, log: opts.Logger, sessions: map[string]*Session{}, linked: map[string]string{}}
	br.ctx, br.cancel = context.WithCancel(context.Background())
	return br
}

// Handle applies one event of the extension's tracker: a new VS Code id
// starts a session (registered with the manager at its first event),
// terminated forgets it, kind cdp links js-debug's CDP proxy.
func (br *Bridge) Handle(ev Event) {
	if ev.VSCodeSessionID == "" {
		br.log.Warn("bridge event without a session id", "kind", ev.Kind)
		return
	}
	br.mu.Lock()
	if br.closed {
		br.mu.Unlock()
		return
	}
	b := br.sessions[ev.VSCodeSessionID]
	if b == nil && ev.Kind != "terminated" {
		b = &Session{id: ev.VSCodeSessionID, name: ev.Name, debugType: ev.DebugType, adapter: ev.Adapter, ed: br.ed, values: &sync.Map{}}
		if b.adapter == "" {
			b.adapter = ev.DebugType
		}
		br.sessions[ev.VSCodeSessionID] = b
	}
	if ev.Kind == "terminated" {
		delete(br.sessions, ev.VSCodeSessionID)
	}
	dial := b != nil && ev.Kind == "cdp" && ev.CDP != nil
	if dial {
		br.cdpWG.Add(1) // under mu: Close waits only once nothing more is added
	}
	br.mu.Unlock()
	if b != nil {
		b.apply(ev)
		br.linkEvent(b, ev)
		switch {
		case dial:
			go func() { defer br.cdpWG.Done(); br.linkCDP(b, *ev.CDP) }()
		case ev.Kind == "terminated":
			b.unlinkCDP()
		}
	}
	br.log.Debug("bridge event", "session", ev.VSCodeSessionID, "type", ev.DebugType, "kind", ev.Kind, "thread", ev.ThreadID)
}

// Lookup is the live session vscodeSessionID; ended reports a session
// that was registered with the manager and has ended since.
func (br *Bridge) Lookup(vscodeSessionID string) (s *Session, ended bool) {
	br.mu.Lock()
	defer br.mu.Unlock()
	if s := br.sessions[vscodeSessionID]; s != nil {
		return s, false
	}
	return nil, slices.Contains(slices.Collect(maps.Values(br.linked)), vscodeSessionID)
}

// List returns the live sessions, by VS Code id.
func (br *Bridge) List() []*Session {
	br.mu.Lock()
	defer br.mu.Unlock()
	out := slices.Collect(maps.Values(br.sessions))
	slices.SortFunc(out, func(a, b *Session) int { return strings.Compare(a.id, b.id) })
	return out
}

// VSCodeID is the VS Code id of the bridged session that the manager knows
// as sidecarID ("" if none).
func (br *Bridge) VSCodeID(sidecarID string) string {
	br.mu.Lock()
	defer br.mu.Unlock()
	return br.linked[sidecarID]
}

// Close ends the bridge: every link to the manager, every CDP link. It
// sends nothing to the editor's sessions. Events after it are dropped.
func (br *Bridge) Close() {
	br.mu.Lock()
	br.closed = true
	links := br.links
	br.links = nil
	sessions := slices.Collect(maps.Values(br.sessions))
	br.mu.Unlock()
	br.cancel()
	for _, l := range links {
		l.wait()
	}
	br.cdpWG.Wait()
	for _, b := range sessions {
		b.unlinkCDP()
	}
}
