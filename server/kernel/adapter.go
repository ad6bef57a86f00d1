// adapter.go: the virtual DAP adapter of a kernel session. A session of the
// session manager (session.Manager.Kernel) talks DAP to it over an
// in-memory pipe, as to any debug adapter; it answers from a Client:
// while the kernel is idle its namespace is a stopped thread (one frame,
// one scope: adapter_namespace.go); a user's cell is the program running;
// a cell paused in the kernel's debugger is that debugger's stop, and the
// session's requests go to it (adapter_debugger.go); what makes no sense
// on a kernel is refused saying what to use instead (adapter_refuse.go).
// The kernel's events become DAP events (adapter_follow.go). This file
// holds the Adapter, its pipe, the one writer and the request dispatch.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/dap"
)

// The namespace's fixed DAP ids. They are far from the small ids debugpy
// hands out, so a request for the namespace is never taken for one of the
// kernel debugger's frames.
const (
	NamespaceThread = 1
	NamespaceFrame  = 1 << 30
	NamespaceScope  = 1<<30 + 1
)

const (
	maxAdapterCalls = 32              // requests served at once
	adapterCallMax  = 2 * time.Minute // one request to the kernel at most
)

// AdapterOptions tune an Adapter.
type AdapterOptions struct {
	Logger *slog.Logger
	// SummaryTimeout is the probe's budget for the namespace listing
	// (default 2 s).
	SummaryTimeout time.Duration
	// DeadGrace is how long a dead kernel may take to come back (a local
	// restart reuses its connection file) before the session ends
	// (default 10 s).
	DeadGrace time.Duration
}

// Adapter is the virtual DAP adapter of one kernel session. It owns its
// Client: the client is closed when the session ends (detach), never the
// kernel.
type Adapter struct {
	c    *Client
	log  *slog.Logger
	opts AdapterOptions
	conn net.Conn // the adapter's end of the pipe
	peer *adapterConn
	r    *dap.Reader
	w    *dap.Writer
	seq  atomic.Int64
	ns   *namespace

	ctx    context.Context
	cancel context.CancelFunc

	mu      sync.Mutex
	queue   [][]byte // frames waiting for the writer
	wake    chan struct{}
	mode    string // modeIdle, modeRunning, modePaused, modeEnded ("" before start)
	cellID  string // msg_id of the last finished cell announced as a stop
	count   int    // the last known In[n]
	errCell string // the cell whose exception errText is
	errText string // "Type: message" of the last exception a user's cell raised
	deadErr error  // why the kernel is dead, while it may still come back
	ended   string // why the session ended on its own (the kernel died)

	started  sync.Once
	stopOnce sync.Once
	wg       sync.WaitGroup
	done     chan struct{}
}

// adapterConn is the session's end of the pipe: closing it ends the
// adapter and returns once its goroutines are gone.
type adapterConn struct {
	net.Conn
	a *Adapter
}

func (c *adapterConn) Close() error {
	err := c.Conn.Close()
	c.a.shutdown()
	return err
}

