// session_test.go: the top frame of a stop, learnt from the editor's own
// stackTrace (bridge event kind frame) instead of asked.

package bridge

import (
	"context"
	"sync"
	"testing"
	"time"
)

// An inspection right after a stop waits for the editor's own stackTrace
// to tell the top frame (kind frame) instead of asking; it does not wait
// while the program runs, nor for an extension that never reports frames.
func TestKnownTopFrameWaitsForTheEditorsStackTrace(t *testing.T) {
	defer func(w time.Duration) { topFrameWait = w }(topFrameWait)
	topFrameWait = time.Minute // the frame event decides, not the clock
	b := &Session{values: &sync.Map{}}
	if _, ok := b.KnownTopFrame(context.Background(), 1); ok {
		t.Fatal("a frame before any stop")
	}
	b.apply(Event{Kind: "frame", ThreadID: 1, FrameID: 3}) // not stopped: only says frames are reported
	b.apply(Event{Kind: "stopped", ThreadID: 1})
	got := make(chan int, 1)
	go func() {
		id, ok := b.KnownTopFrame(context.Background(), 1)
		if !ok {
			id = -1
		}
		got <- id
	}()
	b.apply(Event{Kind: "frame", ThreadID: 1, FrameID: 7})
	if id := <-got; id != 7 {
		t.Fatalf("waited for the frame, got %d", id)
	}
	// A stop, then the program runs on: the waiting inspection is let go.
	b.apply(Event{Kind: "stopped", ThreadID: 1})
	go func() {
		_, ok := b.KnownTopFrame(context.Background(), 1)
		got <- map[bool]int{true: 1, false: 0}[ok]
	}()
	b.apply(Event{Kind: "continued", ThreadID: 1})
	if v := <-got; v != 0 {
		t.Fatal("a frame for a running thread")
	}
	// An extension that never reports frames: no wait at all.
	quiet := &Session{values: &sync.Map{}}
	quiet.apply(Event{Kind: "stopped", ThreadID: 1})
	if _, ok := quiet.KnownTopFrame(context.Background(), 1); ok {
		t.Fatal("a frame nobody reported")
	}
}
