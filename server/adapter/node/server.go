// Package node is dapscope's Node.js debug adapter: a DAP server in Go that
// launches `node --inspect-brk` (or attaches to a running inspector) and
// speaks the Chrome DevTools Protocol to V8's inspector. Upward it is a DAP
// adapter on any connection (the sidecar gives it one end of a pipe), so
// the multiplexer, sessions, MCP and the editor proxy use it like debugpy.
//
// server.go holds the server: options, its state, the request loop (one
// request at a time, in order; a launch is answered after
// configurationDone), the dispatch table and the writers of responses and
// events. Each concern lives in its own file: cdp.go (the inspector
// connection), launch.go (the node process), lifecycle.go (launch, attach,
// configurationDone, disconnect, the end of the program), events.go (the
// inspector's events), breakpoints.go, stack.go (threads, stack, scopes),
// variables.go, format.go (values as text), evaluate.go, setvariable.go,
// stepping.go and output.go.
package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap"
)

// Options configure a Server.
type Options struct {
	// Node is the node executable ("": DefaultNode on PATH); a launch's
	// runtimeExecutable overrides it.
	Node   string
	Logger *slog.Logger
	// StartTimeout bounds node's start until its first pause (default 20 s).
	StartTimeout time.Duration
	// EvalTimeout bounds one evaluation in the debuggee (default 10 s).
	EvalTimeout time.Duration
	// CallTimeout bounds any other inspector call (default 30 s).
	CallTimeout time.Duration
	// Hops is where connections to an inspector may go (hops.go; zero:
	// loopback, with the attach's own host and AllowHosts added).
	Hops Hops
}

// Server is one DAP session over a node inspector.
type Server struct {
	opts Options
	log  *slog.Logger
	rw   io.ReadWriteCloser

	wmu sync.Mutex // one frame at a time
	// stopGate is held by a resuming request until its response is
	// written (stepping.go), and while a stopped or continued event is
	// sent: which stops clients were told of before a continued event is
	// exact (threads.go, continued).
	stopGate sync.Mutex
	w        *dap.Writer
	seq      int

	bg sync.WaitGroup // the event loop and the process watcher

	mu                sync.Mutex
	cdp               *conn
	proc              *process // nil when attached
	attached          bool
	stopOnEntry       bool
	pendingInit       *godap.Request        // the launch or attach, answered after configurationDone
	entry             *debugger.EventPaused // node's first pause, held until configurationDone
	entryCh           chan struct{}         // closed when entry is set (or the program ended)
	configured        bool                  // configurationDone was handled
	settled           chan struct{}         // closed at configurationDone or disconnect (settle)
	settleOnce        sync.Once             //
	threads           map[int]*thread       // by DAP id: main (1) and workers (threads.go)
	bySession         map[string]*thread    // workers by NodeWorker session
	nextThread        int                   //
	handles           map[int]handleEntry   // frames and variable references of the current stops
	nextHandle        int                   //
	scriptRefs        map[int]scriptKey     // sourceReference → script
	pauseOnExceptions debugger.SetPauseOnExceptionsState
	maps              *sourceMaps   // source maps of the scripts (sourcemaps.go)
	out               *outFiles     // the launched program's generated files (outfiles.go)
	root              string        // the workspace the paths of maps must be in (mapguard.go)
	programDone       chan struct{} // closed when the program ended (or node died)
	endOnce           sync.Once     //
	exited            chan struct{} // closed once exited/terminated were sent
	closing           bool          // the adapter closes the inspector itself
	mainContext       int64         // the main thread's default execution context
	// bindMu serializes setting breakpoints in threads (setBreakpoints,
	// a worker's preparation), so that each thread gets each one once.
	bindMu sync.Mutex
	bps    breakpoints
}

// handleEntry is a handle's value and the thread it belongs to.
type handleEntry struct {
	th *thread
	v  any
}

// scriptKey names a script: script ids are per thread.
type scriptKey struct {
	th *thread
	id cdp.ScriptID
}

// script is a parsed script.
type script struct {
	url string
	ref int        // its sourceReference when it has no file path
	sm  *sourceMap // its source map, once loaded (nil: none, or not usable)
}

