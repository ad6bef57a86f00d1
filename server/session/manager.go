// manager.go: the registry of live sessions (headless and editor-attached),
// the active-session default, lifecycle events for subscribers (the
// manager observes every session), and shutdown. Sessions start in
// launch.go (Launch, Attach) and proxy.go (an editor through the proxy).

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/google/uuid"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// CustomHandler answers a "dapscope/…" request arriving on a session.
type CustomHandler func(ctx context.Context, s *Session, args json.RawMessage) (any, error)

// ManagerOptions configure a Manager.
type ManagerOptions struct {
	Workspace string // root for relative paths (default: cwd)
	Python    string // an interpreter or a venv directory; default adapter.DefaultPython()
	Dlv       string // default: found on PATH or in GOPATH/bin
	Node      string // default: node on PATH
	LLDBDap   string // default: the newest lldb-dap (platform.Find)
	// NoDelay applies the adapter's first-stop fix (pydevd's TCP_NODELAY)
	// at the first stop of a session. NewManager turns it on unless
	// DisableNoDelay.
	NoDelay        bool
	DisableNoDelay bool
	// DisableFastWake leaves out debugpy's wake patch that goes with the
	// first-stop fix (adapter/debugpy_wake.go); DisableNoDelay turns it off
	// too.
	DisableFastWake bool
	// InterruptTimeout bounds an evaluation stuck in the debuggee in
	// headless launches, for adapters that can interrupt one (pydevd's
	// PYDEVD_INTERRUPT_THREAD_TIMEOUT), so a hung expression cannot wedge
	// the session (default 15 s; negative disables). Editor launches are
	// passed through untouched.
	InterruptTimeout time.Duration
	OpTimeout        time.Duration // default 20 s
	OutputLimit      int           // per-session output buffer (default 10 MB)
	MaxSessions      int           // default 1000
	// KeepEnded is how many ended sessions stay listed, their outcome and
	// output readable; as a new session starts, older ended ones are
	// forgotten (default 16: an editor that debugs all day would otherwise
	// keep every run's output, up to OutputLimit each).
	KeepEnded int
	// AttachHosts are the non-loopback hosts Attach may connect to.
	AttachHosts []string
	// DisableSmartValues keeps the adapter's own values in the editor's
	// hover, Watch and Variables views (smart values are on by default;
	// a launch configuration's "smartValues": false turns them off too).
	DisableSmartValues bool
	// SmartValuesBudget bounds how long a smart value may hold an editor
	// response (default mux.DefaultRewriteBudget, 50 ms).
	SmartValuesBudget time.Duration
	// EventBuffer is the room for adapter events a session has not read
	// yet (default 4096); output past it is dropped and counted (OutputPage
	// LostEvents), other events wait for room.
	EventBuffer int
	Logger      *slog.Logger
	// Custom serves "dapscope/…" requests from editors (e.g. dapscope/inspect).
	Custom map[string]CustomHandler
	// WarmAdapters keeps a spare debugpy adapter started ahead of the next
	// launch (adapter.Warm), the first one as the manager starts: for
	// long-lived sidecars (dapscope mcp, serve), where it takes the
	// adapter's start out of launch to the first stop. With it, a spare
	// debuggee is kept ready too (spare.go), for headless launches.
	WarmAdapters bool
	// NoSpareDebuggee keeps the spare adapter only (benchmarks compare).
	NoSpareDebuggee bool
}

