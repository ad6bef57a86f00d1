// proxy_pair_test.go: ProxySpec.Token pairs the session of a proxy's one
// connection with whoever asked for the proxy (issue #28.5), against real
// node: Pair hears the token and the session as the connection arrives,
// before the editor has sent a byte; a refused pairing closes the
// connection unread (no answer, the session forgotten); Unpaired hears a
// wait that ended without a connection and an adapter that could not start.

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

// within receives from ch or fails the test after a minute.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatalf("no %s within a minute", what)
		panic("unreachable")
	}
}

func TestProxyPairsByTokenBeforeAnyByte(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	type pairing struct{ token, id string }
	paired := make(chan pairing, 1)
	spec := ProxySpec{Adapter: "node", Token: "token-1",
		Pair:     func(token, id string) error { paired <- pairing{token, id}; return nil },
		Unpaired: func(token string, err error) { t.Errorf("Unpaired(%s, %v) for a connection that paired", token, err) }}
	addr, err := m.ListenEditor(testCtx(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	// Paired on arrival: nothing sent yet.
	p := within(t, paired, "pairing")
	ed := daptest.New(t, conn)
	ed.Initialize(daptest.InitArgs("test-editor", "node"))
	var info struct {
		ID string `json:"id"`
	}
	if err := ed.Call("dapscope/session", nil).Unmarshal(&info); err != nil {
		t.Fatal(err)
	}
	if p.token != "token-1" || p.id != info.ID {
		t.Fatalf("Pair(%q, %q); the connection is session %q", p.token, p.id, info.ID)
	}
	ed.Disconnect(true)
	ed.Close()
}

func TestProxyRefusedPairingProxiesNothing(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	asked := make(chan string, 1)
	spec := ProxySpec{Adapter: "node", Token: "stale",
		Pair: func(token, id string) error { asked <- id; return errors.New("no startProxy waits for it") }}
	addr, err := m.ListenEditor(testCtx(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	id := within(t, asked, "pairing")
	// The editor's initialize gets no answer: the connection closes unread.
	body := `{"seq":1,"type":"request","command":"initialize","arguments":{"adapterID":"node"}}`
	_, _ = fmt.Fprintf(conn, "Content-Length: %d\r\n\r\n%s", len(body), body)
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	got, err := io.ReadAll(conn)
	if len(got) != 0 || errors.Is(err, os.ErrDeadlineExceeded) { // EOF, or a reset / ended pipe: closed
		t.Fatalf("a refused connection answered %q (%v)", got, err)
	}
	// The session made for it is ended and forgotten.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := m.Get(id); err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("session %s of a refused connection is still listed", id)
		}
	}
}

func TestProxyUnpaired(t *testing.T) {
	type unpaired struct {
		token string
		err   error
	}
	got := make(chan unpaired, 1)
	spec := ProxySpec{Adapter: "node",
		Pair: func(token, id string) error {
			t.Errorf("Pair(%s, %s) without a session to pair", token, id)
			return nil
		},
		Unpaired: func(token string, err error) { got <- unpaired{token, err} }}

	// No connection: the wait ends with its context.
	m := newTestManager(t, ManagerOptions{})
	ctx, cancel := context.WithCancel(testCtx(t))
	spec.Token = "never-connected"
	if _, err := m.ListenEditor(ctx, spec); err != nil {
		t.Fatal(err)
	}
	cancel()
	if u := within(t, got, "Unpaired"); u.token != "never-connected" || u.err == nil || !strings.Contains(u.err.Error(), "no connection") {
		t.Fatalf("Unpaired(%q, %v)", u.token, u.err)
	}

	// A connection whose adapter cannot start.
	bad := newTestManager(t, ManagerOptions{Node: "/nonexistent/node"})
	spec.Token = "no-adapter"
	addr, err := bad.ListenEditor(testCtx(t), spec)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if u := within(t, got, "Unpaired"); u.token != "no-adapter" || u.err == nil {
		t.Fatalf("Unpaired(%q, %v)", u.token, u.err)
	}
}
