// zmq.go: the ZeroMQ transport to a local kernel (github.com/go-zeromq/zmq4,
// pure Go): shell and control DEALER sockets, an IOPub SUB socket, a
// heartbeat REQ socket; one reader per socket that verifies every
// message's signature; dials and handshakes bounded by the caller's
// context; a reconnect for a kernel restarted on the same ports.

package kernel

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	zmqtransport "github.com/go-zeromq/zmq4/transport"
	"github.com/google/uuid"
)

// Our own zmq4 transports: plain TCP and Unix sockets whose connection is
// closed when the socket's context ends, so that a ZMTP handshake with a
// stopped kernel cannot hang (zmq4's own handshake has no deadline).
const (
	schemeTCP = "dapscope-tcp"
	schemeIPC = "dapscope-ipc"
)

var registerTransports = sync.OnceValue(func() error {
	if err := zmq4.RegisterTransport(schemeTCP, boundedTransport{network: "tcp"}); err != nil {
		return err
	}
	return zmq4.RegisterTransport(schemeIPC, boundedTransport{network: "unix"})
})

type boundedTransport struct{ network string }

func (t boundedTransport) Dial(ctx context.Context, d zmqtransport.Dialer, addr string) (net.Conn, error) {
	conn, err := d.DialContext(ctx, t.network, addr)
	if err != nil {
		return nil, err
	}
	context.AfterFunc(ctx, func() { _ = conn.Close() })
	return newGuardConn(conn, frameCap), nil
}

func (boundedTransport) Listen(context.Context, string) (net.Listener, error) {
	return nil, errors.New("dapscope: listening is not supported")
}

func (boundedTransport) Addr(ep string) (string, error) { return ep, nil }

var discardLog = log.New(io.Discard, "", 0)

// zsock is one zmq4 socket with its own context and a send lock (one
// writer at a time).
type zsock struct {
	name   string
	s      zmq4.Socket
	cancel context.CancelFunc
	sendMu sync.Mutex
}

func (s *zsock) close() {
	_ = s.s.Close()
	s.cancel()
}

// zgen is one set of connected channel sockets and their readers.
type zgen struct {
	socks   map[string]*zsock
	closing atomic.Bool
	wg      sync.WaitGroup
}

func (g *zgen) close() {
	g.closing.Store(true)
	for _, s := range g.socks {
		s.close()
	}
	g.wg.Wait()
}

type zmqTransport struct {
	info    *ConnectionInfo
	sign    *signer
	deliver func(*Message, error)
	lost    func(error)
	ctx     context.Context
	cancel  context.CancelFunc

	mu  sync.Mutex
	gen *zgen

	hbMu sync.Mutex
	hb   *zsock
}

func dialZMQ(ctx context.Context, info *ConnectionInfo, deliver func(*Message, error), lost func(error)) (*zmqTransport, error) {
	if err := registerTransports(); err != nil {
		return nil, err
	}
	sign, err := newSigner(info.SignatureScheme, info.key)
	if err != nil {
		return nil, err
	}
	tctx, cancel := context.WithCancel(context.Background())
	z := &zmqTransport{info: info, sign: sign, deliver: deliver, lost: lost, ctx: tctx, cancel: cancel}
	g, err := z.dialGen(ctx)
	if err != nil {
		cancel()
		return nil, err
	}
	z.gen = g
	return z, nil
}

func (z *zmqTransport) endpoint(port int) string {
	if z.info.Transport == "ipc" {
		return schemeIPC + "://" + z.info.address(port)
	}
	return schemeTCP + "://" + z.info.address(port)
}

// dialSocket connects one socket; ctx bounds the connection and the ZMTP
// handshake.
func (z *zmqTransport) dialSocket(ctx context.Context, name string, port int, newSock func(context.Context, ...zmq4.Option) zmq4.Socket) (*zsock, error) {
	sctx, cancel := context.WithCancel(z.ctx)
	s := newSock(sctx, zmq4.WithLogger(discardLog), zmq4.WithDialerMaxRetries(0),
		zmq4.WithDialerTimeout(10*time.Second), zmq4.WithTimeout(10*time.Second))
	if name == ChannelIOPub {
		if err := s.SetOption(zmq4.OptionSubscribe, ""); err != nil {
			_ = s.Close()
			cancel()
			return nil, err
		}
	}
	stop := context.AfterFunc(ctx, cancel)
	err := s.Dial(z.endpoint(port))
	aborted := !stop()
	if err != nil || aborted {
		_ = s.Close()
		cancel()
		if aborted {
			err = ctx.Err()
		}
		return nil, z.dialError(name, port, err)
	}
	return &zsock{name: name, s: s, cancel: cancel}, nil
}

// dialError says why a port could not be reached.
func (z *zmqTransport) dialError(name string, port int, err error) error {
	addr := z.info.address(port)
	switch {
	case isCtxErr(err):
		return &ConnError{Kernel: z.info.String(), Err: ErrNotAnswering,
			Detail: fmt.Sprintf("the ZeroMQ handshake on %s (%s) did not complete: the kernel is stopped or hung", addr, name)}
	case errors.Is(err, ErrNotKernelReply):
		why := err.Error() // zmq4's wrapping, then the guard's words
		if i := strings.Index(why, ErrNotKernelReply.Error()+": "); i >= 0 {
			why = why[i+len(ErrNotKernelReply.Error())+2:]
		}
		return &ConnError{Kernel: z.info.String(), Err: ErrNotKernelReply, Detail: fmt.Sprintf("%s: %s", name, why)}
	case errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ENOENT):
		return &ConnError{Kernel: z.info.String(), Err: ErrDead,
			Detail: fmt.Sprintf("nothing is listening on %s (%s): the kernel has exited and its connection file is stale", addr, name)}
	case errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.ErrUnexpectedEOF):
		return &ConnError{Kernel: z.info.String(), Err: ErrDead,
			Detail: fmt.Sprintf("%s (%s) closed the connection during the ZeroMQ handshake: not a kernel, or one that is exiting (stale connection file?)", addr, name)}
	}
	return &ConnError{Kernel: z.info.String(), Err: ErrDead,
		Detail: fmt.Sprintf("connecting to %s (%s): %v (not a ZeroMQ kernel there: stale connection file?)", addr, name, err)}
}

