// manager.go: the registry of live sessions (headless and editor-attached),
// the active-session default, lifecycle events for subscribers, and the
// ways a session starts: Launch, Attach, and an editor connecting through
// the proxy (ServeEditor / ListenEditor).

package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"
	"github.com/google/uuid"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// CustomHandler answers a "dapscope/…" request arriving on a session.
type CustomHandler func(ctx context.Context, s *Session, args json.RawMessage) (any, error)

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	Workspace string // root for relative paths (default: cwd)
	Python    string // default /usr/bin/python3
	Dlv       string // default: found on PATH or in GOPATH/bin
	// NoDelay applies the pydevd TCP_NODELAY fix at the first stop of a
	// debugpy session. NewManager turns it on unless DisableNoDelay.
	NoDelay        bool
	DisableNoDelay bool
	// InterruptTimeout sets PYDEVD_INTERRUPT_THREAD_TIMEOUT in headless
	// debugpy launches: pydevd interrupts an evaluation stuck longer than
	// this, so a hung expression cannot wedge the session (default 15 s;
	// negative disables). Editor launches are passed through untouched.
	InterruptTimeout time.Duration
	// DisableSmartValues keeps the adapter's own values in the editor's
	// hover, Watch and Variables views (smart values are on by default;
	// a launch configuration's "smartValues": false turns them off too).
	DisableSmartValues bool
	// SmartValuesBudget bounds how long a smart value may hold an editor
	// response (default mux.DefaultRewriteBudget, 50 ms).
	SmartValuesBudget time.Duration
	OpTimeout         time.Duration // default 20 s
	OutputLimit       int           // per-session output buffer (default 10 MB)
	MaxSessions       int           // default 1000
	// AttachHosts are the non-loopback hosts Attach may connect to.
	AttachHosts []string
	Logger      *slog.Logger
	// Custom serves "dapscope/…" requests from editors (e.g. dapscope/inspect).
	Custom map[string]CustomHandler
}

// Event is a session lifecycle event for subscribers (editor channel).
type Event struct {
	SessionID string        `json:"sessionId"`
	Kind      string        `json:"kind"` // stopped | continued | terminated
	Stop      *StopLocation `json:"stop,omitempty"`
}

// Manager owns sessions.
type Manager struct {
	opts ManagerOptions
	log  *slog.Logger

	mu       sync.Mutex
	sessions map[string]*Session
	order    []string
	active   string
	subs     map[chan Event]struct{}
	closed   bool
	wg       sync.WaitGroup
}

// NewManager returns a Manager with defaults filled in.
func NewManager(opts ManagerOptions) *Manager {
	if opts.Workspace == "" {
		opts.Workspace, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(opts.Workspace); err == nil {
		opts.Workspace = abs
	}
	if opts.Python == "" {
		opts.Python = adapter.DefaultPython
	}
	opts.NoDelay = !opts.DisableNoDelay
	if opts.InterruptTimeout == 0 {
		opts.InterruptTimeout = 15 * time.Second
	}
	if opts.OpTimeout <= 0 {
		opts.OpTimeout = 20 * time.Second
	}
	if opts.MaxSessions <= 0 {
		opts.MaxSessions = MaxSessions
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Manager{opts: opts, log: opts.Logger, sessions: map[string]*Session{}, subs: map[chan Event]struct{}{}}
}

// Workspace is the root paths are relative to.
func (m *Manager) Workspace() string { return m.opts.Workspace }

// Options returns the effective options.
func (m *Manager) Options() ManagerOptions { return m.opts }

// Get returns a session by id; "" means the active session.
func (m *Manager) Get(id string) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if id == "" {
		id = m.active
		if id == "" {
			return nil, &Error{Code: CodeNotFound, Field: "session_id", Message: "no active session (launch or attach one first)"}
		}
	}
	s, ok := m.sessions[id]
	if !ok {
		return nil, &Error{Code: CodeNotFound, Field: "session_id", Message: fmt.Sprintf("no session %q", id)}
	}
	return s, nil
}

// Active is the id of the active session ("" when none).
func (m *Manager) Active() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.active
}

// List returns sessions, oldest first.
func (m *Manager) List() []*Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]*Session, 0, len(m.order))
	for _, id := range m.order {
		out = append(out, m.sessions[id])
	}
	return out
}

func (m *Manager) setActive(id string) {
	m.mu.Lock()
	if _, ok := m.sessions[id]; ok {
		m.active = id
	}
	m.mu.Unlock()
}

