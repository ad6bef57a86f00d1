// client.go: the Client shared by both transports: its options, the
// routing of replies to waiting requests, IOPub fan-out to the busy
// tracker and subscribers, and Close.

package kernel

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/uuid"
)

// Options tune a Client; the zero value is usable.
type Options struct {
	Logger *slog.Logger
	// HeartbeatInterval is how often liveness is checked (default 1 s).
	HeartbeatInterval time.Duration
	// HeartbeatTimeout is how long a heartbeat may go unanswered before
	// the kernel counts as not answering (default 5 s).
	HeartbeatTimeout time.Duration
	// AttachGrace: when attaching, how long the shell may stay silent
	// after the control channel answered before the kernel is taken as
	// busy with a cell that was already running (default 500 ms).
	AttachGrace time.Duration
	// File relaxes the connection file checks (DialFile).
	File FileOptions
	// PID is the local kernel's process, when known: its exit is seen
	// at once (pidwatch.go).
	PID int
	// NoSubshell sends silent calls on the main shell even where the
	// kernel has subshells (subshell.go).
	NoSubshell bool
}

func (o Options) withDefaults() Options {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.HeartbeatInterval <= 0 {
		o.HeartbeatInterval = time.Second
	}
	if o.HeartbeatTimeout <= 0 {
		o.HeartbeatTimeout = 5 * time.Second
	}
	if o.AttachGrace <= 0 {
		o.AttachGrace = 500 * time.Millisecond
	}
	return o
}

// transport is what a Client needs of a connection to a kernel. It hands
// received messages to deliver and a lost connection to lost.
type transport interface {
	// send writes one message on a channel (shell, control, stdin).
	send(ctx context.Context, channel string, m *Message) error
	// ping checks that the kernel (ZeroMQ: its heartbeat) or the server
	// (websocket) answers.
	ping(ctx context.Context) error
	// reconnect replaces a lost connection (a restarted kernel).
	reconnect(ctx context.Context) error
	close() error
}

// Liveness values.
const (
	LiveAlive        = "alive"
	LiveNotAnswering = "not answering"
	LiveDead         = "dead"
	LiveClosed       = "closed"
)

// Client is a connection to one kernel. Its methods are safe for
// concurrent use.
type Client struct {
	tr      transport
	name    string // the connection file or server kernel, for messages
	session string
	log     *slog.Logger
	opts    Options

	mu       sync.Mutex
	pending  map[string]*pending
	track    *tracker
	changed  chan struct{} // closed and replaced when the tracker changes
	subs     map[*Subscription]struct{}
	live     string
	liveErr  error
	liveAt   time.Time
	info     KernelInfo
	sigBad   int // messages refused for their signature
	lastSig  time.Time
	attached time.Time
	// serverBusy: a Jupyter Server's bound on the start of a cell running
	// when we attached (its kernel model's last_activity; runningcell.go).
	serverBusy time.Time

	iopubOK       bool      // an IOPub message caused by us arrived
	kernelSession string    // the kernel process's session id, once seen
	pingOK        time.Time // the last heartbeat that answered
	// probeRestarts: the transport cannot see the kernel process go (a
	// Jupyter Server's websocket): a request left long unanswered makes
	// the liveness loop ask kernel_info on the control channel, whose
	// answer shows a new kernel session if the kernel restarted.
	probeRestarts bool
	retired       map[string]bool     // sessions of kernel processes that restarted
	sent          map[string]struct{} // our latest requests' ids (notours.go)
	sentOrder     []string

	sub subshells // the subshell of silent calls (subshell.go)

	dapSeq    atomic.Int64
	ctx       context.Context // ends at Close
	cancel    context.CancelFunc
	done      <-chan struct{}
	closeOnce sync.Once
	wg        sync.WaitGroup
}

// pending is one request waiting for its reply.
type pending struct {
	id      string
	channel string         // where it was sent
	reply   chan *Message  // buffered 1
	fail    chan error     // buffered 1
	collect bool           // gather IOPub messages with this parent
	outputs []*Message     // guarded by the client's mutex
	idle    chan struct{}  // closed at the IOPub idle of this request
	then    func(*Message) // set: called with the reply instead of sending it
	// kernelSession is the kernel process known when the request was
	// made: a restart fails the requests made of the old one.
	kernelSession string
	began         bool      // an IOPub message with this parent arrived
	since         time.Time // when it was registered
	suspect       time.Time // set: the kernel restarted since it was made
}

func newClient(name string, opts Options) *Client {
	opts = opts.withDefaults()
	session := uuid.NewString()
	ctx, cancel := context.WithCancel(context.Background())
	return &Client{
		ctx:      ctx,
		cancel:   cancel,
		done:     ctx.Done(),
		name:     name,
		session:  session,
		log:      opts.Logger,
		opts:     opts,
		pending:  map[string]*pending{},
		track:    newTracker(session),
		changed:  make(chan struct{}),
		subs:     map[*Subscription]struct{}{},
		retired:  map[string]bool{},
		live:     LiveAlive,
		attached: time.Now(),
	}
}

// Session is this client's session id: the parent session of everything
// its requests cause.
func (c *Client) Session() string { return c.session }

