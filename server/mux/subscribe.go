// subscribe.go: event fan-out to internal clients. Delivery never blocks the
// adapter read loop: each subscriber has a bounded buffer, and events that
// do not fit are counted as dropped.

package mux

import (
	"sync"
	"sync/atomic"

	"github.com/dapscope/dapscope/server/dap"
)

// Subscription receives adapter events until Close or adapter exit (then C
// is closed).
type Subscription struct {
	C       <-chan *dap.Event
	c       chan *dap.Event
	m       *Mux
	once    sync.Once
	mu      sync.Mutex
	closed  bool
	dropped atomic.Int64
}

// Subscribe returns a subscription with room for buf undelivered events.
func (m *Mux) Subscribe(buf int) *Subscription {
	if buf <= 0 {
		buf = 256
	}
	c := make(chan *dap.Event, buf)
	s := &Subscription{C: c, c: c, m: m}
	m.mu.Lock()
	if m.dead {
		m.mu.Unlock()
		s.close()
		return s
	}
	m.subs[s] = struct{}{}
	m.mu.Unlock()
	return s
}

// Dropped counts events lost because the subscriber fell behind.
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// Close unsubscribes and closes C.
func (s *Subscription) Close() {
	s.m.mu.Lock()
	delete(s.m.subs, s)
	s.m.mu.Unlock()
	s.close()
}

func (s *Subscription) deliver(ev *dap.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.c <- ev:
	default:
		s.dropped.Add(1)
	}
}

func (s *Subscription) close() {
	s.once.Do(func() {
		s.mu.Lock()
		s.closed = true
		close(s.c)
		s.mu.Unlock()
	})
}
