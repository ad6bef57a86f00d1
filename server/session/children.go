// children.go: a headless debugpy session's tree of processes. debugpy
// follows the debuggee's subprocesses (multiprocessing, ProcessPool,
// subprocess.Popen of a Python) and asks its client to start a session for
// each: debugpy 1.8 with the standard startDebugging reverse request (the
// sidecar declares supportsStartDebuggingRequest), older ones with their
// own debugpyAttach event. Each child becomes a session of its own that
// dials the adapter with the configuration given, with its parent's id and
// its parent's breakpoints; ending the parent ends the tree. A child that
// nobody attaches waits inside debugpy forever, so a session that does not
// follow (LaunchSpec.Subprocesses false) launches with subProcess: false.

package session

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/adapter"
)

// treeInfo is a session's place in its tree of processes.
type treeInfo struct {
	mu       sync.Mutex
	parent   *Session // nil for a root
	follow   bool     // start a child session for each subprocess
	pid      int      // the debuggee's process id (its process event)
	children []*Session
}

// ParentID is the id of the session whose process started this one's ("":
// a root).
func (s *Session) ParentID() string {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	if s.tree.parent == nil {
		return ""
	}
	return s.tree.parent.id
}

// Parent is the parent session (nil for a root).
func (s *Session) Parent() *Session {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	return s.tree.parent
}

// Root is the root of s's tree.
func (s *Session) Root() *Session {
	r := s
	for p := r.Parent(); p != nil; p = r.Parent() {
		r = p
	}
	return r
}

// PID is the debuggee's process id (0 until the adapter said it).
func (s *Session) PID() int {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	return s.tree.pid
}

func (s *Session) setPID(pid int) {
	s.tree.mu.Lock()
	if s.tree.pid == 0 {
		s.tree.pid = pid
	}
	s.tree.mu.Unlock()
}

// Children are the sessions of s's direct subprocesses, oldest first.
func (s *Session) Children() []*Session {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	return slices.Clone(s.tree.children)
}

// Tree is s and all its descendants, parents before children.
func (s *Session) Tree() []*Session {
	out := []*Session{s}
	for i := 0; i < len(out); i++ {
		out = append(out, out[i].Children()...)
	}
	return out
}

// followsChildren: s starts child sessions for its subprocesses.
func (s *Session) followsChildren() bool {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	return s.tree.follow
}

// onStartDebugging answers debugpy 1.8's startDebugging reverse request
// and starts the child session it asks for.
func (s *Session) onStartDebugging(args json.RawMessage) (any, error) {
	var b struct {
		Configuration map[string]any `json:"configuration"`
		Request       string         `json:"request"`
	}
	if err := json.Unmarshal(args, &b); err != nil || b.Configuration == nil {
		return nil, fmt.Errorf("startDebugging without a configuration")
	}
	if !s.followsChildren() {
		return nil, fmt.Errorf("this session does not follow subprocesses")
	}
	if b.Request != "" {
		b.Configuration["request"] = b.Request
	}
	s.spawnChild(b.Configuration)
	return map[string]any{}, nil
}

// onChildEvent is older debugpy's debugpyAttach event: the same
// configuration, as an event.
func (s *Session) onChildEvent(body json.RawMessage) {
	var cfg map[string]any
	if err := json.Unmarshal(body, &cfg); err != nil || cfg == nil || !s.followsChildren() {
		return
	}
	s.spawnChild(cfg)
}

// spawnChild has the manager start the child session in the background
// (the adapter's request or event must not wait for it).
func (s *Session) spawnChild(cfg map[string]any) {
	if s.cfg.startChild != nil {
		s.cfg.startChild(s, cfg)
	}
}

// childBreakpoints are s's breakpoints as asked for, by file, for a child.
func (s *Session) childBreakpoints() map[string][]Breakpoint {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := map[string][]Breakpoint{}
	for file, list := range s.bps {
		for _, st := range list {
			bp := st.Breakpoint
			bp.File = file
			if st.RequestedLine != 0 {
				bp.Line = st.RequestedLine
			}
			out[file] = append(out[file], bp)
		}
	}
	return out
}

// spawnChild runs startChild in the background, until parent ends or the
// manager closes.
func (m *Manager) spawnChild(parent *Session, cfg map[string]any) {
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() {
			select {
			case <-parent.done:
				cancel()
			case <-ctx.Done():
			}
		}()
		if err := m.startChild(ctx, parent, cfg); err != nil {
			parent.log.Warn("subprocess not followed", "err", err)
		}
	}()
}