// New returns a server that will serve DAP on rw.
func New(rw io.ReadWriteCloser, opts Options) *Server {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.StartTimeout <= 0 {
		opts.StartTimeout = 20 * time.Second
	}
	if opts.EvalTimeout <= 0 {
		opts.EvalTimeout = 10 * time.Second
	}
	if opts.CallTimeout <= 0 {
		opts.CallTimeout = 30 * time.Second
	}
	return &Server{opts: opts, log: opts.Logger.With("adapter", "node"), rw: rw, w: dap.NewWriter(rw),
		handles: map[int]handleEntry{}, threads: map[int]*thread{}, bySession: map[string]*thread{}, nextThread: ThreadID,
		scriptRefs: map[int]scriptKey{}, maps: newSourceMaps(), bps: newBreakpoints(),
		programDone: make(chan struct{}), exited: make(chan struct{}), settled: make(chan struct{})}
}

// handler serves one request; raw is its arguments (nil: none). It returns
// the response body or an error.
type handler func(s *Server, ctx context.Context, req *godap.Request, raw []byte) (any, error)

var handlers = map[string]handler{
	"initialize":              (*Server).initialize,
	"launch":                  (*Server).launch,
	"attach":                  (*Server).attach,
	"configurationDone":       (*Server).configurationDone,
	"disconnect":              (*Server).disconnect,
	"terminate":               (*Server).terminate,
	"setBreakpoints":          (*Server).setBreakpoints,
	"setExceptionBreakpoints": (*Server).setExceptionBreakpoints,
	"threads":                 (*Server).threadsRequest,
	"stackTrace":              (*Server).stackTrace,
	"scopes":                  (*Server).scopes,
	"variables":               (*Server).variables,
	"source":                  (*Server).source,
	"evaluate":                (*Server).evaluate,
	"exceptionInfo":           (*Server).exceptionInfo,
	"setVariable":             (*Server).setVariable,
	"setExpression":           (*Server).setExpression,
	"continue":                (*Server).continue_,
	"next":                    (*Server).next,
	"stepIn":                  (*Server).stepIn,
	"stepOut":                 (*Server).stepOut,
	"pause":                   (*Server).pause,
}

// errNoBody marks a handler that wrote its response itself (or will).
var errNoBody = errors.New("response deferred")

// Serve reads requests until the connection ends, then ends the debuggee
// (a launched node is killed) and waits for its own goroutines. Requests
// are served one at a time, in order; the end of the connection cancels
// the one being served.
func (s *Server) Serve() error {
	base, cancelAll := context.WithCancel(context.Background())
	defer s.shutdown()
	reqs := make(chan []byte, 64)
	var readErr error
	go func() {
		defer close(reqs)
		defer cancelAll()
		r := dap.NewReader(s.rw)
		for {
			b, err := r.ReadFrame()
			if err != nil {
				var fe *dap.FrameError
				if errors.As(err, &fe) {
					s.log.Warn("malformed DAP frame", "err", err)
				}
				if !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
					readErr = err
				}
				return
			}
			select {
			case reqs <- b:
			case <-base.Done():
				return
			}
		}
	}()
	for b := range reqs {
		s.serve(base, b)
	}
	return readErr
}