// dialGen connects IOPub first (so the subscription is in place before any
// request), then shell and control, and starts their readers.
func (z *zmqTransport) dialGen(ctx context.Context) (*zgen, error) {
	g := &zgen{socks: map[string]*zsock{}}
	plan := []struct {
		name string
		port int
		new  func(context.Context, ...zmq4.Option) zmq4.Socket
	}{
		{ChannelIOPub, z.info.IOPubPort, zmq4.NewSub},
		{ChannelShell, z.info.ShellPort, zmq4.NewDealer},
		{ChannelControl, z.info.ControlPort, zmq4.NewDealer},
	}
	for _, p := range plan {
		s, err := z.dialSocket(ctx, p.name, p.port, p.new)
		if err != nil {
			g.close()
			return nil, err
		}
		g.socks[p.name] = s
	}
	for _, s := range g.socks {
		g.wg.Add(1)
		go z.read(g, s)
	}
	return g, nil
}

// read hands every message of one socket to deliver, in order.
func (z *zmqTransport) read(g *zgen, s *zsock) {
	defer g.wg.Done()
	for {
		msg, err := s.s.Recv()
		if g.closing.Load() || z.ctx.Err() != nil {
			return
		}
		if err != nil {
			z.lost(fmt.Errorf("%s channel: %w", s.name, err))
			return
		}
		if msg.Type == zmq4.CmdMsg || len(msg.Frames) == 0 {
			continue
		}
		z.deliver(decodeFrames(z.sign, s.name, msg.Frames))
	}
}

func (z *zmqTransport) send(ctx context.Context, channel string, m *Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	z.mu.Lock()
	g := z.gen
	z.mu.Unlock()
	if g == nil {
		return &ConnError{Kernel: z.info.String(), Err: ErrDead, Detail: "not connected"}
	}
	s := g.socks[channel]
	if s == nil {
		return fmt.Errorf("no %s channel", channel)
	}
	frames, err := encodeFrames(z.sign, m)
	if err != nil {
		return err
	}
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return s.s.SendMulti(zmq4.NewMsgFrom(frames...))
}

// ping sends one heartbeat and waits for its echo within ctx. A heartbeat
// connection that broke is dialed again once, which tells a dead kernel
// (refused) from a restarted one (answers).
func (z *zmqTransport) ping(ctx context.Context) error {
	z.hbMu.Lock()
	defer z.hbMu.Unlock()
	reused := z.hb != nil
	err := z.pingLocked(ctx)
	var ce *ConnError
	if reused && errors.As(err, &ce) && ce.Err == ErrDead && ctx.Err() == nil {
		err = z.pingLocked(ctx)
	}
	return err
}

func (z *zmqTransport) pingLocked(ctx context.Context) error {
	if z.hb == nil {
		s, err := z.dialSocket(ctx, "heartbeat", z.info.HBPort, zmq4.NewReq)
		if err != nil {
			return err
		}
		z.hb = s
	}
	hb := z.hb
	stop := context.AfterFunc(ctx, func() { _ = hb.s.Close() })
	payload := []byte(uuid.NewString())
	err := hb.s.Send(zmq4.NewMsg(payload))
	var reply zmq4.Msg
	if err == nil {
		reply, err = hb.s.Recv()
	}
	fired := !stop()
	if err == nil && !fired && len(reply.Frames) > 0 && bytes.Equal(reply.Frames[0], payload) {
		return nil
	}
	hb.close()
	z.hb = nil
	switch {
	case fired || ctx.Err() != nil:
		return &ConnError{Kernel: z.info.String(), Err: ErrNotAnswering,
			Detail: "its heartbeat did not answer in time: the kernel process is stopped or hung"}
	case err != nil:
		return &ConnError{Kernel: z.info.String(), Err: ErrDead, Detail: "its heartbeat connection failed: " + err.Error()}
	}
	return &ConnError{Kernel: z.info.String(), Err: ErrDead, Detail: "its heartbeat echoed something else: not a kernel on that port"}
}

// reconnect drops the channel sockets and dials them again.
func (z *zmqTransport) reconnect(ctx context.Context) error {
	z.mu.Lock()
	old := z.gen
	z.gen = nil
	z.mu.Unlock()
	if old != nil {
		old.close()
	}
	if err := z.ping(ctx); err != nil {
		return err
	}
	g, err := z.dialGen(ctx)
	if err != nil {
		return err
	}
	z.mu.Lock()
	z.gen = g
	z.mu.Unlock()
	return nil
}

func (z *zmqTransport) close() error {
	z.cancel()
	z.mu.Lock()
	g := z.gen
	z.gen = nil
	z.mu.Unlock()
	if g != nil {
		g.close()
	}
	z.hbMu.Lock()
	if z.hb != nil {
		z.hb.close()
		z.hb = nil
	}
	z.hbMu.Unlock()
	return nil
}
