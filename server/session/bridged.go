// bridged.go: sessions of the editor's own debuggers (VS Code's js-debug,
// the Python extension's debugpy…) registered as first-class sessions. The
// bridge (server/bridge, a virtual adapter) hands over a DAP stream on
// which each request is run in the editor (session.customRequest) and the
// editor's events come back; VS Code initialized and launched the
// session, so the sidecar never sends initialize, launch,
// configurationDone or disconnect on it, never applies a first-stop fix,
// and ending it only forgets it: the user's program is left alone. Only
// the commands in bridgeCommands are sent.

package session

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// OriginBridged is the origin of a session of the editor's own debugger.
const OriginBridged = "bridged"

// bridgeCommands are the DAP commands a bridged session sends (the
// extension allows the same list): reading the paused program, and moving
// it (continue, steps, pause) the way the user's own buttons do. Left out
// on purpose: setBreakpoints (VS Code owns the breakpoints of its
// sessions; a request of ours would replace the user's set for that file),
// setVariable/setExpression (VS Code's views would keep showing the old
// value), and everything that starts or ends the session.
var bridgeCommands = map[string]bool{
	"threads": true, "stackTrace": true, "scopes": true, "variables": true, "evaluate": true,
	"source": true, "exceptionInfo": true,
	"continue": true, "next": true, "stepIn": true, "stepOut": true, "pause": true,
}

// BridgeCommands lists the commands a bridged session sends, sorted.
func BridgeCommands() []string { return slices.Sorted(maps.Keys(bridgeCommands)) }

// BridgeSpec describes a session of the editor's own debugger.
type BridgeSpec struct {
	// Adapter is the adapter kind its debuggee's language means (node for
	// js-debug, debugpy for the Python extension, dlv for Go).
	Adapter   string
	Name      string // the editor's name of the session
	DebugType string // the editor's debug type (pwa-node, debugpy, go…)
	// Conn is the DAP stream: requests written to it run in the editor,
	// and it carries the editor's events and the responses back. The
	// session closes it when it ends.
	Conn io.ReadWriteCloser
}

type bridgeInfo struct {
	name      string
	debugType string
}

// Bridge registers a session of the editor's own debugger. It does not
// start anything: the session follows the events that arrive on the stream.
func (m *Manager) Bridge(spec BridgeSpec) (*Session, error) {
	if spec.Adapter == "" {
		return nil, errcode.Invalid("adapter", "required (the kind of the session's language)")
	}
	d, err := driverOf(spec.Adapter, "")
	if err != nil {
		return nil, err
	}
	if spec.Conn == nil {
		return nil, errcode.Invalid("conn", "required")
	}
	ad := adapter.Over(d.Kind(), spec.Conn)
	var s *Session
	mx := mux.New(ad.Conn(), mux.Options{
		Logger: m.log,
		Reverse: func(cmd string, _ json.RawMessage) (any, error) {
			return nil, fmt.Errorf("%s is not supported on a bridged session", cmd)
		},
	})
	s, err = m.register(OriginBridged, d, ad, mx)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	s.attached.Store(true) // the debuggee is the editor's
	s.mu.Lock()
	s.bridge = &bridgeInfo{name: clip.Bytes.Head(spec.Name, 200), debugType: clip.Bytes.Head(spec.DebugType, 100)}
	s.noDelay = false // never patch a debuggee we did not start
	s.mu.Unlock()
	s.log.Info("bridged session registered", "name", spec.Name, "debugType", spec.DebugType, "adapter", d.Kind())
	m.serve(s, mx, ad, m.opts.EventBuffer)
	return s, nil
}

// Bridged reports whether the session is one of the editor's own debugger.
func (s *Session) Bridged() bool { return s.bridge != nil }

// DebugType is the editor's debug type of a bridged session ("" for the
// others): the inspector writes probe calls in its adapter's form
// (CodeLLDB's, inspect/probe_lldb.go).
func (s *Session) DebugType() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bridge == nil {
		return ""
	}
	return s.bridge.debugType
}

// bridgeRefuses is the error for a command a bridged session does not send.
func (s *Session) bridgeRefuses(command string) error {
	if s.bridge == nil || bridgeCommands[command] {
		return nil
	}
	why := ""
	switch command {
	case "setBreakpoints":
		why = "; VS Code owns this session's breakpoints: set them in the editor"
	case "setVariable", "setExpression":
		why = "; VS Code's views would not show the change: set the value in its Variables view"
	}
	return s.notSupported(command + " is not sent to a session of the editor's own debugger" + why)
}

func (s *Session) notSupported(msg string) error {
	return &errcode.Error{Code: errcode.NotSupported, Message: fmt.Sprintf("%s (session %s, debug type %s; it offers %s)",
		msg, s.id[:8], s.bridge.debugType, strings.Join(BridgeCommands(), ", "))}
}
