// changes_test.go: State.ChangeCount moves at each stop and at each
// request that may change the debuggee's values (evaluate, setVariable,
// setExpression, steps), from the editor or an internal client, and not
// for internal requests sent with ReadOnly (the inspector's probe).

package mux

import (
	"testing"
	"time"
)

func TestChangeCount(t *testing.T) {
	m, fake, stop := startFake(t, nil)
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	ctx := t.Context()

	fake.event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1})
	if msg := ed.Recv(); !msg.IsEvent("stopped") {
		t.Fatalf("editor got %s", msg)
	}
	deadline := time.Now().Add(10 * time.Second)
	for !m.State().Paused() && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	st := m.State()
	if !st.Paused() || st.ChangeCount != 1 || st.StopCount != 1 {
		t.Fatalf("after a stop: %+v", st)
	}
	steps := []struct {
		what    string
		send    func() error
		changes int
	}{
		{"an internal read-only evaluate (the probe)", func() error { return m.Call(ReadOnly(ctx), "evaluate", map[string]any{"expression": "x"}, nil) }, 0},
		{"an internal threads request", func() error { return m.Call(ctx, "threads", nil, nil) }, 0},
		{"an internal evaluate", func() error { return m.Call(ctx, "evaluate", map[string]any{"expression": "x = 1"}, nil) }, 1},
		{"an internal setVariable", func() error { return m.Call(ctx, "setVariable", map[string]any{"name": "x", "value": "2"}, nil) }, 1},
		{"the editor's evaluate", func() error {
			ed.Send("evaluate", map[string]any{"expression": "df.drop(index=[0], inplace=True)", "context": "repl"})
			if msg := ed.Recv(); msg.Env.Type != "response" {
				t.Fatalf("editor got %s", msg)
			}
			return nil
		}, 1},
		{"the editor's setExpression", func() error {
			ed.Send("setExpression", map[string]any{"expression": "x", "value": "3"})
			ed.Recv()
			return nil
		}, 1},
		{"the editor's scopes request", func() error { ed.Send("scopes", map[string]any{"frameId": 1}); ed.Recv(); return nil }, 0},
	}
	for _, s := range steps {
		before := m.State().ChangeCount
		if err := s.send(); err != nil {
			t.Fatalf("%s: %v", s.what, err)
		}
		if got := m.State().ChangeCount - before; got != s.changes {
			t.Errorf("%s: ChangeCount moved by %d, want %d", s.what, got, s.changes)
		}
	}
}
