// subscribe.go: event fan-out to internal clients. Each subscriber has a
// bounded buffer. Output events that do not fit are dropped and counted
// (a program can print faster than anyone reads); every other event
// (stopped, continued, exited, terminated, process…) is never dropped: the
// read loop waits for room, so a stop is never lost under an output flood.

package mux

import (
	"sync"
	"sync/atomic"

	"github.com/dapscope/dapscope/server/dap"
)

// Subscription receives adapter events until Close or adapter exit (then C
// is closed).
type Subscription struct {
	C    <-chan *dap.Event
	c    chan *dap.Event
	m    *Mux
	once sync.Once
	mu   sync.Mutex
	// stop is closed by Close: the subscriber reads no more, so a delivery
	// waiting for room gives up.
	stop     chan struct{}
	stopOnce sync.Once
	closed   bool

	dropped      atomic.Int64 // events
	droppedBytes atomic.Int64 // bytes of the dropped events' bodies
}

// Subscribe returns a subscription with room for buf undelivered events.
func (m *Mux) Subscribe(buf int) *Subscription {
	if buf <= 0 {
		buf = 256
	}
	c := make(chan *dap.Event, buf)
	s := &Subscription{C: c, c: c, m: m, stop: make(chan struct{})}
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

// Dropped counts the output events lost because the subscriber fell
// behind (no other event is ever dropped).
func (s *Subscription) Dropped() int64 { return s.dropped.Load() }

// DroppedBytes is the size of the dropped events' bodies: a close upper
// bound of the output they carried.
func (s *Subscription) DroppedBytes() int64 { return s.droppedBytes.Load() }

// Close unsubscribes and closes C.
func (s *Subscription) Close() {
	s.m.mu.Lock()
	delete(s.m.subs, s)
	s.m.mu.Unlock()
	s.stopOnce.Do(func() { close(s.stop) })
	s.close()
}

// droppable: only output may be dropped when the subscriber is behind.
func droppable(ev *dap.Event) bool { return ev.Event == "output" }

func (s *Subscription) deliver(ev *dap.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	select {
	case s.c <- ev:
		return
	default:
	}
	if droppable(ev) {
		s.dropped.Add(1)
		s.droppedBytes.Add(int64(len(ev.Body)))
		return
	}
	select { // wait for room: this event must arrive
	case s.c <- ev:
	case <-s.stop:
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