// startChild dials the adapter a subprocess waits on (cfg["connect"]) and
// attaches to it with cfg, as a session under parent.
func (m *Manager) startChild(ctx context.Context, parent *Session, cfg map[string]any) error {
	conn, _ := cfg["connect"].(map[string]any)
	host, _ := conn["host"].(string)
	port, _ := conn["port"].(float64)
	if host == "" {
		host = "127.0.0.1"
	}
	if port <= 0 || port > 65535 {
		return errcode.Invalid("connect", "no adapter port in the subprocess's configuration")
	}
	if !m.attachHostAllowed(host) {
		return errcode.Invalid("host", "%q is not a loopback address", host)
	}
	d, err := adapter.DriverFor(adapter.Debugpy)
	if err != nil {
		return err
	}
	dctx, cancel := context.WithTimeout(ctx, DefaultConnectTimeout)
	defer cancel()
	ad, err := adapter.Dial(dctx, adapter.Debugpy, net.JoinHostPort(host, strconv.Itoa(int(port))))
	if err != nil {
		return &errcode.Error{Code: errcode.LaunchFailed, Message: err.Error()}
	}
	child, err := m.newLiveOn(ctx, OriginHeadless, d, ad)
	if err != nil {
		_ = ad.Close()
		return err
	}
	m.mu.Lock()
	if m.active == child.id { // a child becomes active when it stops, not before
		m.active = parent.id
	}
	m.mu.Unlock()
	child.tree.mu.Lock()
	child.tree.parent, child.tree.follow = parent, true
	if pid, ok := cfg["subProcessId"].(float64); ok {
		child.tree.pid = int(pid)
	}
	child.tree.mu.Unlock()
	child.attached.Store(parent.attached.Load()) // a launched tree is ours to end
	parent.mu.Lock()
	child.program, child.module, child.args, child.envKeys = parent.program, parent.module, parent.args, parent.envKeys
	child.interrupt = parent.interrupt
	parent.mu.Unlock()
	parent.tree.mu.Lock()
	parent.tree.children = append(parent.tree.children, child)
	parent.tree.mu.Unlock()
	if err := child.mux.Call(dctx, "initialize", initializeArgs(d.AdapterID()), nil); err != nil {
		child.end(context.Background())
		return fmt.Errorf("initialize: %w", wrap(err))
	}
	child.initialized = true
	if err := child.start(ctx, "attach", cfg, parent.childBreakpoints()); err != nil {
		child.end(context.Background())
		return err
	}
	return nil
}

// endChildren ends s's descendants, deepest first (before s itself ends).
func (s *Session) endChildren(ctx context.Context) {
	kids := s.Children()
	var wg sync.WaitGroup
	for _, c := range kids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.endChildren(ctx)
			c.mu.Lock()
			if !c.ended && (c.outcome == nil || !c.outcome.Finished) {
				c.userEnded = true
			}
			c.mu.Unlock()
			ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			c.end(ctx)
		}()
	}
	wg.Wait()
}

// treeSummary is s's parent id, pid and children's ids.
func (s *Session) treeSummary() (parent string, pid int, children []string) {
	s.tree.mu.Lock()
	defer s.tree.mu.Unlock()
	if s.tree.parent != nil {
		parent = s.tree.parent.id
	}
	for _, c := range s.tree.children {
		children = append(children, c.id)
	}
	return parent, s.tree.pid, children
}

// PausedInTree is the first paused session of s's tree, s itself first,
// then its descendants (nil when none is paused).
func (s *Session) PausedInTree() *Session {
	for _, c := range s.Tree() {
		if c.Status() == StatusPaused {
			return c
		}
	}
	return nil
}

// childrenSetBreakpoints gives the file's new breakpoints to every live
// descendant (a child that fails to take them is logged, not an error of
// the parent's request).
func (s *Session) childrenSetBreakpoints(ctx context.Context, abs string, bps []Breakpoint) {
	for _, c := range s.Tree()[1:] {
		if c.gone() {
			continue
		}
		if _, err := c.setBreakpoints(ctx, abs, slices.Clone(bps)); err != nil {
			c.log.Warn("breakpoints of the parent not set in the child", "file", abs, "err", err)
		}
	}
}
