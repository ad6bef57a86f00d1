// prune_test.go: ended sessions stay listed up to KeepEnded; as a new one
// starts, the oldest ended ones are forgotten and OnRemove hooks run for
// them (real node sessions, ended with Terminate).

package session

import (
	"reflect"
	"testing"
	"time"
)

func TestEndedSessionsPruned(t *testing.T) {
	m := newTestManager(t, ManagerOptions{KeepEnded: 2})
	ctx := testCtx(t)
	var removed []string
	m.OnRemove(func(id string) { removed = append(removed, id) }) // runs on the caller's goroutine
	var ids []string
	launch := func() *Session {
		s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/node/spin.js"})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID())
		return s
	}
	for i := 0; i < 4; i++ {
		s := launch()
		if err := s.Terminate(ctx); err != nil {
			t.Fatal(err)
		}
		select {
		case <-s.Done():
		case <-time.After(time.Minute):
			t.Fatalf("session %d never ended", i)
		}
	}
	live := launch()
	defer func() { _ = live.Terminate(ctx) }()
	// s0 went when s3 started (3 ended), s1 when s4 did.
	if want := ids[:2]; !reflect.DeepEqual(removed, want) {
		t.Fatalf("removed %v, want %v", removed, want)
	}
	var listed []string
	for _, s := range m.List() {
		listed = append(listed, s.ID())
	}
	if want := ids[2:]; !reflect.DeepEqual(listed, want) {
		t.Fatalf("listed %v, want the last two ended and the live one %v", listed, want)
	}
	if _, err := m.Get(ids[0]); err == nil {
		t.Fatal("a forgotten session is still found")
	}
	// Remove runs the hooks too, once.
	m.Remove(ids[2])
	m.Remove(ids[2])
	if len(removed) != 3 || removed[2] != ids[2] {
		t.Fatalf("after Remove: %v", removed)
	}
}