// Manager owns sessions.
type Manager struct {
	opts ManagerOptions
	log  *slog.Logger
	exes map[adapter.Kind]string // the executable each driver runs ("": its default)

	mu       sync.Mutex
	sessions map[string]*Session
	order    []string
	active   string
	subs     map[chan Event]struct{}
	onRemove []func(id string)
	closed   bool
	wg       sync.WaitGroup
	warm     *adapter.Warm // nil unless WarmAdapters
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
		opts.Python = adapter.DefaultPython()
	} else if st, err := os.Stat(opts.Python); err == nil && st.IsDir() {
		opts.Python = platform.VenvPython(opts.Python) // a virtual environment
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
	if opts.KeepEnded <= 0 {
		opts.KeepEnded = 16
	}
	if opts.EventBuffer <= 0 {
		opts.EventBuffer = 4096
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	m := &Manager{opts: opts, log: opts.Logger, sessions: map[string]*Session{}, subs: map[chan Event]struct{}{},
		exes: map[adapter.Kind]string{adapter.Debugpy: opts.Python, adapter.Dlv: opts.Dlv, adapter.Node: opts.Node, adapter.LLDB: opts.LLDBDap}}
	if opts.WarmAdapters {
		m.warm = adapter.NewWarm()
		if d, err := adapter.DriverFor(adapter.Debugpy); err == nil && opts.Python != "" {
			m.warm.Prime(d, adapter.StartConfig{Exe: opts.Python, Dir: opts.Workspace, Logger: opts.Logger})
			if !opts.NoSpareDebuggee {
				m.warm.PrimeDebuggee(m.spareConfig(), m.spareEnv(), 0) // spare.go
			}
		}
	}
	return m
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
			return nil, &errcode.Error{Code: errcode.NotFound, Field: "session_id", Message: "no active session (launch or attach one first)"}
		}
	}
	s, ok := m.sessions[id]
	if !ok {
		return nil, &errcode.Error{Code: errcode.NotFound, Field: "session_id", Message: fmt.Sprintf("no session %q", id)}
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

// observe is every session's observer: events go to the subscribers, and
// a session that stops becomes the active one.
func (m *Manager) observe(ev Event) {
	m.publish(ev)
	if ev.Kind == "stopped" {
		m.setActive(ev.SessionID)
	}
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
func (m *Manager) register(origin string, d adapter.Driver, ad *adapter.Adapter, mx *mux.Mux) (*Session, error) {
	m.mu.Lock()
	s, err := m.registerLocked(origin, d, ad, mx)
	var gone []string
	if err == nil {
		gone = m.pruneEndedLocked()
	}
	hooks := m.onRemove
	m.mu.Unlock()
	for _, id := range gone {
		for _, f := range hooks {
			f(id)
		}
	}
	return s, err
}

func (m *Manager) registerLocked(origin string, d adapter.Driver, ad *adapter.Adapter, mx *mux.Mux) (*Session, error) {
	if m.closed {
		return nil, &errcode.Error{Code: errcode.LimitExceeded, Message: "the session manager is shut down"}
	}
	live := 0
	for _, s := range m.sessions {
		if !s.gone() {
			live++
		}
	}
	if live >= m.opts.MaxSessions {
		return nil, &errcode.Error{Code: errcode.LimitExceeded, Message: fmt.Sprintf("at most %d concurrent sessions", m.opts.MaxSessions)}
	}
	s := newSession(uuid.NewString(), origin, d, ad, mx, sessionConfig{
		workspace: m.opts.Workspace, opTimeout: m.opts.OpTimeout, outputLimit: m.opts.OutputLimit,
		noDelay: m.opts.NoDelay, fastWake: !m.opts.DisableFastWake, log: m.log, observe: m.observe,
		startChild: m.spawnChild,
	})
	m.sessions[s.id] = s
	m.order = append(m.order, s.id)
	m.active = s.id
	return s, nil
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
	m.warm.Close()
	m.mu.Lock()
	for ch := range m.subs {
		close(ch)
		delete(m.subs, ch)
	}
	m.mu.Unlock()
	return nil
}

// pruneEndedLocked forgets the oldest ended sessions past KeepEnded and
// returns their ids.
func (m *Manager) pruneEndedLocked() []string {
	ended := 0
	for _, id := range m.order {
		if m.sessions[id].gone() {
			ended++
		}
	}
	var gone []string
	for i := 0; i < len(m.order) && ended > m.opts.KeepEnded; {
		id := m.order[i]
		if !m.sessions[id].gone() {
			i++
			continue
		}
		m.removeLocked(id)
		gone = append(gone, id)
		ended--
	}
	return gone
}

// OnRemove registers f to run, outside the manager's lock, for every
// session the manager forgets (Remove, or an ended session past KeepEnded),
// so that state kept per session elsewhere goes with it.
func (m *Manager) OnRemove(f func(id string)) {
	m.mu.Lock()
	m.onRemove = append(m.onRemove, f)
	m.mu.Unlock()
}

// Remove forgets an ended session.
func (m *Manager) Remove(id string) {
	m.mu.Lock()
	_, ok := m.sessions[id]
	m.removeLocked(id)
	hooks := m.onRemove
	m.mu.Unlock()
	if ok {
		for _, f := range hooks {
			f(id)
		}
	}
}

func (m *Manager) removeLocked(id string) {
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
