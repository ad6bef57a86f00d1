// events.go: subscriptions to what the kernel publishes (every IOPub
// message, marked when this client caused it), users' cells starting and
// finishing, and liveness changes. A subscriber that does not keep up never
// blocks the client: its queue is bounded and counts what it dropped.

package kernel

import (
	"context"
	"encoding/json"
	"sync"
	"time"
)

// EventKind says what an Event reports.
type EventKind int

const (
	// EventMessage: an IOPub message (Msg; Ours when this client's request
	// caused it).
	EventMessage EventKind = iota + 1
	// EventCellStarted: a user's cell started (Cell, with its code).
	EventCellStarted
	// EventCellFinished: a user's cell finished (Cell, with Ended).
	EventCellFinished
	// EventLiveness: the kernel died, stopped answering, came back, or was
	// restarted (Liveness, Err, Restarted).
	EventLiveness
	// EventRefused: a message from the kernel failed its signature check
	// and was dropped (Err wraps ErrSignature).
	EventRefused
)

// Event is one thing a subscriber is told.
type Event struct {
	Kind      EventKind
	Time      time.Time
	Msg       *Message
	Ours      bool
	Cell      *Cell
	Liveness  string
	Restarted bool
	Err       error
}

// DAPEvent is a DAP event carried by a debug_event message.
type DAPEvent struct {
	Seq   int             `json:"seq"`
	Event string          `json:"event"`
	Body  json.RawMessage `json:"body"`
}

// DebugEvent decodes the DAP event of a debug_event message.
func (e Event) DebugEvent() (*DAPEvent, bool) {
	if e.Kind != EventMessage || e.Msg == nil || e.Msg.Header.MsgType != "debug_event" {
		return nil, false
	}
	var d DAPEvent
	if json.Unmarshal(e.Msg.Content, &d) != nil || d.Event == "" {
		return nil, false
	}
	return &d, true
}

// maxQueued bounds a subscription's queue.
const maxQueued = 4096

// Subscription receives events from the moment it was made.
type Subscription struct {
	c       *Client
	mu      sync.Mutex
	q       []Event
	notify  chan struct{}
	dropped int
	closed  bool
}

// Subscribe starts a subscription; Close it when done.
func (c *Client) Subscribe() *Subscription {
	s := &Subscription{c: c, notify: make(chan struct{}, 1)}
	c.mu.Lock()
	c.subs[s] = struct{}{}
	c.mu.Unlock()
	return s
}

// Next waits for the next event.
func (s *Subscription) Next(ctx context.Context) (Event, error) {
	for {
		s.mu.Lock()
		if len(s.q) > 0 {
			e := s.q[0]
			s.q[0] = Event{}
			s.q = s.q[1:]
			s.mu.Unlock()
			return e, nil
		}
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return Event{}, ErrClosed
		}
		select {
		case <-ctx.Done():
			return Event{}, ctx.Err()
		case <-s.notify:
		}
	}
}

// Dropped is how many events were dropped because the queue was full.
func (s *Subscription) Dropped() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.dropped
}

// Close ends the subscription; Next then returns ErrClosed.
func (s *Subscription) Close() {
	s.c.mu.Lock()
	delete(s.c.subs, s)
	s.c.mu.Unlock()
	s.end()
}

func (s *Subscription) end() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.wake()
}

func (s *Subscription) push(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if len(s.q) >= maxQueued {
		s.dropped++
	} else {
		s.q = append(s.q, e)
	}
	s.mu.Unlock()
	s.wake()
}

func (s *Subscription) wake() {
	select {
	case s.notify <- struct{}{}:
	default:
	}
}

// publish hands an event to every subscriber; c.mu is held.
func (c *Client) publish(e Event) {
	for s := range c.subs {
		s.push(e)
	}
}
