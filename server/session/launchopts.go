// launchopts.go: the sidecar's own options carried in an editor's launch or
// attach arguments (the same keys as the VS Code `dapscope` debug type):
// `adapter` must name the adapter this proxy runs, `nodelay` turns the
// adapter's first-stop fix (pydevd's TCP_NODELAY, and with it the wake
// patch) on or off for this session, `fastWake` the wake patch alone,
// `smartValues` the smart values. The request itself is forwarded
// untouched; adapters ignore keys they do not know.

package session

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"

	"github.com/dapscope/dapscope/server/adapter"
)

// LaunchOptions are the sidecar options read from launch/attach arguments.
type LaunchOptions struct {
	Adapter string `json:"adapter,omitempty"`
	NoDelay *bool  `json:"nodelay,omitempty"`
	// FastWake off keeps pydevd's 10 ms poll on stopped threads.
	FastWake *bool `json:"fastWake,omitempty"`
	// SmartValues off keeps the adapter's own values in the editor's views.
	SmartValues *bool `json:"smartValues,omitempty"`
	// Program is the launch's program (read, never checked here: the
	// adapter does), for the kind its extension implies.
	Program string `json:"-"`
}

// parseLaunchOptions reads the sidecar's keys, with an error that names the
// key when one has the wrong type or value.
func parseLaunchOptions(args json.RawMessage) (LaunchOptions, error) {
	var raw struct {
		Adapter json.RawMessage `json:"adapter"`
		NoDelay json.RawMessage `json:"nodelay"`
		Wake    json.RawMessage `json:"fastWake"`
		Smart   json.RawMessage `json:"smartValues"`
		Program json.RawMessage `json:"program"`
	}
	var o LaunchOptions
	if len(args) == 0 || json.Unmarshal(args, &raw) != nil {
		return o, nil // not an object: the adapter will say what is wrong
	}
	if raw.Adapter != nil && string(raw.Adapter) != "null" {
		if err := json.Unmarshal(raw.Adapter, &o.Adapter); err != nil {
			return o, fmt.Errorf(`dapscope: "adapter" must be a string (%s), got %s`, adapter.KindList("%q"), raw.Adapter)
		}
		// "" is not a name here: a configuration that names no adapter
		// leaves the key out.
		if _, err := adapter.ParseKind(o.Adapter); err != nil || o.Adapter == "" {
			return o, fmt.Errorf(`dapscope: unknown "adapter" %q (want %s)`, o.Adapter, adapter.KindList("%q"))
		}
	}
	_ = json.Unmarshal(raw.Program, &o.Program) // not a string: the adapter says so
	for _, f := range []struct {
		key string
		raw json.RawMessage
		dst **bool
	}{{"nodelay", raw.NoDelay, &o.NoDelay}, {"fastWake", raw.Wake, &o.FastWake}, {"smartValues", raw.Smart, &o.SmartValues}} {
		if f.raw == nil || string(f.raw) == "null" {
			continue
		}
		var b bool
		if err := json.Unmarshal(f.raw, &b); err != nil {
			return o, fmt.Errorf(`dapscope: %q must be true or false, got %s`, f.key, f.raw)
		}
		*f.dst = &b
	}
	return o, nil
}

// checkLaunch is the mux's CheckLaunch hook for s: it refuses a
// configuration meant for another adapter (instead of letting this adapter
// fail on it obscurely) and applies the session's options.
func (s *Session) checkLaunch(command string, args json.RawMessage) error {
	o, err := parseLaunchOptions(args)
	if err != nil {
		return err
	}
	if command == "attach" {
		s.attached.Store(true) // the debuggee outlives the session
	}
	if o.Adapter != "" {
		if want, _ := adapter.ParseKind(o.Adapter); want != s.kind {
			return fmt.Errorf("dapscope: this %s asks for adapter %q but this proxy runs %s; start it with `dapscope dap --adapter %s`", command, o.Adapter, s.kind, want)
		}
	} else if want, ok := adapter.KindForPath(o.Program); ok && command == "launch" && want != s.kind {
		// The adapter runs before the editor's initialize, so the program
		// cannot choose it here: say which one it needs.
		return fmt.Errorf("dapscope: %s is debugged by the %s adapter but this proxy runs %s; start it with `dapscope dap --adapter %s` (or add \"adapter\": %q to the configuration)", clip.Bytes.Head(filepath.Base(o.Program), 200), want, s.kind, want, want)
	}
	if o.NoDelay != nil {
		s.mu.Lock()
		s.noDelay = *o.NoDelay
		s.mu.Unlock()
		s.log.Debug("launch options", "nodelay", *o.NoDelay)
	}
	if o.FastWake != nil {
		s.mu.Lock()
		s.fastWake = *o.FastWake
		s.mu.Unlock()
		s.log.Debug("launch options", "fastWake", *o.FastWake)
	}
	if o.SmartValues != nil && s.smart != nil {
		s.smart.on.Store(*o.SmartValues)
		s.log.Debug("launch options", "smartValues", *o.SmartValues)
	}
	return nil
}

// editLaunch is the mux's EditLaunch hook: an editor's lldb launch or
// attach of a Rust binary gets the Rust toolchain's formatters as its
// first initCommands (as the sidecar's own lldb sessions do), unless it
// loads them itself.
func (s *Session) editLaunch(command string, args json.RawMessage) json.RawMessage {
	if s.kind != adapter.LLDB {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal(args, &m); err != nil || m == nil {
		return nil
	}
	program, _ := m["program"].(string)
	cmds := adapter.InitCommands(program)
	if len(cmds) == 0 {
		if program != "" && adapter.IsRust(program) {
			s.log.Warn("a Rust program without the Rust formatters: `rustc --print sysroot` failed or has no lib/rustlib/etc/lldb_lookup.py", "program", program, "err", adapter.RustFormattersError())
		}
		return nil
	}
	s.log.Debug("lldb: the Rust formatters added to the editor's "+command, "program", program)
	init := make([]any, 0, len(cmds))
	for _, c := range cmds {
		init = append(init, c)
	}
	if old, ok := m["initCommands"].([]any); ok {
		for _, c := range old {
			if str, _ := c.(string); strings.Contains(str, "lldb_lookup") {
				return nil
			}
		}
		init = append(init, old...)
	}
	m["initCommands"] = init
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}