// serve answers one request (decoded once: the envelope and the raw
// arguments, which the handler decodes).
func (s *Server) serve(base context.Context, b []byte) {
	var m struct {
		godap.Request
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(b, &m); err != nil || m.Type != "request" {
		s.log.Warn("not a DAP request", "err", err)
		return
	}
	req := m.Request
	h, ok := handlers[req.Command]
	if !ok {
		s.fail(&req, fmt.Errorf("%s is not supported by the node adapter", req.Command))
		return
	}
	ctx, cancel := context.WithTimeout(base, s.opts.CallTimeout+s.opts.EvalTimeout)
	defer cancel()
	body, err := h(s, ctx, &req, m.Arguments)
	switch {
	case errors.Is(err, errNoBody):
	case err != nil:
		s.settleEnd()
		s.fail(&req, err)
	default:
		s.respond(&req, body)
	}
}

// shutdown ends what the session started: a launched node is killed, the
// inspector connection closed, and the background goroutines waited for.
func (s *Server) shutdown() {
	s.settle()
	s.mu.Lock()
	p, c := s.proc, s.cdp
	s.closing = true
	s.mu.Unlock()
	if p != nil {
		p.kill()
	}
	if c != nil {
		_ = c.Close()
	}
	s.bg.Wait()
}

// settleEnd: when a request failed because the inspector connection
// dropped under a launched node (killed, crashed), the failure is sent
// once node has been reaped (bounded), so the client sees a program that
// is gone rather than one that merely stopped answering.
func (s *Server) settleEnd() {
	s.mu.Lock()
	p, c := s.proc, s.cdp
	s.mu.Unlock()
	if p == nil || c == nil || !c.closed() {
		return
	}
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// respond writes a successful response with body (nil: none).
func (s *Server) respond(req *godap.Request, body any) {
	head := func(seq int) godap.Response {
		return godap.Response{ProtocolMessage: godap.ProtocolMessage{Seq: seq, Type: "response"},
			RequestSeq: req.Seq, Command: req.Command, Success: true}
	}
	if rb, ok := body.(rawBody); ok {
		// the envelope by encoding/json, the body appended as it writes itself
		s.send(func(seq int) ([]byte, error) {
			b, err := json.Marshal(head(seq)) // an object: its last byte is '}'
			if err != nil {
				return nil, err
			}
			return append(rb.appendJSON(append(b[:len(b)-1], `,"body":`...)), '}'), nil
		})
		return
	}
	s.write(func(seq int) any {
		return struct {
			godap.Response
			Body any `json:"body,omitempty"`
		}{head(seq), body}
	})
}

// rawBody is a body that writes its own JSON (appended to dst): one that
// holds text already encoded (a clipboard answer, kilobytes to megabytes)
// that encoding/json would scan again to compact it.
type rawBody interface{ appendJSON(dst []byte) []byte }

// fail writes an error response.
func (s *Server) fail(req *godap.Request, err error) {
	msg := err.Error()
	s.write(func(seq int) any {
		return godap.ErrorResponse{Response: godap.Response{ProtocolMessage: godap.ProtocolMessage{Seq: seq, Type: "response"},
			RequestSeq: req.Seq, Command: req.Command, Success: false, Message: msg},
			Body: godap.ErrorResponseBody{Error: &godap.ErrorMessage{Id: 1, Format: msg, ShowUser: true}}}
	})
}

// event writes an event with body.
func (s *Server) event(name string, body any) {
	s.write(func(seq int) any {
		return struct {
			godap.Event
			Body any `json:"body,omitempty"`
		}{godap.Event{ProtocolMessage: godap.ProtocolMessage{Seq: seq, Type: "event"}, Event: name}, body}
	})
}

// write encodes and sends one message; build gets its seq.
func (s *Server) write(build func(seq int) any) {
	s.send(func(seq int) ([]byte, error) { return json.Marshal(build(seq)) })
}

// send sends the message encode writes for the next seq.
func (s *Server) send(encode func(seq int) ([]byte, error)) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	s.seq++
	b, err := encode(s.seq)
	if err != nil {
		s.log.Error("encoding a DAP message", "err", err)
		return
	}
	if err := s.w.WriteFrame(b); err != nil {
		s.log.Debug("writing to the client", "err", err)
	}
}

// inspector returns the inspector connection, or an error before launch.
func (s *Server) inspector() (*conn, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cdp == nil {
		return nil, errors.New("no program is being debugged (launch or attach first)")
	}
	return s.cdp, nil
}

// args decodes a request's arguments (a handler's raw) into v.
func args(raw []byte, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return fmt.Errorf("invalid arguments: %w", err)
	}
	return nil
}

// newHandle registers v (a frame or a variable reference of th's stop).
func (s *Server) newHandle(th *thread, v any) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.nextHandle++
	s.handles[s.nextHandle] = handleEntry{th: th, v: v}
	return s.nextHandle
}

// forgetStopLocked forgets th's stop and its handles (s.mu held).
func (s *Server) forgetStopLocked(th *thread) {
	th.paused, th.shown = nil, nil
	for id, h := range s.handles {
		if h.th == th {
			delete(s.handles, id)
		}
	}
}

// live resolves a request's reference (a frame or variables handle) and
// the thread it is used on; a stale reference says why.
func live[T any](s *Server, what string, id int) (T, *thread, error) {
	v, th, ok := handle[T](s, id)
	if !ok {
		var zero T
		return zero, nil, s.staleErr(what, id)
	}
	return v, th, nil
}

// handle looks a handle up; ok is false for an unknown or stale one.
func handle[T any](s *Server, id int) (T, *thread, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.handles[id]
	v, ok := h.v.(T)
	return v, h.th, ok
}
