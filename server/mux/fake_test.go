// fake_test.go: an in-memory scripted adapter and a raw DAP peer for the
// mux unit tests and benchmarks.

package mux

import (
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// peer is one end of a DAP connection used by a test.
type peer struct {
	conn net.Conn
	r    *dap.Reader
	w    *dap.Writer
}

func newPeer(c net.Conn) *peer { return &peer{conn: c, r: dap.NewReader(c), w: dap.NewWriter(c)} }

func (p *peer) send(t testing.TB, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.w.WriteFrame(b); err != nil {
		t.Fatalf("send: %v", err)
	}
}

// recv reads one message into a generic map (fails after 10 s).
func (p *peer) recv(t testing.TB) map[string]any {
	t.Helper()
	_ = p.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := p.r.ReadFrame()
	if err != nil {
		t.Fatalf("recv: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("recv: %v", err)
	}
	return m
}

// fakeAdapter answers every request with a success response echoing the
// command (body {"echo": arguments}), except what script handles. It
// returns when the connection closes.
type fakeAdapter struct {
	*peer
	mu     sync.Mutex
	seq    int
	script func(a *fakeAdapter, req map[string]any) bool // true: handled
}

func startFake(t testing.TB, script func(a *fakeAdapter, req map[string]any) bool) (*Mux, *fakeAdapter, func()) {
	return startFakeWith(t, Options{}, script)
}

// startFakeWith is startFake with Mux options.
func startFakeWith(t testing.TB, opts Options, script func(a *fakeAdapter, req map[string]any) bool) (*Mux, *fakeAdapter, func()) {
	up, down := net.Pipe()
	a := &fakeAdapter{peer: newPeer(down), script: script}
	m := New(up, opts)
	runDone := make(chan struct{})
	go func() { _ = m.Run(); close(runDone) }()
	fakeDone := make(chan struct{})
	go func() {
		defer close(fakeDone)
		for {
			b, err := a.r.ReadFrame()
			if err != nil {
				return
			}
			var req map[string]any
			_ = json.Unmarshal(b, &req)
			if req["type"] != "request" {
				continue
			}
			if a.script != nil && a.script(a, req) {
				continue
			}
			a.respond(req, true, map[string]any{"echo": req["arguments"]})
		}
	}()
	return m, a, func() {
		_ = down.Close()
		<-runDone
		<-fakeDone
	}
}

func (a *fakeAdapter) respond(req map[string]any, ok bool, body any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	b, _ := json.Marshal(map[string]any{"seq": a.seq, "type": "response", "request_seq": req["seq"], "command": req["command"], "success": ok, "body": body})
	_ = a.w.WriteFrame(b)
}

func (a *fakeAdapter) event(name string, body any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	b, _ := json.Marshal(map[string]any{"seq": a.seq, "type": "event", "event": name, "body": body})
	_ = a.w.WriteFrame(b)
}

// attachEditor serves an editor over a pipe; it returns the editor's end.
func attachEditor(t testing.TB, m *Mux) (*peer, func()) {
	edSide, muxSide := net.Pipe()
	done := make(chan struct{})
	go func() { _ = m.ServeEditor(t.Context(), muxSide); close(done) }()
	// Wait until attached so events are not missed.
	for i := 0; i < 1000; i++ {
		m.mu.Lock()
		ok := m.editor != nil
		m.mu.Unlock()
		if ok {
			break
		}
		time.Sleep(time.Millisecond)
	}
	return newPeer(edSide), func() { _ = edSide.Close(); <-done }
}

var _ = io.EOF

func pipePair() (net.Conn, net.Conn) { return net.Pipe() }
