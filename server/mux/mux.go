// Package mux shares ONE live debug-adapter connection between the editor
// (the primary client, which sees exactly the stream it would see talking to
// the adapter directly) and any number of internal clients (inspector, MCP
// agents, hover).
//
// This file holds the Mux: the upstream read loop, routing of responses by
// request_seq and event fan-out. Internal requests (Do/Call) are in
// call.go, the editor side in editor.go, state tracking in state.go.
//
// Sequence numbers: the editor's requests go upstream byte-for-byte with the
// editor's own seq. The sidecar's requests are rewritten into a disjoint
// range starting at InternalSeqBase, so a response's request_seq alone says
// who asked; internal callers never see the upstream seq.
package mux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
)

// InternalSeqBase is the first seq the sidecar uses upstream. Editors count
// from 1, so the ranges never meet in practice.
const InternalSeqBase = 1 << 30

// ErrAdapterExited is returned for requests pending or sent after the
// adapter connection closed.
var ErrAdapterExited = errors.New("debug adapter exited")

// NotPausedError is the fast failure for requests that need a stopped thread.
type NotPausedError struct {
	Command string
	Status  string
}

func (e *NotPausedError) Error() string {
	return fmt.Sprintf("%s needs a paused debuggee (session is %s)", e.Command, e.Status)
}

// Handler answers editor requests under the reserved "dapscope/" prefix. It
// returns the response body, or an error sent as an error response.
type Handler func(ctx context.Context, command string, arguments json.RawMessage) (any, error)

// ReverseHandler answers adapter→client requests (runInTerminal,
// startDebugging) when no editor is attached.
type ReverseHandler func(command string, arguments json.RawMessage) (any, error)

// Options configure a Mux.
type Options struct {
	Logger *slog.Logger
	// Handler serves "dapscope/…" requests from the editor.
	Handler Handler
	// Reverse serves adapter reverse requests in headless sessions.
	Reverse ReverseHandler
	// CheckLaunch sees the arguments of the editor's launch and attach
	// requests before they are forwarded (the sidecar's own options may
	// ride in them); an error answers the request instead of forwarding it.
	CheckLaunch func(command string, args json.RawMessage) error
	// EditLaunch may rewrite the arguments of the editor's launch and
	// attach requests after CheckLaunch (nil: forwarded as they are), e.g.
	// lldb's Rust formatters as initCommands.
	EditLaunch func(command string, args json.RawMessage) json.RawMessage
	// BeforeDisconnect runs before the editor's disconnect is forwarded
	// (the session may undo what it changed in a debuggee that goes on
	// running); it must return within a few seconds.
	BeforeDisconnect func(ctx context.Context)
	// Rewriter, when set, may replace the adapter's responses to some
	// editor requests (smart values), within RewriteBudget.
	Rewriter      Rewriter
	RewriteBudget time.Duration // default DefaultRewriteBudget
	// FramesSeen, when set, sees the arguments and the response body of
	// each successful stackTrace of the editor, on the
	// adapter's read loop (it must be cheap): the frame ids the editor was
	// handed are frames of the stop for internal clients too.
	FramesSeen func(args json.RawMessage, resp []byte)
}

// CustomPrefix marks requests the sidecar answers itself.
const CustomPrefix = "dapscope/"

type waiter struct {
	command string
	ch      chan *dap.Response
}

// Mux is one shared adapter session.
type Mux struct {
	log  *slog.Logger
	opts Options
	up   io.ReadWriteCloser
	upW  *dap.Writer

	mu      sync.Mutex
	seq     int
	pending map[int]waiter // internal requests by upstream seq
	// resumes: the stop count when each resuming request (either client's,
	// by its upstream seq) was sent. Its response must not mark the program
	// running if a newer stop came first (pydevd can queue the step's stop
	// before the step's answer).
	resumes map[int]int
	state   State
	changed chan struct{} // closed and replaced on every state change
	subs    map[*Subscription]struct{}
	editor  *editorConn
	dead    bool
	deadErr error
	outSeq  int // seq of messages the sidecar authors toward the editor

	done chan struct{}
}

