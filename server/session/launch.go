// launch.go: how a session starts — the adapter's driver chosen by name,
// the adapter process (or connection) wrapped in a mux and a registered
// session, and the headless ways in: Launch (validated, then the driver's
// launch arguments) and Attach.

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// LaunchSpec describes a headless launch.
type LaunchSpec struct {
	Adapter     string            `json:"adapter,omitempty"` // an adapter.Kind or alias ("": from the program's extension, else adapter.Default)
	Program     string            `json:"program,omitempty"` // workspace-relative
	Module      string            `json:"module,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	Breakpoints []Breakpoint      `json:"breakpoints,omitempty"`
	StopOnEntry bool              `json:"stop_on_entry,omitempty"`
	// RuntimeExecutable is the node that runs the program (node only; a
	// name on PATH, an absolute path, or one relative to the workspace;
	// "": ManagerOptions.Node). TypeScript needs Node >= 22.6.
	RuntimeExecutable string `json:"runtime_executable,omitempty"`
	// Subprocesses: follow the program's subprocesses, each a session of
	// its own under this one (debugpy; nil: true). False runs them
	// undebugged.
	Subprocesses *bool `json:"subprocesses,omitempty"`
}

// AttachSpec attaches to a debuggee that waits for debuggers on host:port:
// debugpy's adapter that its listen() started, or (Adapter "node") the V8
// inspector of a node started with --inspect=HOST:PORT; or (Adapter
// "lldb") to the running process Pid.
type AttachSpec struct {
	Adapter     string       `json:"adapter,omitempty"` // an adapter.Kind or alias ("": debugpy)
	Host        string       `json:"host,omitempty"`    // loopback unless in ManagerOptions.AttachHosts
	Port        int          `json:"port"`
	Pid         int          `json:"pid,omitempty"`         // a process id, for adapters that attach to one (lldb)
	Program     string       `json:"program,omitempty"`     // the pid's binary, optional (lldb: its symbols and formatters)
	Breakpoints []Breakpoint `json:"breakpoints,omitempty"` // set before configurationDone
	// ConnectTimeout bounds connecting and the adapter's first answer
	// (default DefaultConnectTimeout).
	ConnectTimeout time.Duration `json:"connect_timeout,omitempty"`
	// Subprocesses as in LaunchSpec (debugpy; nil: true).
	Subprocesses *bool `json:"subprocesses,omitempty"`
	// JustMyCode (debugpy; nil: the driver's default, true) false also
	// stops and steps in libraries: a debuggee that stops itself inside a
	// library (Ray's set_trace) needs it.
	JustMyCode *bool `json:"just_my_code,omitempty"`
}

// DefaultConnectTimeout bounds an attach's connect and first answer.
const DefaultConnectTimeout = 10 * time.Second

// attachHostAllowed: loopback hosts always; others only when listed.
func (m *Manager) attachHostAllowed(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	if ip := net.ParseIP(strings.Trim(host, "[]")); ip != nil && ip.IsLoopback() {
		return true
	}
	for _, h := range m.opts.AttachHosts {
		if strings.EqualFold(strings.TrimSpace(h), host) {
			return true
		}
	}
	return false
}

// driverOf is the driver an adapter name of the API means ("": the one the
// program's extension implies, else the default).
func driverOf(name, program string) (adapter.Driver, error) {
	k, err := adapter.KindFor(name, program)
	if err == nil {
		var d adapter.Driver
		if d, err = adapter.DriverFor(k); err == nil {
			return d, nil
		}
	}
	return nil, errcode.Invalid("adapter", "%s", err.Error())
}

// kindsThat names the kinds whose targets pass ok, for a message.
func kindsThat(ok func(adapter.Targets) bool) string {
	var names []string
	for _, k := range adapter.Kinds() {
		if d, err := adapter.DriverFor(k); err == nil && ok(d.Targets()) {
			names = append(names, string(k))
		}
	}
	return strings.Join(names, " or ")
}

// newLive starts the adapter + mux + watcher and registers the session. dir
// is the adapter's working directory ("" for the workspace), exe the
// executable it runs ("": the manager's for its kind).
func (m *Manager) newLive(ctx context.Context, origin string, d adapter.Driver, dir, exe string) (*Session, error) {
	if dir == "" {
		dir = m.opts.Workspace
	}
	if exe == "" {
		exe = m.exes[d.Kind()]
	}
	ad, err := m.warm.Start(ctx, d, adapter.StartConfig{Exe: exe, Dir: dir, Logger: m.log}) // a spare if one is ready
	if err != nil {
		return nil, &errcode.Error{Code: errcode.LaunchFailed, Message: err.Error()}
	}
	return m.newLiveOn(ctx, origin, d, ad)
}

// newLiveOn wraps an adapter (started or dialed) in a mux and a session.
func (m *Manager) newLiveOn(ctx context.Context, origin string, d adapter.Driver, ad *adapter.Adapter) (*Session, error) {
	var s *Session
	smart := newSmartValues(nil, m.log, !m.opts.DisableSmartValues)
	mx := mux.New(ad.Conn(), mux.Options{
		Logger:   m.log,
		Rewriter: smart, RewriteBudget: m.opts.SmartValuesBudget,
		Handler: func(ctx context.Context, cmd string, args json.RawMessage) (any, error) {
			return m.custom(ctx, s, cmd, args)
		},
		Reverse: func(cmd string, args json.RawMessage) (any, error) {
			if cmd == "startDebugging" && d.Kind() == adapter.Debugpy {
				return s.onStartDebugging(args) // a subprocess (children.go)
			}
			return nil, fmt.Errorf("%s is not supported in a headless session", cmd)
		},
		CheckLaunch: func(cmd string, args json.RawMessage) error { return s.checkLaunch(cmd, args) },
		EditLaunch:  func(cmd string, args json.RawMessage) json.RawMessage { return s.editLaunch(cmd, args) },
		// An editor leaving an attached debuggee: undo the first-stop fix first.
		BeforeDisconnect: func(ctx context.Context) { s.undoFirstStop(ctx) },
		// The frame ids the editor is handed are frames of the stop (frames.go).
		FramesSeen: func(args json.RawMessage, resp []byte) { s.editorFrames(args, resp) },
	})
	s, err := m.register(origin, d, ad, mx)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	smart.t, smart.log, s.smart = s, s.log, smart // before any editor traffic
	s.log.Info("session started", "origin", origin, "adapter", ad.Kind, "pid", ad.PID())
	m.serve(s, mx, ad, m.opts.EventBuffer) // 0: mux's default
	return s, nil
}

// serve follows s's events (a subscription of buffer events, its losses
// reported with s's outcome) and runs mx until the adapter is gone, then
// closes ad: a crashed or ended adapter's process is reaped, so nothing is
// orphaned.
func (m *Manager) serve(s *Session, mx *mux.Mux, ad *adapter.Adapter, buffer int) {
	sub := mx.Subscribe(buffer)
	s.events.Store(sub)
	s.bg.Add(1)
	go s.watch(sub)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		_ = mx.Run()
		_ = ad.Close()
	}()
}

// Launch starts a program headless: adapter, initialize, launch,
// breakpoints, configurationDone. It returns once the launch is confirmed.
func (m *Manager) Launch(ctx context.Context, spec LaunchSpec) (*Session, error) {
	d, err := driverOf(spec.Adapter, spec.Program)
	if err != nil {
		return nil, err
	}
	targets := d.Targets()
	var program, cwd string
	switch {
	case spec.Program != "" && spec.Module != "":
		return nil, errcode.Invalid("program", "give program or module, not both")
	case spec.Program != "":
		if program, err = existingFile(m.opts.Workspace, "program", spec.Program, targets.Dirs); err != nil {
			return nil, err
		}
	case spec.Module != "":
		if !targets.Modules {
			return nil, errcode.Invalid("module", "modules are for %s", kindsThat(func(t adapter.Targets) bool { return t.Modules }))
		}
	default:
		return nil, errcode.Invalid("program", "required (or module)")
	}
	if err := validateArgsEnv(spec.Args, spec.Env); err != nil {
		return nil, err
	}
	exe := m.exes[d.Kind()]
	if spec.RuntimeExecutable != "" {
		if exe, err = m.runtimeExecutable(d.Kind(), spec.RuntimeExecutable); err != nil {
			return nil, err
		}
	}
	cwd = m.opts.Workspace
	if spec.Cwd != "" {
		if cwd, err = existingFile(m.opts.Workspace, "cwd", spec.Cwd, true); err != nil {
			return nil, err
		}
	}
	byFile, err := validateBreakpoints(m.opts.Workspace, spec.Breakpoints, "breakpoints")
	if err != nil {
		return nil, err
	}
	follow := d.Kind() == adapter.Debugpy && (spec.Subprocesses == nil || *spec.Subprocesses)
	if s, ok := m.launchOnSpare(ctx, d, spec, program, cwd, exe, follow, byFile); ok { // spare.go
		return s, nil
	}
	s, err := m.newLive(ctx, OriginHeadless, d, d.Dir(program), exe)
	if err != nil {
		return nil, err
	}
	m.launched(s, spec, program, follow)

	cfg := adapter.LaunchConfig{
		Program: program, Module: spec.Module, Args: spec.Args, Env: spec.Env, Cwd: cwd, StopOnEntry: spec.StopOnEntry,
		Exe: exe, Scratch: filepath.Join(os.TempDir(), "dapscope-"+s.id[:8]),
		InterruptTimeout: m.opts.InterruptTimeout, Workspace: m.opts.Workspace, NoSubprocesses: !follow,
	}
	if err := s.start(ctx, "launch", d.LaunchArgs(cfg), byFile); err != nil {
		s.end(context.Background())
		if err2 := withOutputTail(err, s); err2 != err {
			return nil, err2
		}
		// Nothing captured: ask the driver why the debuggee did not start.
		if why := d.Diagnose(ctx, cfg); why != "" {
			var se *errcode.Error
			if errors.As(err, &se) {
				return nil, &errcode.Error{Code: se.Code, Field: se.Field, Message: se.Message + "\nthe debuggee could not start:\n" + why}
			}
		}
		return nil, err
	}
	return s, nil
}

// launched records what a headless launch runs.
func (m *Manager) launched(s *Session, spec LaunchSpec, program string, follow bool) {
	s.mu.Lock()
	s.program, s.module, s.args = program, spec.Module, spec.Args
	for k := range spec.Env {
		s.envKeys = append(s.envKeys, k)
	}
	sort.Strings(s.envKeys)
	if s.driver.Kind() == adapter.Debugpy {
		s.interrupt = m.opts.InterruptTimeout // pydevd interrupts a stuck evaluation
	}
	s.mu.Unlock()
	s.tree.mu.Lock()
	s.tree.follow = follow
	s.tree.mu.Unlock()
}

// withOutputTail adds the last lines the program or adapter printed (a
// build error, an import error) to a launch failure.
func withOutputTail(err error, s *Session) error {
	var se *errcode.Error
	if !errors.As(err, &se) {
		return err
	}
	p := s.Output(0, 1<<20)
	out := strings.TrimSpace(p.Data)
	if out == "" {
		return err
	}
	if len(out) > 2048 {
		out = "…" + out[len(out)-2048:]
	}
	return &errcode.Error{Code: se.Code, Field: se.Field, Message: se.Message + "\noutput:\n" + out}
}

// Attach connects to a debuggee waiting on host:port: to debugpy's adapter
// directly as a DAP client, or through the node adapter to V8's inspector.
func (m *Manager) Attach(ctx context.Context, spec AttachSpec) (*Session, error) {
	if spec.Pid != 0 {
		return m.attachPid(ctx, spec)
	}
	if spec.Host == "" {
		spec.Host = "127.0.0.1"
	}
	if spec.Port <= 0 || spec.Port > 65535 {
		return nil, errcode.Invalid("port", "must be 1..65535")
	}
	if !m.attachHostAllowed(spec.Host) {
		return nil, errcode.Invalid("host", "%q is not a loopback address; other hosts must be allowed explicitly (dapscope --attach-hosts %s)", clip.Bytes.Head(spec.Host, 200), clip.Bytes.Head(spec.Host, 200))
	}
	if spec.ConnectTimeout <= 0 {
		spec.ConnectTimeout = DefaultConnectTimeout
	}
	byFile, err := validateBreakpoints(m.opts.Workspace, spec.Breakpoints, "breakpoints")
	if err != nil {
		return nil, err
	}
	if spec.Adapter == "" {
		spec.Adapter = string(adapter.Debugpy)
	}
	d, err := driverOf(spec.Adapter, "")
	if err != nil {
		return nil, err
	}
	plan, err := d.Attach(spec.Host, spec.Port)
	if err != nil {
		return nil, errcode.Invalid("adapter", "%s", err.Error())
	}
	if d.Kind() == adapter.Node && plan.Args != nil {
		if len(m.opts.AttachHosts) > 0 {
			// The Node adapter checks every hop (/json/list's websocket URL,
			// redirects, resolved addresses) against the same rule.
			plan.Args["dapscopeAllowHosts"] = m.opts.AttachHosts
		}
		// The paths the program's source maps name must be in it.
		plan.Args["dapscopeWorkspace"] = m.opts.Workspace
	}
	hostPort := net.JoinHostPort(spec.Host, strconv.Itoa(spec.Port))
	dctx, cancel := context.WithTimeout(ctx, spec.ConnectTimeout)
	defer cancel()
	var s *Session
	if plan.Dial {
		ad, err := adapter.Dial(dctx, d.Kind(), hostPort)
		if err != nil {
			return nil, &errcode.Error{Code: errcode.LaunchFailed, Message: err.Error() + " (is a debug adapter listening there? e.g. python -m debugpy --listen PORT)"}
		}
		if s, err = m.newLiveOn(ctx, OriginHeadless, d, ad); err != nil {
			_ = ad.Close()
			return nil, err
		}
	} else if s, err = m.newLive(ctx, OriginHeadless, d, "", ""); err != nil {
		return nil, err
	}
	s.attached.Store(true)
	if d.Kind() == adapter.Debugpy {
		follow := spec.Subprocesses == nil || *spec.Subprocesses
		s.tree.mu.Lock()
		s.tree.follow = follow
		s.tree.mu.Unlock()
		plan.Args["subProcess"] = follow
		if spec.JustMyCode != nil {
			plan.Args["justMyCode"] = *spec.JustMyCode
		}
	}
	// Something that accepts the connection but never speaks DAP must not
	// hold the attach for the whole start-up bound.
	if err := s.mux.Call(dctx, "initialize", initializeArgs(d.AdapterID()), nil); err != nil {
		s.end(context.Background())
		m.Remove(s.id) // a failed attach is reported, not listed
		if dctx.Err() != nil {
			return nil, &errcode.Error{Code: errcode.LaunchFailed, Message: fmt.Sprintf("%s accepted the connection but no debug adapter answered within %s", hostPort, spec.ConnectTimeout)}
		}
		return nil, &errcode.Error{Code: errcode.LaunchFailed, Message: "initialize: " + wrap(err).Error()}
	}
	s.initialized = true
	if err := s.start(ctx, "attach", plan.Args, byFile); err != nil {
		s.end(context.Background())
		m.Remove(s.id)
		return nil, err
	}
	return s, nil
}