// Subscribe returns lifecycle events until cancel is called.
func (m *Manager) Subscribe() (<-chan Event, func()) {
	ch := make(chan Event, 64)
	m.mu.Lock()
	m.subs[ch] = struct{}{}
	m.mu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			m.mu.Lock()
			if _, ok := m.subs[ch]; ok {
				delete(m.subs, ch)
				close(ch)
			}
			m.mu.Unlock()
		})
	}
}

func (m *Manager) publish(ev Event) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for ch := range m.subs {
		select {
		case ch <- ev:
		default: // a slow subscriber misses events rather than blocking sessions
		}
	}
}

// register creates the session object around a started adapter and mux.
func (m *Manager) register(origin string, ad *adapter.Adapter, mx *mux.Mux) (*Session, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.closed {
		return nil, &Error{Code: CodeLimit, Message: "the session manager is shut down"}
	}
	live := 0
	for _, s := range m.sessions {
		select {
		case <-s.done:
		default:
			live++
		}
	}
	if live >= m.opts.MaxSessions {
		return nil, &Error{Code: CodeLimit, Message: fmt.Sprintf("at most %d concurrent sessions", m.opts.MaxSessions)}
	}
	s := newSession(m, uuid.NewString(), origin, ad, mx)
	m.sessions[s.id] = s
	m.order = append(m.order, s.id)
	m.active = s.id
	return s, nil
}

// startAdapter starts the adapter of the given kind.
func (m *Manager) startAdapter(ctx context.Context, kind, dir string) (*adapter.Adapter, error) {
	if dir == "" {
		dir = m.opts.Workspace
	}
	switch kind {
	case "", "debugpy", "python":
		return adapter.StartDebugpy(ctx, adapter.DebugpyConfig{Python: m.opts.Python, Dir: dir, Logger: m.log})
	case "dlv", "go", "delve":
		// Delve builds the program in its own working directory.
		return adapter.StartDlv(ctx, adapter.DlvConfig{Dlv: m.opts.Dlv, Dir: dir, Logger: m.log})
	}
	return nil, invalid("adapter", "unknown adapter %q (debugpy or dlv)", kind)
}

// newLive starts adapter + mux + watcher and registers the session. dir is
// the adapter's working directory ("" for the workspace).
func (m *Manager) newLive(ctx context.Context, origin, kind, dir string) (*Session, error) {
	ad, err := m.startAdapter(ctx, kind, dir)
	if err != nil {
		var se *Error
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, &Error{Code: CodeLaunchFailed, Message: err.Error()}
	}
	return m.newLiveOn(ctx, origin, ad)
}

// newLiveOn wraps an adapter (started or dialed) in a mux and a session.
func (m *Manager) newLiveOn(ctx context.Context, origin string, ad *adapter.Adapter) (*Session, error) {
	var s *Session
	smart := newSmartValues(nil, m.log, !m.opts.DisableSmartValues)
	mx := mux.New(ad.Conn(), mux.Options{
		Rewriter: smart, RewriteBudget: m.opts.SmartValuesBudget,
		Logger: m.log,
		Handler: func(ctx context.Context, cmd string, args json.RawMessage) (any, error) {
			return m.custom(ctx, s, cmd, args)
		},
		Reverse: func(cmd string, _ json.RawMessage) (any, error) {
			return nil, fmt.Errorf("%s is not supported in a headless session", cmd)
		},
		CheckLaunch: func(cmd string, args json.RawMessage) error { return s.checkLaunch(cmd, args) },
	})
	s, err := m.register(origin, ad, mx)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	smart.t, smart.log, s.smart = s, s.log, smart // before any editor traffic
	s.log.Info("session started", "origin", origin, "adapter", ad.Kind, "pid", ad.PID())
	sub := mx.Subscribe(4096)
	s.bg.Add(1)
	go s.watch(sub)
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		_ = mx.Run()
		// Adapter gone (crash or end): reap the process so nothing is orphaned.
		_ = ad.Close()
	}()
	return s, nil
}

func (m *Manager) custom(ctx context.Context, s *Session, cmd string, args json.RawMessage) (any, error) {
	if cmd == "dapscope/session" {
		return s.Info(), nil
	}
	h, ok := m.opts.Custom[cmd]
	if !ok {
		return nil, fmt.Errorf("unknown command %s", cmd)
	}
	return h(ctx, s, args)
}

