// This file holds bridged sessions: debug sessions of other types (e.g. the
// Python extension's debugpy) that the editor reports through a tracker. They
// implement inspect.Target by sending each DAP request back to the extension
// (`dapscope/dapRequest`), which runs it with session.customRequest.

package editor

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	godap "github.com/google/go-dap"
	"go.lsp.dev/jsonrpc2"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/adapter"
)

// BridgeEvent is what the extension's tracker reports (dapscope/bridgeEvent).
type BridgeEvent struct {
	VSCodeSessionID string `json:"vscodeSessionId"`
	DebugType       string `json:"debugType"`
	Name            string `json:"name"`
	Adapter         string `json:"adapter"`
	Kind            string `json:"kind"` // started | stopped | continued | terminated | event | frame | cdp
	ThreadID        int    `json:"threadId,omitempty"`
	FrameID         int    `json:"frameId,omitempty"` // kind frame: the top frame, from the editor's first stackTrace of the stop
	Line            int    `json:"line,omitempty"`    // kind frame: the top frame's line
	Path            string `json:"path,omitempty"`    // kind frame: the top frame's source path
	// CDP (kind cdp) is js-debug's CDP proxy for the session (bridgecdp.go).
	CDP               *CDPAddress `json:"cdp,omitempty"`
	Reason            string      `json:"reason,omitempty"`
	AllThreadsStopped bool        `json:"allThreadsStopped,omitempty"`
	// Event and Body are the DAP event as the debug adapter sent it: Body
	// for stopped, continued and terminated, both for kind "event" (output,
	// thread, exited, breakpoint…).
	Event string          `json:"event,omitempty"`
	Body  json.RawMessage `json:"body,omitempty"`
}

// bridged is one editor-owned session reached through the extension.
type bridged struct {
	id        string // VS Code session id
	name      string
	debugType string
	adapter   string
	conn      jsonrpc2.Conn

	mu       sync.Mutex
	status   string
	threadID int
	stopped  bool
	updated  time.Time
	stops    int           // stops seen: the probe drops its cached row orders at a new one
	top      int           // the stopped thread's top frame, when topKnown
	topLine  int           // its line (0: not reported)
	topPath  string        // its source path ("": not reported)
	cdp      *cdpLink      // js-debug's CDP proxy (bridgecdp.go); nil if none
	topKnown bool          // learnt at this stop (kind frame)
	topReady chan struct{} // closed when this stop's top frame is learnt
	frames   bool          // the extension reports top frames (kind frame)
	values   *sync.Map
	link     *dapLink // its session.Manager session (bridgedap.go); nil if none
	linked   bool     // a link was tried
}

func (b *bridged) Request(ctx context.Context, command string, args any, out any) error {
	if command == "evaluate" && b.adapter == "node" {
		args = withFrameZero(args)
		if done, err := b.evaluateViaCDP(ctx, args, out); done {
			return err
		}
	}
	if b.adapter == "node" {
		var err error
		if args, err = b.withRealTopFrame(ctx, command, args); err != nil {
			return fmt.Errorf("%s through the editor: %w", command, err)
		}
	}
	var raw json.RawMessage
	params := map[string]any{"vscodeSessionId": b.id, "command": command, "arguments": args}
	if _, err := b.conn.Call(ctx, "dapscope/dapRequest", params, &raw); err != nil {
		return fmt.Errorf("%s through the editor: %w", command, err)
	}
	if out == nil || len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, out)
}

// withFrameZero gives an evaluate without a frameId the frame id 0.
// js-debug numbers its frames from 0 (its first stop's top frame is 0),
// while the inspector's request types drop a zero frameId (omitempty), and
// js-debug would then evaluate globally ("x is not defined"). The inspector
// always evaluates in a resolved frame on a paused session, so a missing
// frameId on this path can only mean frame 0.
func withFrameZero(args any) any {
	raw, err := json.Marshal(args)
	if err != nil {
		return args
	}
	var m map[string]any
	if json.Unmarshal(raw, &m) != nil || m == nil {
		return args
	}
	if _, ok := m["frameId"]; !ok {
		m["frameId"] = 0
	}
	return m
}

func (b *bridged) Adapter() string { return b.adapter }

// Language is the debuggee's language, from the adapter kind (inspect.Target).
func (b *bridged) Language() inspect.Language { return adapter.LanguageOf(b.adapter) }

func (b *bridged) Paused() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.threadID, b.stopped
}

func (b *bridged) Status() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

