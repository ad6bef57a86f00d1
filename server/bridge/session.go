// session.go: one of the editor's own debug sessions (a Session), as an
// inspect.Target: each DAP request runs in the editor (Editor), its state
// follows the tracker's events, and the top frame of a stop is learnt from
// the editor's own stackTrace (kind frame) instead of asked.

package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/adapter"
)

// Session is one of the editor's sessions, reached through the extension.
type Session struct {
	id        string // VS Code session id
	name      string
	debugType string
	adapter   string
	ed        Editor

	mu       sync.Mutex
	status   string
	threadID int
	stopped  bool
	updated  time.Time
	stops    int           // stops seen: the probe drops its cached row orders at a new one
	top      int           // the stopped thread's top frame, when topKnown
	topLine  int           // its line (0: not reported)
	topPath  string        // its source path ("": not reported)
	cdp      *cdpLink      // js-debug's CDP proxy (cdp.go); nil if none
	topKnown bool          // learnt at this stop (kind frame)
	topReady chan struct{} // closed when this stop's top frame is learnt
	frames   bool          // the extension reports top frames (kind frame)
	values   *sync.Map
	link     *dapLink // its session.Manager session (dap.go); nil if none
	linked   bool     // a link was tried
}

// Request runs one DAP request in the editor's session (a probe evaluate
// of a js-debug session through its CDP proxy when it can) and decodes the
// response body into out (nil: dropped).
func (b *Session) Request(ctx context.Context, command string, args any, out any) error {
	if command == "evaluate" && b.kind() == adapter.Node {
		args = withFrameZero(args)
		if done, err := b.evaluateViaCDP(ctx, args, out); done {
			return err
		}
	}
	if command == "evaluate" && sideEffectChecked(args) {
		// js-debug's DAP evaluate has no such check: never hand it an
		// expression (a browse filter) that must not change the program.
		return &errcode.Error{Code: errcode.NotSupported,
			Message: "a side-effect-checked evaluation (a browse filter) runs only through js-debug's CDP proxy, in the top frame of a stop: this session or frame cannot",
			Hint:    "browse without a filter, or in the top frame"}
	}
	if b.kind() == adapter.Node {
		var err error
		if args, err = b.withRealTopFrame(ctx, command, args); err != nil {
			return fmt.Errorf("%s through the editor: %w", command, err)
		}
	}
	raw, err := b.ed.DAPRequest(ctx, b.id, command, args)
	if err != nil {
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

// Adapter is the adapter kind of the session's language.
func (b *Session) Adapter() string { return b.adapter }

// DebugType is the editor's debug type: the inspector writes probe calls
// in its adapter's form (CodeLLDB's, inspect/probe_lldb.go).
func (b *Session) DebugType() string { return b.debugType }

// kind is the adapter kind the extension reported ("" when unknown).
func (b *Session) kind() adapter.Kind {
	k, _ := adapter.ParseKind(b.adapter)
	return k
}

// Language is the debuggee's language, from the adapter kind (inspect.Target).
func (b *Session) Language() inspect.Language { return adapter.LanguageOf(b.adapter) }

// Paused is the stopped thread, while the session is paused.
func (b *Session) Paused() (int, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.threadID, b.stopped
}

// Status is running, paused or completed ("" before the first event).
func (b *Session) Status() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.status
}

// Values is the inspector's scratch state for the session.
func (b *Session) Values() *sync.Map { return b.values }

// topFrameWait bounds how long an inspection right after a stop waits for
// the editor's own stackTrace to tell the top frame (VS Code asks at once;
// asking ourselves costs a customRequest round trip, 50–600 ms in e2e).
var topFrameWait = 300 * time.Millisecond

// KnownTopFrame is the stopped thread's top frame as the editor's own
// stackTrace of this stop gave it (inspect then asks no stackTrace: each
// request through VS Code's customRequest is a round trip through the
// workbench). Right after a stop it waits up to topFrameWait for it, when
// the extension reports frames at all.
func (b *Session) KnownTopFrame(ctx context.Context, threadID int) (int, bool) {
	if id, ok := b.waitTopFrame(ctx, threadID); ok {
		return id, true
	}
	// Not (yet) told by the editor: with js-debug's CDP proxy linked, V8's
	// top call frame stands for it (cdp.go).
	b.mu.Lock()
	same := threadID == b.threadID
	b.mu.Unlock()
	if _, ok := b.cdpTop(); ok && same {
		return cdpTopFrame, true
	}
	return 0, false
}

// waitTopFrame is the editor's id of the top frame (see KnownTopFrame).
func (b *Session) waitTopFrame(ctx context.Context, threadID int) (int, bool) {
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
func (b *Session) StopGen() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.stops
}

// apply follows one event of the session.
func (b *Session) apply(ev Event) {
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

// Info describes the session.
func (b *Session) Info() Info {
	b.mu.Lock()
	defer b.mu.Unlock()
	return Info{VSCodeSessionID: b.id, Name: b.name, DebugType: b.debugType, Adapter: b.adapter, Status: b.status, ThreadID: b.threadID, UpdatedAt: b.updated}
}

// KnownTopStackFrame is the top frame as the editor's stackTrace of this
// stop gave it (id and source path as the editor gave it), for a hover to
// find the hovered file's frame without a request.
func (b *Session) KnownTopStackFrame() (godap.StackFrame, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.topKnown || !b.stopped || b.topPath == "" {
		return godap.StackFrame{}, false
	}
	return godap.StackFrame{Id: b.top, Line: b.topLine, Source: &godap.Source{Path: b.topPath}}, true
}