// LaunchSpec describes a headless launch.
type LaunchSpec struct {
	Adapter     string            `json:"adapter,omitempty"` // debugpy (default) | dlv
	Program     string            `json:"program,omitempty"` // workspace-relative
	Module      string            `json:"module,omitempty"`
	Args        []string          `json:"args,omitempty"`
	Env         map[string]string `json:"env,omitempty"`
	Cwd         string            `json:"cwd,omitempty"`
	Breakpoints []Breakpoint      `json:"breakpoints,omitempty"`
	StopOnEntry bool              `json:"stop_on_entry,omitempty"`
}

// AttachSpec attaches to a debugpy listening on host:port.
type AttachSpec struct {
	Host        string       `json:"host,omitempty"` // loopback unless in ManagerOptions.AttachHosts
	Port        int          `json:"port"`
	Breakpoints []Breakpoint `json:"breakpoints,omitempty"` // set before configurationDone
	// ConnectTimeout bounds connecting and the adapter's first answer
	// (default DefaultConnectTimeout).
	ConnectTimeout time.Duration `json:"connect_timeout,omitempty"`
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

// Launch starts a program headless: adapter, initialize, launch,
// breakpoints, configurationDone. It returns once the launch is confirmed.
func (m *Manager) Launch(ctx context.Context, spec LaunchSpec) (*Session, error) {
	kind := spec.Adapter
	if kind == "" {
		kind = "debugpy"
	}
	var program, cwd string
	var err error
	switch {
	case spec.Program != "" && spec.Module != "":
		return nil, invalid("program", "give program or module, not both")
	case spec.Program != "":
		if program, err = existingFile(m.opts.Workspace, "program", spec.Program, kind != "debugpy"); err != nil {
			return nil, err
		}
	case spec.Module != "":
		if kind != "debugpy" {
			return nil, invalid("module", "modules are for debugpy")
		}
	default:
		return nil, invalid("program", "required (or module)")
	}
	if err := validateArgsEnv(spec.Args, spec.Env); err != nil {
		return nil, err
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
	adapterDir := ""
	if kind == "dlv" && program != "" {
		adapterDir = program
		if st, err := os.Stat(program); err == nil && !st.IsDir() {
			adapterDir = filepath.Dir(program)
		}
	}
	s, err := m.newLive(ctx, OriginHeadless, kind, adapterDir)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.program, s.module, s.args = program, spec.Module, spec.Args
	for k := range spec.Env {
		s.envKeys = append(s.envKeys, k)
	}
	sort.Strings(s.envKeys)
	s.mu.Unlock()

	launch := map[string]any{"request": "launch", "cwd": cwd, "stopOnEntry": spec.StopOnEntry}
	env := map[string]string{}
	for k, v := range spec.Env {
		env[k] = v
	}
	if kind == "debugpy" {
		launch["type"] = "python"
		launch["console"] = "internalConsole"
		launch["redirectOutput"] = true
		launch["justMyCode"] = true
		launch["python"] = []string{m.opts.Python}
		if program != "" {
			launch["program"] = program
		} else {
			launch["module"] = spec.Module
		}
		if m.opts.InterruptTimeout > 0 {
			if _, set := env["PYDEVD_INTERRUPT_THREAD_TIMEOUT"]; !set {
				env["PYDEVD_INTERRUPT_THREAD_TIMEOUT"] = fmt.Sprintf("%g", m.opts.InterruptTimeout.Seconds())
			}
		}
	} else {
		launch["mode"] = "debug"
		launch["program"] = program
		// Keep the debug binary out of the user's tree.
		launch["output"] = filepath.Join(os.TempDir(), "dapscope-"+s.id[:8]+"-debug")
		launch["outputMode"] = "remote" // program output as DAP output events
	}
	if len(spec.Args) > 0 {
		launch["args"] = spec.Args
	}
	if len(env) > 0 {
		launch["env"] = env
	}
	if err := s.start(ctx, kind, "launch", launch, byFile); err != nil {
		s.end(context.Background())
		return nil, withOutputTail(err, s)
	}
	return s, nil
}

// withOutputTail adds the last lines the program or adapter printed (a
// build error, an import error) to a launch failure.
func withOutputTail(err error, s *Session) error {
	var se *Error
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
	return &Error{Code: se.Code, Field: se.Field, Message: se.Message + "\noutput:\n" + out}
}

// Attach connects to a debugpy that listens on host:port.
func (m *Manager) Attach(ctx context.Context, spec AttachSpec) (*Session, error) {
	if spec.Host == "" {
		spec.Host = "127.0.0.1"
	}
	if spec.Port <= 0 || spec.Port > 65535 {
		return nil, invalid("port", "must be 1..65535")
	}
	if !m.attachHostAllowed(spec.Host) {
		return nil, invalid("host", "%q is not a loopback address; other hosts must be allowed explicitly (dapscope --attach-hosts %s)", truncateStr(spec.Host, 200), truncateStr(spec.Host, 200))
	}
	if spec.ConnectTimeout <= 0 {
		spec.ConnectTimeout = DefaultConnectTimeout
	}
	byFile, err := validateBreakpoints(m.opts.Workspace, spec.Breakpoints, "breakpoints")
	if err != nil {
		return nil, err
	}
	// debugpy.listen() runs an adapter inside the debuggee: connect to it
	// directly as a DAP client.
	dctx, cancel := context.WithTimeout(ctx, spec.ConnectTimeout)
	defer cancel()
	ad, err := adapter.Dial(dctx, "debugpy", net.JoinHostPort(spec.Host, strconv.Itoa(spec.Port)))
	if err != nil {
		return nil, &Error{Code: CodeLaunchFailed, Message: err.Error() + " (is a debugpy listening there? python -m debugpy --listen PORT)"}
	}
	s, err := m.newLiveOn(ctx, OriginHeadless, ad)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	s.attached = true
	// Something that accepts the connection but never speaks DAP must not
	// hold the attach for the whole start-up bound.
	if err := s.mux.Call(dctx, "initialize", initializeArgs("debugpy"), nil); err != nil {
		s.end(context.Background())
		m.Remove(s.id) // a failed attach is reported, not listed
		if dctx.Err() != nil {
			return nil, &Error{Code: CodeLaunchFailed, Message: fmt.Sprintf("%s accepted the connection but no debug adapter answered within %s", net.JoinHostPort(spec.Host, strconv.Itoa(spec.Port)), spec.ConnectTimeout)}
		}
		return nil, &Error{Code: CodeLaunchFailed, Message: "initialize: " + wrap(err).Error()}
	}
	s.initialized = true
	args := map[string]any{"request": "attach", "type": "python", "justMyCode": true}
	if err := s.start(ctx, "debugpy", "attach", args, byFile); err != nil {
		s.end(context.Background())
		m.Remove(s.id)
		return nil, err
	}
	return s, nil
}

// start runs the DAP startup sequence:
//
//	→ initialize            ← initialize response (capabilities)
//	→ launch|attach         (debugpy answers it only after configurationDone)
//	← initialized event
//	→ setBreakpoints…, setExceptionBreakpoints, configurationDone
//	← launch|attach response
func (s *Session) start(ctx context.Context, kind, request string, args map[string]any, byFile map[string][]Breakpoint) error {
	ctx, cancel := context.WithTimeout(ctx, max(s.m.opts.OpTimeout, 60*time.Second))
	defer cancel()
	fail := func(step string, err error) error {
		err = wrap(err)
		var se *Error
		if errors.As(err, &se) && se.Code != CodeAdapterError {
			return err
		}
		return &Error{Code: CodeLaunchFailed, Message: step + ": " + err.Error()}
	}
	if !s.initialized {
		if err := s.mux.Call(ctx, "initialize", initializeArgs(kind), nil); err != nil {
			return fail("initialize", err)
		}
	}
	launched := make(chan error, 1)
	go func() { launched <- s.mux.Call(ctx, request, args, nil) }()
	// Wait for initialized (or an early launch failure).
	for !s.mux.State().Initialized {
		select {
		case err := <-launched:
			if err != nil {
				return fail(request, err)
			}
			launched <- nil // launch answered first (some adapters do)
			if !s.mux.State().Initialized {
				select {
				case <-s.mux.Changed():
				case <-ctx.Done():
					return fail("waiting for initialized", ctx.Err())
				}
			}
		case <-s.mux.Changed():
		case <-ctx.Done():
			return fail("waiting for initialized", ctx.Err())
		}
	}
	for file, bps := range byFile {
		if _, err := s.setBreakpoints(ctx, file, bps); err != nil {
			return fail("setBreakpoints", err)
		}
	}
	if kind == "debugpy" {
		_ = s.mux.Call(ctx, "setExceptionBreakpoints", map[string]any{"filters": []string{"uncaught"}}, nil)
	} else {
		_ = s.mux.Call(ctx, "setExceptionBreakpoints", map[string]any{"filters": []string{}}, nil)
	}
	if err := s.mux.Call(ctx, "configurationDone", nil, nil); err != nil {
		return fail("configurationDone", err)
	}
	select {
	case err := <-launched:
		if err != nil {
			return fail(request, err)
		}
	case <-ctx.Done():
		return fail(request, ctx.Err())
	}
	s.mu.Lock()
	if s.runStart.IsZero() && s.stop == nil {
		s.runStart = time.Now()
	}
	s.notifyLocked()
	s.mu.Unlock()
	return nil
}

// initializeArgs is the sidecar's own initialize request.
func initializeArgs(kind string) godap.InitializeRequestArguments {
	return godap.InitializeRequestArguments{
		ClientID: "dapscope", ClientName: "dapscope", AdapterID: kind, Locale: "en-US",
		LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path", SupportsVariableType: true,
	}
}

// ProxySpec configures an editor-facing proxy session.
type ProxySpec struct {
	Adapter string `json:"adapter,omitempty"` // debugpy (default) | dlv
	// Dir is the adapter's working directory (default: the workspace).
	Dir string `json:"dir,omitempty"`
}

// ServeEditor runs one editor connection as the primary client of a new
// session and blocks until the editor disconnects; then the adapter session
// is ended (disconnect, then staged shutdown).
func (m *Manager) ServeEditor(ctx context.Context, conn io.ReadWriteCloser, spec ProxySpec) error {
	s, err := m.newLive(ctx, OriginEditor, spec.Adapter, spec.Dir)
	if err != nil {
		_ = conn.Close()
		return err
	}
	err = s.mux.ServeEditor(ctx, conn)
	s.end(context.Background())
	return err
}

// ListenEditor listens for ONE editor connection and serves it in the
// background; it returns the address to connect to: "unix:/path" for a
// socket in a private 0700 directory (preferred: only this user can
// connect), or a loopback "host:port" where sockets are unavailable. The
// listener closes as soon as that one connection arrives (or after two
// minutes without one), so nothing else can connect to the session.
func (m *Manager) ListenEditor(ctx context.Context, spec ProxySpec) (string, error) {
	ln, addr, cleanup, err := listenPrivate()
	if err != nil {
		return "", err
	}
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer cleanup()
		c, err := acceptOne(ctx, ln, 2*time.Minute)
		if err != nil {
			m.log.Warn("editor did not connect", "err", err)
			return
		}
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetNoDelay(true)
		}
		if err := m.ServeEditor(ctx, c, spec); err != nil {
			m.log.Warn("editor session ended", "err", err)
		}
	}()
	return addr, nil
}

