// state.go: what the server holds per debug session (watches, snapshots,
// the captures of the last two stops) by session id, ids for stored items,
// and the background follower that refreshes watches and stop captures at
// every stop of a session an agent has used.

package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/dapscope/dapscope/server/session"
)

// sessState is what the server holds for one debug session.
type sessState struct {
	mu        sync.Mutex
	watches   []*watch
	watchSeq  int
	snapshots map[string]*snapshot
	order     []string
	// Locals captured at the last two stops (for debug_diff without ids).
	prevStop, lastStop *snapshot
	refreshedGen       int
	// running is the last evaluation that outlived its call (evaluate.go).
	running *runningEval
}

// state returns (creating) the server state of a session.
func (s *Server) state(id string) *sessState {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.states[id]
	if !ok {
		st = &sessState{snapshots: map[string]*snapshot{}}
		s.states[id] = st
	}
	return st
}

func (s *Server) existingState(id string) *sessState {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.states[id]
}

// dropState forgets a session's state and frees its budget.
func (s *Server) dropState(id string) {
	s.mu.Lock()
	st := s.states[id]
	delete(s.states, id)
	s.mu.Unlock()
	if st == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	for sid := range st.snapshots {
		s.budget.release(sid)
	}
}

func (s *Server) nextID(prefix string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	return fmt.Sprintf("%s%d", prefix, s.seq)
}

// session resolves a session id ("" = active).
func (s *Server) session(id string) (*session.Session, error) {
	return s.mgr.Get(strings.TrimSpace(id))
}

// outputBytes is the output held by all live sessions.
func (s *Server) outputBytes() int64 {
	var n int64
	for _, ss := range s.mgr.List() {
		n += int64(ss.OutputSize())
	}
	return n
}

// startStopFollower refreshes watches and stop captures at every stop of a
// session an agent has used — including stops the editor causes — except
// a kernel session's, which are taken lazily (lazy.go).
func (s *Server) startStopFollower() {
	events, cancel := s.mgr.Subscribe()
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		defer cancel()
		for {
			select {
			case <-s.bgCtx.Done():
				return
			case ev, ok := <-events:
				if !ok {
					return
				}
				if ev.Kind != "stopped" || s.existingState(ev.SessionID) == nil {
					continue
				}
				sess, err := s.mgr.Get(ev.SessionID)
				if err != nil || sess.IsKernel() {
					// A kernel's stop is a user's cell ending: reading the
					// namespace now would make the user's next cell wait
					// behind it. A kernel's capture and watches are taken
					// when a client asks (lazy.go).
					continue
				}
				ctx, done := context.WithTimeout(s.bgCtx, 10*time.Second)
				s.refreshAtStop(ctx, sess)
				done()
			}
		}
	}()
}