func (b *bridged) Values() *sync.Map { return b.values }

// topFrameWait bounds how long an inspection right after a stop waits for
// the editor's own stackTrace to tell the top frame (VS Code asks at once;
// asking ourselves costs a customRequest round trip, 50–600 ms in e2e).
var topFrameWait = 300 * time.Millisecond

// KnownTopFrame is the stopped thread's top frame as the editor's own
// stackTrace of this stop gave it (inspect then asks no stackTrace: each
// request through VS Code's customRequest is a round trip through the
// workbench). Right after a stop it waits up to topFrameWait for it, when
// the extension reports frames at all.
func (b *bridged) KnownTopFrame(ctx context.Context, threadID int) (int, bool) {
	if id, ok := b.waitTopFrame(ctx, threadID); ok {
		return id, true
	}
	// Not (yet) told by the editor: with js-debug's CDP proxy linked, V8's
	// top call frame stands for it (bridgecdp.go).
	b.mu.Lock()
	same := threadID == b.threadID
	b.mu.Unlock()
	if _, ok := b.cdpTop(); ok && same {
		return cdpTopFrame, true
	}
	return 0, false
}

// waitTopFrame is the editor's id of the top frame (see KnownTopFrame).
func (b *bridged) waitTopFrame(ctx context.Context, threadID int) (int, bool) {
	if _, ok := b.cdpTop(); ok {
		// V8's top frame is at hand: use the editor's id only if known now.
		b.mu.Lock()
		defer b.mu.Unlock()
		return b.top, b.topKnown && b.stopped && threadID == b.threadID
	}
	b.mu.Lock()
	top, ok := b.top, b.topKnown && b.stopped && threadID == b.threadID
	ready, wait := b.topReady, b.frames && b.stopped && b.topReady != nil
	b.mu.Unlock()
	if ok || !wait {
		return top, ok
	}
	t := time.NewTimer(topFrameWait)
	defer t.Stop()
	select {
	case <-ready:
	case <-t.C:
	case <-ctx.Done():
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.top, b.topKnown && b.stopped && threadID == b.threadID
}

// StopGen numbers the session's stops (inspect.Browse keys its cache by it).
func (b *bridged) StopGen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stops
}

func (b *bridged) apply(ev BridgeEvent) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.updated = time.Now()
	switch ev.Kind {
	case "started":
		b.status = "running"
	case "stopped":
		b.status, b.stopped = "paused", true
		b.stops++
		b.topKnown, b.topReady = false, make(chan struct{})
		if ev.ThreadID != 0 {
			b.threadID = ev.ThreadID
		}
	case "frame":
		b.frames = true
		if b.stopped && ev.ThreadID == b.threadID && !b.topKnown {
			b.top, b.topLine, b.topPath, b.topKnown = ev.FrameID, ev.Line, ev.Path, true
			if b.topReady != nil {
				close(b.topReady)
				b.topReady = nil
			}
		}
	case "continued":
		b.status, b.stopped = "running", false
		if b.topReady != nil && !b.topKnown {
			close(b.topReady) // nothing to wait for while it runs
		}
		b.topKnown, b.topReady = false, nil
	case "terminated":
		b.status, b.stopped = "completed", false
	}
}

// BridgedInfo describes a bridged session in dapscope/sessions.
type BridgedInfo struct {
	VSCodeSessionID string    `json:"vscodeSessionId"`
	Name            string    `json:"name"`
	DebugType       string    `json:"debugType"`
	Adapter         string    `json:"adapter"`
	Status          string    `json:"status"`
	ThreadID        int       `json:"threadId,omitempty"`
	UpdatedAt       time.Time `json:"updatedAt"`
}

func (b *bridged) info() BridgedInfo {
	b.mu.Lock()
	defer b.mu.Unlock()
	return BridgedInfo{VSCodeSessionID: b.id, Name: b.name, DebugType: b.debugType, Adapter: b.adapter, Status: b.status, ThreadID: b.threadID, UpdatedAt: b.updated}
}

// knownTopStackFrame is the top frame as the editor's stackTrace of this
// stop gave it (id and source path), for the hover to find the hovered
// file's frame without a request.
func (b *bridged) knownTopStackFrame() (godap.StackFrame, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.topKnown || !b.stopped || b.topPath == "" {
		return godap.StackFrame{}, false
	}
	return godap.StackFrame{Id: b.top, Line: b.topLine, Source: &godap.Source{Path: b.topPath}}, true
}
