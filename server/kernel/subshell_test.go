//go:build linux

// subshell_test.go: dapscope's silent calls in a kernel subshell (JEP 91)
// where the kernel has them (ipykernel 7, the modern leg), the main shell
// where it does not (ipykernel 6, Debian's leg) or where the client is
// told not to, against real kernels; a user's cell that arrives while a
// silent call runs is not held behind it; Close deletes the subshell; and
// a subshell's busy status does not end the user's running cell in the
// busy tracker.

package kernel

import (
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testpython"
)

// wantSubshells: the leg's ipykernel has subshells (7 and later).
func wantSubshells(t *testing.T) bool {
	v := testpython.Version("ipykernel")
	if v == "" {
		t.Fatal("no ipykernel in this leg")
	}
	return !testpython.Below(v, "7")
}

// ourBusySubshell is the subshell id (the parent header's) of the next
// IOPub busy status of an execute_request of ours on s.
func ourBusySubshell(t *testing.T, s *Subscription) string {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	e := waitEvent(t, ctx, s, "our busy status", func(e Event) bool {
		return e.Kind == EventMessage && e.Ours && e.Msg.Header.MsgType == "status" && statusOf(e.Msg) == "busy" &&
			e.Msg.Parent.MsgType == "execute_request"
	})
	return e.Msg.Parent.SubshellID
}

func TestSilentCallsSubshell(t *testing.T) {
	want := wantSubshells(t)
	k := startKernel(t)
	c := k.dial(t, Options{})
	if got := c.Info().Subshells(); got != want {
		t.Fatalf("kernel_info names subshells = %v, want %v (ipykernel %s; supported_features %v)",
			got, want, testpython.Version("ipykernel"), c.Info().SupportedFeatures)
	}
	ctx := testCtx(t, 60*time.Second)
	sub := c.Subscribe()
	defer sub.Close()
	if v, err := c.Evaluate(ctx, "'ok'", CallOptions{}); err != nil || v != "ok" {
		t.Fatalf("Evaluate = %q, %v", v, err)
	}
	id := c.SilentSubshell()
	if (id != "") != want {
		t.Fatalf("the silent call's subshell = %q, want one: %v", id, want)
	}
	if got := ourBusySubshell(t, sub); got != id {
		t.Errorf("the kernel ran the silent call in subshell %q, want %q", got, id)
	}
	// A silent Execute gathers what it printed from the subshell too.
	if res, err := c.Execute(ctx, "print('from', 'dapscope')", ExecOptions{}); err != nil || res.Stdout != "from dapscope\n" {
		t.Errorf("silent Execute = %+v, %v", res, err)
	}

	// Told not to (and on ipykernel 6): the main shell, no subshell made.
	m := k.dial(t, Options{NoSubshell: true})
	msub := m.Subscribe()
	defer msub.Close()
	if v, err := m.EvaluateRepr(ctx, "1 + 1", CallOptions{}); err != nil || v != "2" {
		t.Fatalf("EvaluateRepr on the main shell = %q, %v", v, err)
	}
	if m.SilentSubshell() != "" {
		t.Errorf("NoSubshell made subshell %q", m.SilentSubshell())
	}
	if got := ourBusySubshell(t, msub); got != "" {
		t.Errorf("NoSubshell: the call ran in subshell %q", got)
	}
	if !want {
		return
	}

	// The user's cell that arrives while dapscope's call runs is not held
	// behind it: the call waits for what that cell does, and gets it.
	flag := filepath.Join(t.TempDir(), "flag")
	user := k.dial(t, Options{NoSubshell: true})
	if _, err := user.Execute(ctx, "import os, time\ndef wait_flag(p):\n    while not os.path.exists(p):\n        time.sleep(0.01)\n    return 'seen'\n",
		ExecOptions{Visible: true}); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 1)
	wsub := c.Subscribe()
	defer wsub.Close()
	go func() {
		v, err := c.Evaluate(ctx, "wait_flag("+pyQuote(flag)+")", CallOptions{Wait: 30 * time.Second})
		if err != nil {
			v = err.Error()
		}
		got <- v
	}()
	if sid := ourBusySubshell(t, wsub); sid != id { // it runs in the kernel now
		t.Fatalf("the waiting call ran in subshell %q, want %q", sid, id)
	}
	if _, err := user.Execute(ctx, "open("+pyQuote(flag)+", 'w').close()", ExecOptions{Visible: true}); err != nil {
		t.Fatalf("the user's cell while dapscope's call runs: %v", err)
	}
	if v := <-got; v != "seen" {
		t.Errorf("dapscope's call = %q, want seen", v)
	}

	// Close deletes the subshell.
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	for {
		a, err := m.do(ctx, call{channel: ChannelControl, msgType: "list_subshell_request", content: struct{}{}})
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			SubshellID []string `json:"subshell_id"`
		}
		_ = json.Unmarshal(a.reply.Content, &r)
		if len(r.SubshellID) == 0 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("the subshells after Close: %v", r.SubshellID)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// TestTrackerSubshellBeside: a busy status of a subshell's request (any
// client's) runs beside the main shell: the user's running cell goes on.
func TestTrackerSubshellBeside(t *testing.T) {
	tr := newTracker("us")
	now := time.Now()
	msg := func(typ string, parent Header, content string) *Message {
		return &Message{Channel: ChannelIOPub, Header: Header{MsgType: typ}, Parent: parent, Content: json.RawMessage(content)}
	}
	cell := Header{MsgID: "cell", Session: "user", MsgType: "execute_request"}
	tr.observe(msg("status", cell, `{"execution_state":"busy"}`), now)
	tr.observe(msg("execute_input", cell, `{"code":"long()","execution_count":3}`), now)
	for _, sess := range []string{"us", "other"} {
		side := Header{MsgID: "side-" + sess, Session: sess, MsgType: "execute_request", SubshellID: "sub1"}
		tr.observe(msg("status", side, `{"execution_state":"busy"}`), now)
		tr.observe(msg("status", side, `{"execution_state":"idle"}`), now)
		if c, _, ok := tr.blocking(now); !ok || c.MsgID != "cell" {
			t.Errorf("after a subshell request of %s: blocking = %+v, %v; want the user's cell", sess, c, ok)
		}
	}
	// A main-shell request of another client does end it (its idle was lost).
	main := Header{MsgID: "main", Session: "other", MsgType: "execute_request"}
	tr.observe(msg("status", main, `{"execution_state":"busy"}`), now)
	if c, _, ok := tr.blocking(now); ok && c.MsgID == "cell" {
		t.Errorf("a main-shell request did not end the cell")
	}
}
