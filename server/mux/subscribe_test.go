// subscribe_test.go: a subscriber that falls behind an output flood loses
// output (counted, with its bytes), never a stopped, exited or terminated
// event, and the events it gets keep their order (issue 28.8). A
// subscriber that unsubscribes while the read loop waits for room does not
// hold the loop.

package mux

import (
	"fmt"
	"testing"
	"time"

	godap "github.com/google/go-dap"
)

// waitFor polls cond (a generous bound: a condition, not a timing).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func TestSubscriberKeepsStopsUnderOutputFlood(t *testing.T) {
	m, fake, stop := startFake(t, nil)
	defer stop()
	sub := m.Subscribe(4)
	defer sub.Close()
	sent := make(chan struct{})
	go func() {
		defer close(sent)
		for i := 0; i < 100; i++ {
			fake.event("output", godap.OutputEventBody{Category: "stdout", Output: fmt.Sprintf("line %d\n", i)})
		}
		fake.event("stopped", godap.StoppedEventBody{Reason: "breakpoint", ThreadId: 1})
		fake.event("output", godap.OutputEventBody{Category: "stdout", Output: "after the stop\n"})
		fake.event("exited", godap.ExitedEventBody{ExitCode: 0})
		fake.event("terminated", nil)
	}()
	// Nothing is read until the flood is in: 4 outputs fit, 96 are dropped,
	// and the read loop waits for room for the stop.
	waitFor(t, "96 dropped outputs", func() bool { return sub.Dropped() == 96 })
	// Then read until terminated: the output after the stop may be dropped
	// too (the queue is full again when it comes), never the stop, the exit
	// or the end.
	var got []string
	for timeout := time.After(30 * time.Second); len(got) == 0 || got[len(got)-1] != "terminated"; {
		select {
		case ev := <-sub.C:
			got = append(got, ev.Event)
		case <-timeout:
			t.Fatalf("events %v: no terminated within 30 s", got)
		}
	}
	<-sent
	want := []string{"output", "output", "output", "output", "stopped", "output", "exited", "terminated"}
	dropped := int64(96)
	if len(got) == 7 {
		want = append(want[:5], "exited", "terminated")
		dropped = 97
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("events %v, want %v", got, want)
	}
	if sub.Dropped() != dropped || sub.DroppedBytes() < dropped*int64(len(`{"output":"line 10"}`)) {
		t.Errorf("dropped %d events (%d bytes), want %d", sub.Dropped(), sub.DroppedBytes(), dropped)
	}
}

func TestUnsubscribeReleasesAWaitingDelivery(t *testing.T) {
	m, fake, stop := startFake(t, nil)
	defer stop()
	sub := m.Subscribe(1)
	other := m.Subscribe(16)
	defer other.Close()
	go func() {
		fake.event("stopped", godap.StoppedEventBody{Reason: "step", ThreadId: 1})
		fake.event("continued", godap.ContinuedEventBody{ThreadId: 1})
		fake.event("terminated", nil)
	}()
	// sub reads nothing: the loop waits on it for the second event until
	// it unsubscribes; then the other subscriber gets everything.
	waitFor(t, "the first event", func() bool { return len(sub.C) == 1 })
	sub.Close()
	for _, want := range []string{"stopped", "continued", "terminated"} {
		if ev := <-other.C; ev.Event != want {
			t.Fatalf("other subscriber got %s, want %s", ev.Event, want)
		}
	}
}