// New starts routing on the adapter connection up. Run must be called.
func New(up io.ReadWriteCloser, opts Options) *Mux {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Mux{
		log:     opts.Logger,
		opts:    opts,
		up:      up,
		upW:     dap.NewWriter(up),
		seq:     InternalSeqBase,
		pending: map[int]waiter{},
		resumes: map[int]int{},
		state:   State{Status: StatusStarting},
		changed: make(chan struct{}),
		subs:    map[*Subscription]struct{}{},
		outSeq:  InternalSeqBase,
		done:    make(chan struct{}),
	}
}

// Done is closed when the adapter connection has ended.
func (m *Mux) Done() <-chan struct{} { return m.done }

// Err is why the adapter connection ended (nil while running).
func (m *Mux) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.deadErr
}

// State returns a snapshot of the tracked session state.
func (m *Mux) State() State {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state.clone()
}

// Changed returns a channel closed at the next state change.
func (m *Mux) Changed() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.changed
}

// notifyLocked wakes state waiters; m.mu must be held.
func (m *Mux) notifyLocked() {
	close(m.changed)
	m.changed = make(chan struct{})
}

// Run reads the adapter until it closes; it returns the reason. All pending
// requests of every client are failed when it returns.
func (m *Mux) Run() error {
	r := dap.NewReader(m.up)
	var err error
	for {
		var body []byte
		body, err = r.ReadFrame()
		if err != nil {
			break
		}
		env, raw, perr := dap.PeekBody(body)
		if perr != nil {
			m.log.Warn("dropping malformed message from adapter", "err", perr)
			continue
		}
		m.fromAdapter(env, body, raw)
	}
	if err == io.EOF {
		err = ErrAdapterExited
	} else {
		err = fmt.Errorf("%w: %v", ErrAdapterExited, err)
	}
	m.shutdown(err)
	return err
}

// fromAdapter routes one adapter message; raw is its "body" value as
// peeked (no message is decoded again here).
func (m *Mux) fromAdapter(env dap.Envelope, body, raw []byte) {
	switch env.Type {
	case "response":
		m.mu.Lock()
		success := env.Success != nil && *env.Success
		if m.observeResponse(env, success, raw) {
			m.notifyLocked()
		}
		if env.RequestSeq >= InternalSeqBase {
			w, ok := m.pending[env.RequestSeq]
			delete(m.pending, env.RequestSeq)
			m.mu.Unlock()
			if !ok {
				m.log.Debug("late response for an abandoned internal request", "request_seq", env.RequestSeq, "command", env.Command)
				return
			}
			w.ch <- dap.ResponseOf(env, raw) // buffered, one response per waiter
			return
		}
		ed := m.editor
		m.mu.Unlock()
		if ed != nil {
			req, ok := ed.takeRequest(env.RequestSeq)
			if ok && success && req.command == "stackTrace" && m.opts.FramesSeen != nil {
				m.opts.FramesSeen(req.args, raw)
			}
			if ok && req.rewrite && success {
				ed.rewriteResponse(req, body)
			} else {
				ed.write(body)
			}
		}
	case "event":
		ev := dap.Event{Seq: env.Seq, Type: env.Type, Event: env.Event, Body: raw}
		m.mu.Lock()
		if m.state.observeEvent(env.Event, ev.Body) {
			m.notifyLocked()
		}
		ed := m.editor
		subs := make([]*Subscription, 0, len(m.subs))
		for s := range m.subs {
			subs = append(subs, s)
		}
		m.mu.Unlock()
		if ed != nil {
			if env.Event == "terminated" {
				ed.markEnded()
			}
			ed.write(body)
		}
		for _, s := range subs {
			s.deliver(&ev)
		}
	case "request":
		m.reverseRequest(env, body)
	}
}

