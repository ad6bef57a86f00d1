// group.go: the root of a tree whose members are attached one by one and
// that is no process itself — a Ray cluster, its paused tasks attached
// under it (server/ray). The root is a session like any (debug_sessions
// lists it with its children; its id asks every task at once; ending it
// detaches them all), behind a virtual adapter in the sidecar that runs no
// code: it answers the requests a session sends on its own and refuses
// the rest, saying to ask its members.

package session

import (
	"encoding/json"
	"net"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/mux"
)

// OriginGroup is the origin of a tree's root that runs no code.
const OriginGroup = "group"

// GroupSpec names a root.
type GroupSpec struct {
	// Key finds the root again (GroupSession): e.g. "ray " + the
	// dashboard's URL.
	Key string
	// Name is what listings show; Where, shown as the program, says where
	// it is (the cluster's address).
	Name, Where string
}

type groupInfo struct{ key, name, where string }

// Group registers a root session for spec. It is "running" until ended.
func (m *Manager) Group(spec GroupSpec) (*Session, error) {
	if spec.Key == "" {
		return nil, errcode.Invalid("key", "required")
	}
	d, err := adapter.DriverFor(adapter.Group)
	if err != nil {
		return nil, err
	}
	ours, theirs := net.Pipe()
	go serveGroup(theirs)
	ad := adapter.Over(adapter.Group, ours)
	mx := mux.New(ad.Conn(), mux.Options{Logger: m.log, Reverse: func(cmd string, _ json.RawMessage) (any, error) {
		return nil, errcode.New(errcode.NotSupported, "%s is not supported on a cluster root", cmd)
	}})
	s, err := m.register(OriginGroup, d, ad, mx)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	s.attached.Store(true) // its members outlive it: ending it detaches them
	s.group.Store(&groupInfo{key: spec.Key, name: clip.Bytes.Head(spec.Name, 200), where: clip.Bytes.Head(spec.Where, 1000)})
	s.mu.Lock()
	s.noDelay = false
	s.mu.Unlock()
	m.serve(s, mx, ad, 64)
	return s, nil
}

// GroupSession is the live root registered under key, if any.
func (m *Manager) GroupSession(key string) *Session {
	for _, s := range m.List() {
		if g := s.group.Load(); g != nil && g.key == key && !s.gone() && s.Status() == StatusRunning {
			return s
		}
	}
	return nil
}

// IsGroup reports whether s is a root that runs no code (its tree's
// questions go to its members).
func (s *Session) IsGroup() bool { return s.group.Load() != nil }

// Adopt makes child, a session of its own (an attach), a member of
// parent's tree; pid is child's process (0: unknown).
func (m *Manager) Adopt(parent, child *Session, pid int) {
	child.tree.mu.Lock()
	child.tree.parent = parent
	if pid > 0 {
		child.tree.pid = pid
	}
	child.tree.mu.Unlock()
	parent.tree.mu.Lock()
	parent.tree.children = append(parent.tree.children, child)
	parent.tree.mu.Unlock()
	m.mu.Lock()
	if m.active == child.id && child.Status() != StatusPaused { // a member becomes active when it stops
		m.active = parent.id
	}
	m.mu.Unlock()
	parent.mu.Lock()
	parent.notifyLocked()
	parent.mu.Unlock()
}

// serveGroup is the root's virtual adapter: running from the start, no
// threads, breakpoints kept for the members (the session gives them its
// members), everything else refused.
func serveGroup(conn net.Conn) {
	defer conn.Close()
	r, w := dap.NewReader(conn), dap.NewWriter(conn)
	seq := 0
	send := func(b []byte, err error) bool {
		return err == nil && w.WriteFrame(b) == nil
	}
	seq++
	if !send(json.Marshal(dap.Event{Seq: seq, Type: "event", Event: "continued", Body: json.RawMessage(`{"threadId":0,"allThreadsContinued":true}`)})) {
		return
	}
	for {
		req, args, err := dap.NextRequest(r, func(error) {})
		if err != nil {
			return
		}
		seq++
		var body any = map[string]any{}
		switch req.Command {
		case "initialize", "configurationDone", "setExceptionBreakpoints", "disconnect", "terminate", "pause", "continue":
		case "threads":
			body = map[string]any{"threads": []any{}}
		case "setBreakpoints":
			var a struct {
				Breakpoints []struct {
					Line int `json:"line"`
				} `json:"breakpoints"`
			}
			_ = json.Unmarshal(args, &a)
			bps := make([]map[string]any, 0, len(a.Breakpoints))
			for _, bp := range a.Breakpoints {
				bps = append(bps, map[string]any{"verified": false, "line": bp.Line, "message": "set in the cluster's attached tasks"})
			}
			body = map[string]any{"breakpoints": bps}
		default:
			if !send(dap.CodedErrorResponse(seq, req, errcode.New(errcode.NotSupported,
				"a cluster root runs no code: ask one of its tasks (its session id), or all of them with this root's id (debug_inspect_variable, debug_evaluate)")), nil) {
				return
			}
			continue
		}
		if !send(dap.SuccessResponse(seq, req, body)) {
			return
		}
		if req.Command == "disconnect" || req.Command == "terminate" {
			return
		}
	}
}
