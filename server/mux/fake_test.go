// fake_test.go: an in-memory scripted adapter for the mux unit tests, and
// the editor attached to the mux (a daptest client over a pipe).

package mux

import (
	"encoding/json"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// peer is one end of a DAP connection used by a test.
type peer struct {
	conn net.Conn
	r    *dap.Reader
	w    *dap.Writer
}

func newPeer(c net.Conn) *peer { return &peer{conn: c, r: dap.NewReader(c), w: dap.NewWriter(c)} }

// fakeAdapter answers every request with a success response echoing the
// command (body {"echo": arguments}), except what script handles. It
// returns when the connection closes.
type fakeAdapter struct {
	*peer
	mu     sync.Mutex
	seq    int
	script func(a *fakeAdapter, req daptest.Msg) bool // true: handled
}

func startFake(t testing.TB, script func(a *fakeAdapter, req daptest.Msg) bool) (*Mux, *fakeAdapter, func()) {
	return startFakeWith(t, Options{}, script)
}

// startFakeWith is startFake with Mux options.
func startFakeWith(t testing.TB, opts Options, script func(a *fakeAdapter, req daptest.Msg) bool) (*Mux, *fakeAdapter, func()) {
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
			req, err := daptest.Decode(b)
			if err != nil || req.Env.Type != "request" {
				continue
			}
			if a.script != nil && a.script(a, req) {
				continue
			}
			a.respond(req, true, map[string]any{"echo": req.Arguments})
		}
	}()
	return m, a, func() {
		_ = down.Close()
		<-runDone
		<-fakeDone
	}
}

func (a *fakeAdapter) respond(req daptest.Msg, ok bool, body any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	b, _ := json.Marshal(map[string]any{"seq": a.seq, "type": "response", "request_seq": req.Env.Seq, "command": req.Env.Command, "success": ok, "body": body})
	_ = a.w.WriteFrame(b)
}

func (a *fakeAdapter) event(name string, body any) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.seq++
	b, _ := json.Marshal(map[string]any{"seq": a.seq, "type": "event", "event": name, "body": body})
	_ = a.w.WriteFrame(b)
}

// attachEditor serves an editor over a pipe; it returns the editor (its
// waits bounded by 10 s) and a func that disconnects it.
func attachEditor(t testing.TB, m *Mux) (*daptest.Client, func()) {
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
	ed := daptest.New(t, edSide)
	ed.Timeout = 10 * time.Second
	return ed, func() { ed.Close(); <-done }
}

var _ = io.EOF

func pipePair() (net.Conn, net.Conn) { return net.Pipe() }