// DialProxy connects to an address ListenEditor returned (tests, tools).
func DialProxy(addr string) (net.Conn, error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		return net.DialTimeout("unix", path, 10*time.Second)
	}
	return net.DialTimeout("tcp", addr, 10*time.Second)
}

// listenPrivate listens on a unix socket in a new 0700 directory, or on
// loopback TCP when that fails.
func listenPrivate() (net.Listener, string, func(), error) {
	if dir, err := os.MkdirTemp("", "dapscope-"); err == nil {
		if err := os.Chmod(dir, 0o700); err == nil {
			path := filepath.Join(dir, "dap.sock")
			if ln, err := net.Listen("unix", path); err == nil {
				return ln, "unix:" + path, func() { _ = ln.Close(); _ = os.RemoveAll(dir) }, nil
			}
		}
		_ = os.RemoveAll(dir)
	}
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, "", nil, err
	}
	return ln, ln.Addr().String(), func() { _ = ln.Close() }, nil
}

// acceptOne accepts one connection, then closes the listener.
func acceptOne(ctx context.Context, ln net.Listener, wait time.Duration) (net.Conn, error) {
	defer ln.Close()
	if d, ok := ln.(interface{ SetDeadline(time.Time) error }); ok {
		_ = d.SetDeadline(time.Now().Add(wait))
	}
	stop := context.AfterFunc(ctx, func() { _ = ln.Close() })
	defer stop()
	return ln.Accept()
}

// Close ends every session and child process.
func (m *Manager) Close() error {
	m.mu.Lock()
	m.closed = true
	sessions := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		sessions = append(sessions, s)
	}
	m.mu.Unlock()
	var wg sync.WaitGroup
	for _, s := range sessions {
		wg.Add(1)
		go func() { defer wg.Done(); s.end(context.Background()) }()
	}
	wg.Wait()
	m.wg.Wait()
	m.mu.Lock()
	for ch := range m.subs {
		close(ch)
		delete(m.subs, ch)
	}
	m.mu.Unlock()
	return nil
}

// Remove forgets an ended session.
func (m *Manager) Remove(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.sessions, id)
	for i, o := range m.order {
		if o == id {
			m.order = append(m.order[:i], m.order[i+1:]...)
			break
		}
	}
	if m.active == id {
		m.active = ""
		if n := len(m.order); n > 0 {
			m.active = m.order[n-1]
		}
	}
}
