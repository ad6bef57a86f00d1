// vscode.go: VS Code with the dapscope extension for one session of the
// editor's own debugger, on a real adapter: the daptest client on the
// adapter's connection (as VS Code talks to js-debug or the Python
// extension's debugpy), the extension's tracker forwarding the adapter's
// events as bridge events, and its answers to the bridge's requests run on
// the adapter. JSDebugIDs renumbers a real adapter's threads and frames the
// way js-debug does (thread 0, frames from 0).

package bridgetest

import (
	"context"
	"encoding/json"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// JSDebugIDs renumbers a real adapter's thread and frame ids as js-debug
// does: thread 0, frames 0, 1, 2… in the order they are first seen.
type JSDebugIDs struct {
	mu         sync.Mutex
	realThread int
	toReal     map[int]int // js-debug frame id → real frame id
	fromReal   map[int]int
}

// NewJSDebugIDs numbers the thread realThread 0.
func NewJSDebugIDs(realThread int) *JSDebugIDs {
	return &JSDebugIDs{realThread: realThread, toReal: map[int]int{}, fromReal: map[int]int{}}
}

// SetRealThread changes the real thread that js-debug's thread 0 is.
func (m *JSDebugIDs) SetRealThread(id int) {
	m.mu.Lock()
	m.realThread = id
	m.mu.Unlock()
}

func (m *JSDebugIDs) frame(real int) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id, ok := m.fromReal[real]; ok {
		return id
	}
	id := len(m.toReal)
	m.toReal[id], m.fromReal[real] = real, id
	return id
}

// Args rewrites a request's threadId/frameId to the real adapter's.
func (m *JSDebugIDs) Args(raw json.RawMessage) (map[string]any, error) {
	var a map[string]any
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := a["threadId"]; ok {
		a["threadId"] = m.realThread
	}
	if f, ok := a["frameId"].(float64); ok {
		a["frameId"] = m.toReal[int(f)]
	}
	return a, nil
}

// Body rewrites a stackTrace response's frame ids to js-debug's.
func (m *JSDebugIDs) Body(command string, raw json.RawMessage) json.RawMessage {
	if command != "stackTrace" {
		return raw
	}
	var b map[string]any
	if json.Unmarshal(raw, &b) != nil {
		return raw
	}
	frames, _ := b["stackFrames"].([]any)
	for _, f := range frames {
		if fm, ok := f.(map[string]any); ok {
			if id, ok := fm["id"].(float64); ok {
				fm["id"] = m.frame(int(id))
			}
		}
	}
	out, _ := json.Marshal(b)
	return out
}

// NotForwarded are the events the extension's tracker keeps to itself
// (bridge.ts): many, and of no use to a session.
var NotForwarded = []string{"loadedSource", "module", "progressStart", "progressUpdate", "progressEnd", "initialized", "capabilities", "invalidated", "memory"}

// VSCode is VS Code plus the extension for one bridged session.
type VSCode struct {
	Event bridge.Event    // the session's identity in its events
	DAP   *daptest.Client // VS Code's connection to the adapter
	// IDs (nil: the adapter's own) is js-debug's numbering; set before
	// Forward.
	IDs *JSDebugIDs

	t    testing.TB
	emit func(bridge.Event)
	stop chan struct{}
	fwd  sync.WaitGroup
}

// NewVSCode starts the adapter kind and initializes it as VS Code does.
// emit delivers the tracker's events (the bridge's Handle, or the
// channel's dapscope/bridgeEvent).
func NewVSCode(t testing.TB, kind adapter.Kind, ev bridge.Event, emit func(bridge.Event), log *slog.Logger) *VSCode {
	t.Helper()
	d, err := adapter.DriverFor(kind)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ad, err := d.Start(ctx, adapter.StartConfig{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	v := &VSCode{Event: ev, DAP: daptest.New(t, ad.Conn()), t: t, emit: emit, stop: make(chan struct{})}
	t.Cleanup(func() { _ = ad.Close() })
	v.DAP.Initialize(daptest.InitArgs("vscode", d.AdapterID()))
	return v
}

// Notify sends an event of kind for this session, changed by mod.
func (v *VSCode) Notify(kind string, mod func(*bridge.Event)) {
	ev := v.Event
	ev.Kind = kind
	if mod != nil {
		mod(&ev)
	}
	v.emit(ev)
}

// Forward plays the tracker until the test ends: every adapter event, in
// order, as bridge.ts reports it (polling the client's transcript; the
// scripted VS Code takes the messages it waits for from its own queue).
func (v *VSCode) Forward() {
	v.fwd.Add(1)
	go func() {
		defer v.fwd.Done()
		next := 0
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-v.stop:
				return
			case <-tick.C:
			}
			msgs := v.DAP.Transcript()
			for ; next < len(msgs); next++ {
				m := msgs[next]
				if m.Env.Type == "event" && !slices.Contains(NotForwarded, m.Env.Event) {
					v.forwardEvent(m.Env.Event, m.Body)
				}
			}
		}
	}()
	v.t.Cleanup(func() { close(v.stop); v.fwd.Wait() })
}

func (v *VSCode) forwardEvent(name string, body json.RawMessage) {
	var b struct {
		ThreadID          int    `json:"threadId"`
		Reason            string `json:"reason"`
		AllThreadsStopped bool   `json:"allThreadsStopped"`
	}
	_ = json.Unmarshal(body, &b)
	if v.IDs != nil && (name == "stopped" || name == "continued" || name == "thread") {
		v.IDs.SetRealThread(b.ThreadID)
		b.ThreadID = 0
		var m map[string]any
		_ = json.Unmarshal(body, &m)
		m["threadId"] = 0
		body, _ = json.Marshal(m)
	}
	switch name {
	case "stopped":
		v.Notify("stopped", func(ev *bridge.Event) {
			ev.ThreadID, ev.Reason, ev.AllThreadsStopped, ev.Body = b.ThreadID, b.Reason, b.AllThreadsStopped, body
		})
	case "continued":
		v.Notify("continued", func(ev *bridge.Event) { ev.ThreadID, ev.Body = b.ThreadID, body })
	case "terminated":
		v.Notify("terminated", func(ev *bridge.Event) { ev.Body = body })
	default:
		v.Notify("event", func(ev *bridge.Event) { ev.Event, ev.Body = name, body })
	}
}

// Answer runs a request on the adapter, as session.customRequest does (the
// adapter's error message on failure).
func (v *VSCode) Answer(_ context.Context, r Request) (json.RawMessage, error) {
	var args any
	if len(r.Arguments) > 0 {
		args = r.Arguments
		if v.IDs != nil {
			a, err := v.IDs.Args(r.Arguments)
			if err != nil {
				return nil, err
			}
			args = a
		}
	}
	m := v.DAP.Response(v.DAP.Send(r.Command, args))
	if !m.Success() {
		return nil, &bridge.EditorError{Message: m.Env.Message}
	}
	body := m.Body
	if v.IDs != nil {
		body = v.IDs.Body(r.Command, body)
	}
	return body, nil
}