func (m *Mux) observeResponse(env dap.Envelope, success bool, raw []byte) bool {
	// Only a few commands change state; avoid decoding the rest.
	switch {
	case env.Command == "initialize", resumingCommands[env.Command], env.Command == "threads",
		env.Command == "configurationDone", env.Command == "launch", env.Command == "attach":
	default:
		return false
	}
	if resumingCommands[env.Command] {
		sentAt, ok := m.resumes[env.RequestSeq]
		delete(m.resumes, env.RequestSeq)
		if ok && m.state.StopCount > sentAt {
			return false // stopped again already: the answer is older news
		}
	}
	return m.state.observeResponse(env.Command, success, raw)
}

// noteResumeLocked remembers the stop count as a resuming request goes
// out; m.mu must be held.
func (m *Mux) noteResumeLocked(command string, seq int) {
	if resumingCommands[command] {
		if len(m.resumes) > 1024 { // answers that never came (a dead adapter): forget them
			clear(m.resumes)
		}
		m.resumes[seq] = m.state.StopCount
	}
}

// noteChangeLocked counts a request that may change the debuggee's
// values as it goes out (State.ChangeCount); m.mu must be held.
func (m *Mux) noteChangeLocked(command string) {
	if changingCommands[command] || resumingCommands[command] {
		m.state.ChangeCount++ // read by snapshot: no waiter needs waking
	}
}

// readOnlyKey marks a context whose requests only read (ReadOnly).
type readOnlyKey struct{}

// ReadOnly marks ctx's internal requests as reading only: an evaluate sent
// with it (the inspector's probe, which changes nothing) does not move
// State.ChangeCount.
func ReadOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, readOnlyKey{}, true)
}

func readOnly(ctx context.Context) bool { v, _ := ctx.Value(readOnlyKey{}).(bool); return v }

// reverseRequest sends an adapter→client request to the editor, or answers
// it in headless sessions.
func (m *Mux) reverseRequest(env dap.Envelope, body []byte) {
	m.mu.Lock()
	ed := m.editor
	m.mu.Unlock()
	if ed != nil {
		ed.write(body)
		return
	}
	var req struct {
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(body, &req)
	var resp []byte
	if m.opts.Reverse != nil {
		out, err := m.opts.Reverse(env.Command, req.Arguments)
		if err == nil {
			resp, err = dap.SuccessResponse(m.nextUpSeq(), env, out)
		}
		if err != nil {
			resp = dap.ErrorResponse(m.nextUpSeq(), env, errcode.UnknownCommand, err.Error())
		}
	} else {
		resp = dap.ErrorResponse(m.nextUpSeq(), env, errcode.UnknownCommand, "no editor attached to answer "+env.Command)
	}
	if err := m.upW.WriteFrame(resp); err != nil {
		m.log.Debug("answering reverse request", "err", err)
	}
}

func (m *Mux) nextUpSeq() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.seq++
	return m.seq
}

// shutdown marks the adapter dead and fails everything pending.
func (m *Mux) shutdown(err error) {
	m.mu.Lock()
	if m.dead {
		m.mu.Unlock()
		return
	}
	m.dead = true
	m.deadErr = err
	m.state.AdapterDead = true
	if m.state.Status != StatusExited {
		m.state.Status = StatusTerminated
	}
	pending := m.pending
	m.pending = map[int]waiter{}
	ed := m.editor
	subs := m.subs
	m.subs = map[*Subscription]struct{}{}
	m.notifyLocked()
	close(m.done)
	m.mu.Unlock()
	for seq, w := range pending {
		w.ch <- &dap.Response{RequestSeq: seq, Command: w.command, Message: err.Error()}
	}
	if ed != nil {
		ed.adapterGone(err)
	}
	for s := range subs {
		s.close()
	}
	_ = m.up.Close()
}

// Close ends the adapter connection (the owner stops the process).
func (m *Mux) Close() error {
	err := m.up.Close()
	<-m.done
	return err
}