// Name is the connection file or server kernel the client talks to.
func (c *Client) Name() string { return c.name }

// Done is closed when the client is closed.
func (c *Client) Done() <-chan struct{} { return c.done }

// Info is the kernel_info learnt when attaching (or after a restart).
func (c *Client) Info() KernelInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.info
}

// State is what the kernel is doing, as far as this client knows.
func (c *Client) State() State {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.track.state(time.Now())
	if s.Execution == StateBusy && s.Since.IsZero() {
		s.Since = c.attached
	}
	s.Liveness, s.Err = c.live, c.liveErr
	return s
}

// Close ends the client: pending calls fail with ErrClosed, subscriptions
// end, every goroutine and socket is gone when it returns.
func (c *Client) Close() error {
	var err error
	c.closeOnce.Do(func() {
		c.deleteSubshell()
		c.cancel()
		c.mu.Lock()
		c.live, c.liveErr = LiveClosed, ErrClosed
		for _, p := range c.pending {
			p.failWith(ErrClosed)
		}
		subs := c.subs
		c.subs = map[*Subscription]struct{}{}
		c.mu.Unlock()
		for s := range subs {
			s.end()
		}
		c.wg.Wait()
		if c.tr != nil {
			err = c.tr.close()
		}
	})
	return err
}

func (p *pending) failWith(err error) {
	select {
	case p.fail <- err:
	default:
	}
}

// register adds a pending request.
func (c *Client) register(id string, collect bool) *pending {
	p := &pending{id: id, reply: make(chan *Message, 1), fail: make(chan error, 1), collect: collect, since: time.Now()}
	if collect {
		p.idle = make(chan struct{})
	}
	c.mu.Lock()
	p.kernelSession = c.kernelSession
	c.pending[id] = p
	c.mu.Unlock()
	return p
}

func (c *Client) unregister(id string) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// deliver is called by the transport for every message received (in order
// per channel); err is a message that could not be accepted.
func (c *Client) deliver(m *Message, err error) {
	if err != nil {
		c.refused(m, err)
		return
	}
	c.checkKernelSession(m)
	if m.Channel != ChannelIOPub {
		c.mu.Lock()
		p := c.pending[m.Parent.MsgID]
		var then func(*Message)
		if p != nil && p.then != nil {
			then = p.then
			delete(c.pending, p.id)
		}
		if p == nil && c.foreignLocked(m) {
			c.notOursLocked(m)
			c.mu.Unlock()
			return
		}
		c.mu.Unlock()
		switch {
		case p == nil:
			c.log.Debug("kernel: reply to no pending request", "type", m.Header.MsgType, "parent", m.Parent.MsgID)
		case then != nil:
			then(m)
		default:
			select {
			case p.reply <- m:
			default:
			}
		}
		return
	}
	now := time.Now()
	c.mu.Lock()
	started, ended := c.track.observe(m, now)
	ours := m.Parent.Session == c.session
	if ours {
		c.iopubOK = true
	}
	if p := c.pending[m.Parent.MsgID]; p != nil {
		p.began, p.suspect = true, time.Time{}
		if p.collect {
			p.outputs = append(p.outputs, m)
			if isIdle(m) {
				select {
				case <-p.idle:
				default:
					close(p.idle)
				}
			}
		}
	}
	c.notifyLocked()
	if ended != nil {
		c.publish(Event{Kind: EventCellFinished, Time: now, Cell: ended})
	}
	c.publish(Event{Kind: EventMessage, Time: now, Msg: m, Ours: ours})
	if started != nil {
		c.publish(Event{Kind: EventCellStarted, Time: now, Cell: started})
	}
	c.mu.Unlock()
	if m.Header.MsgType == "status" && statusOf(m) == "dead" {
		// A Jupyter Server says so when it could not restart its kernel.
		// (Its "restarting" status comes after the new kernel already
		// talks: the new session, below, is the restart.)
		c.setLive(LiveDead, &ConnError{Kernel: c.name, Err: ErrDead, Detail: "the Jupyter Server reports the kernel dead"}, false)
	}
}

func isIdle(m *Message) bool {
	return m.Header.MsgType == "status" && string(m.Content) != "" && statusOf(m) == "idle"
}

// refused handles a message that failed its checks: a request waiting for
// it is told at once, and subscribers see an EventRefused.
func (c *Client) refused(m *Message, err error) {
	c.log.Warn("kernel: message refused", "kernel", c.name, "err", err)
	var ce *ConnError
	if errors.As(err, &ce) && ce.Kernel == "" {
		ce.Kernel = c.name
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	if errors.Is(err, ErrSignature) {
		c.sigBad++
		c.lastSig = now
		c.notifyLocked()
	}
	if m != nil {
		if p := c.pending[m.Parent.MsgID]; p != nil {
			p.failWith(err)
		}
	}
	c.publish(Event{Kind: EventRefused, Time: now, Err: err})
}

// notifyLocked wakes everything waiting on a change; c.mu is held.
func (c *Client) notifyLocked() {
	close(c.changed)
	c.changed = make(chan struct{})
}