// NewAdapter makes the virtual adapter of a session on c. Conn is the
// session's side; Start begins serving once the session is registered.
func NewAdapter(c *Client, opts AdapterOptions) *Adapter {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.SummaryTimeout <= 0 {
		opts.SummaryTimeout = 2 * time.Second
	}
	if opts.DeadGrace <= 0 {
		opts.DeadGrace = 10 * time.Second
	}
	ours, theirs := net.Pipe()
	a := &Adapter{c: c, log: opts.Logger, opts: opts, conn: ours, r: dap.NewReader(ours), w: dap.NewWriter(ours),
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	a.peer = &adapterConn{Conn: theirs, a: a}
	a.ns = &namespace{a: a}
	a.ctx, a.cancel = context.WithCancel(context.Background())
	return a
}

// Conn is the DAP stream the session talks on.
func (a *Adapter) Conn() io.ReadWriteCloser { return a.peer }

// Client is the kernel client the adapter answers from.
func (a *Adapter) Client() *Client { return a.c }

// Start serves the session's requests and sends the kernel's state as
// DAP events (the first one: stopped in the namespace, or continued while
// a cell runs). Call it once the session reads the stream.
func (a *Adapter) Start() {
	a.started.Do(func() {
		sub := a.c.Subscribe() // before the first sync, so no change is missed
		a.wg.Add(3)
		go a.serve()
		go a.write()
		go a.follow(sub)
	})
}

// shutdown ends the adapter: its calls are cancelled, the client is closed
// (the kernel goes on), and every goroutine is gone when it returns.
func (a *Adapter) shutdown() {
	a.stopOnce.Do(func() {
		a.cancel()
		_ = a.conn.Close()
		a.wg.Wait()
		_ = a.c.Close()
		close(a.done)
	})
	<-a.done
}

// Done is closed once the adapter has shut down.
func (a *Adapter) Done() <-chan struct{} { return a.done }

// serve reads the session's requests until the pipe closes; each is
// answered on its own goroutine (a probe evaluation must not hold up a
// stackTrace), at most maxAdapterCalls at once.
func (a *Adapter) serve() {
	defer a.wg.Done()
	defer a.cancel()
	var calls sync.WaitGroup
	defer calls.Wait()
	sem := make(chan struct{}, maxAdapterCalls)
	for {
		env, args, err := dap.NextRequest(a.r, func(err error) { a.log.Warn("kernel adapter: bad frame from the session", "err", err) })
		if err != nil {
			return
		}
		select {
		case sem <- struct{}{}:
		case <-a.ctx.Done():
			return
		}
		calls.Add(1)
		go func() {
			defer calls.Done()
			defer func() { <-sem }()
			a.answer(env, args)
		}()
	}
}

// answer runs one request and queues its response.
func (a *Adapter) answer(env dap.Envelope, args json.RawMessage) {
	ctx, cancel := context.WithTimeout(a.ctx, adapterCallMax)
	defer cancel()
	body, err := a.handle(ctx, env.Command, args)
	var frame []byte
	switch {
	case err == nil:
		if frame, err = dap.SuccessResponse(a.nextSeq(), env, body); err != nil {
			frame = dap.ErrorResponse(a.nextSeq(), env, errcode.Internal, err.Error())
		}
	default:
		frame = a.errorFrame(env, err)
	}
	if len(frame) > dap.MaxFrame {
		// Only this call fails: the session's reader refuses the frame
		// and the writer goes on with the next.
		frame = dap.CodedErrorResponse(a.nextSeq(), env, &errcode.Error{Code: errcode.LimitExceeded,
			Message: fmt.Sprintf("the answer to %s is %d bytes, over the %d-byte cap of a DAP message", env.Command, len(frame), dap.MaxFrame),
			Hint:    "inspect the value (debug_inspect_variable) or evaluate a slice of it"})
	}
	a.push(frame)
	if env.Command == "disconnect" {
		a.log.Info("kernel session detached", "kernel", a.c.Name())
	}
}

// handle answers one request: the debugger's while a cell is paused in
// it, the namespace's while the kernel is idle, a refusal otherwise.
func (a *Adapter) handle(ctx context.Context, command string, args json.RawMessage) (any, error) {
	switch command {
	case "initialize":
		return capabilities, nil
	case "disconnect":
		return nil, nil
	}
	if e := a.refusal(command); e != nil {
		return nil, e
	}
	if a.forwards(command, args) {
		return a.forward(ctx, command, args)
	}
	return a.ns.handle(ctx, command, args)
}

// capabilities are the virtual adapter's: it reads values, nothing more.
var capabilities = map[string]any{
	"supportsConfigurationDoneRequest": false,
	"supportsEvaluateForHovers":        true,
	"supportsSetVariable":              false,
	"supportsValueFormattingOptions":   true,
}

func (a *Adapter) nextSeq() int { return int(a.seq.Add(1)) }

// push queues a frame for the writer.
func (a *Adapter) push(frame []byte) {
	a.mu.Lock()
	a.queue = append(a.queue, frame)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// write is the pipe's one writer: frames go out in the order queued.
func (a *Adapter) write() {
	defer a.wg.Done()
	for {
		select {
		case <-a.ctx.Done():
			return
		case <-a.wake:
		}
		for {
			a.mu.Lock()
			if len(a.queue) == 0 {
				a.mu.Unlock()
				break
			}
			frame := a.queue[0]
			a.queue[0] = nil
			a.queue = a.queue[1:]
			a.mu.Unlock()
			if err := a.w.WriteFrame(frame); err != nil {
				a.log.Debug("kernel adapter: frame not written", "err", err)
				if errors.Is(err, dap.ErrFrameTooLarge) {
					continue // that frame alone is lost, never the session
				}
				return
			}
		}
	}
}
