// cdp.go: the Chrome DevTools Protocol connection to V8's inspector over a
// websocket: typed calls (cdproto's commands, params and results), errors
// from the inspector as *CDPError, and events delivered in order on one
// unbounded queue so that the read loop never blocks on a slow consumer
// (an event its early hook handled at once is not queued).

package node

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/coder/websocket"
	"github.com/dapscope/dapscope/platform"
)

// maxMessage bounds one CDP message: a longer one is read no further
// (the rest is skipped) and fails its call with errTooLarge, the
// connection goes on. Values are shown bounded anyway (a string by its
// first MiB at most), so this is only ever hit by a huge value read whole.
var maxMessage int64 = 32 << 20

// errTooLarge is the error of a call whose answer exceeds maxMessage.
var errTooLarge = errors.New("the inspector's answer is too large to read")

// CDPError is an error answer of the inspector.
type CDPError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    string `json:"data,omitempty"`
}

func (e *CDPError) Error() string {
	if e.Data != "" {
		return e.Message + ": " + e.Data
	}
	return e.Message
}

// ErrClosed is the error of a call on a connection that has ended.
var ErrClosed = errors.New("the inspector connection is closed")

// event is one CDP event, its params raw; Session is the NodeWorker
// session of a worker's event ("": the main thread's).
type event struct {
	Method  string
	Params  jsonv2.Value
	Session string
}

// message is any message of the inspector.
type message struct {
	ID     int64        `json:"id,omitzero"`
	Method string       `json:"method,omitzero"`
	Params jsonv2.Value `json:"params,omitzero"`
	Result jsonv2.Value `json:"result,omitzero"`
	Error  *CDPError    `json:"error,omitzero"`
}

type reply struct {
	result jsonv2.Value
	err    error
}

// caller sends CDP commands: the main connection, or a worker's session
// through it (worker.go).
type caller interface {
	raw(ctx context.Context, method string, params, out any) error
}

// conn is a CDP connection.
type conn struct {
	ws *websocket.Conn
	// early, when set, sees each event on the read loop first; true means
	// it was handled there and is not queued (no wake-up of the consumer).
	early func(*event) bool

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan reply
	workers map[string]*workerConn // attached worker sessions (worker.go)
	queue   []event
	read    atomic.Int64  // bytes read from the inspector
	err     error         // set when the read loop ends
	wake    chan struct{} // an event was queued or the loop ended
	done    chan struct{} // the read loop has ended
}

// dialCDP connects to the inspector's websocket URL; early (nil: none) is
// the connection's early event hook.
func dialCDP(ctx context.Context, url string, hops Hops, early func(*event) bool) (*conn, error) {
	if err := hops.CheckURL(url); err != nil { // each hop is checked too (hops.go)
		return nil, fmt.Errorf("connecting to the inspector: %w", err)
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hops.client(platform.QuickAck), CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, fmt.Errorf("connecting to the inspector at %s: %w", withoutPath(url), pathless(err))
	}
	ws.SetReadLimit(-1) // readMessage bounds what it keeps itself
	c := &conn{ws: ws, early: early, pending: map[int64]chan reply{}, workers: map[string]*workerConn{},
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

func (c *conn) readLoop() {
	defer close(c.done)
	ctx := context.Background()
	for {
		b, size, err := c.readMessage(ctx)
		if err != nil {
			c.finish(err)
			return
		}
		if size > 0 {
			c.oversized(b, size)
			continue
		}
		c.dispatch(b, "")
	}
}

// readMessage reads one message; a message over maxMessage is skipped
// past its head, which is returned with its size.
func (c *conn) readMessage(ctx context.Context) ([]byte, int64, error) {
	_, r, err := c.ws.Reader(ctx)
	if err != nil {
		return nil, 0, err
	}
	var buf bytes.Buffer
	n, err := buf.ReadFrom(io.LimitReader(r, maxMessage+1))
	c.read.Add(n)
	if err != nil {
		return nil, 0, err
	}
	if n <= maxMessage {
		return buf.Bytes(), 0, nil
	}
	rest, err := io.Copy(io.Discard, r)
	c.read.Add(rest)
	if err != nil {
		return nil, 0, err
	}
	return bytes.Clone(buf.Bytes()[:1024]), n + rest, nil
}

// dispatch delivers one message of session ("": the main thread's): an
// answer to its call, an event to the early hook or the queue. A message
// that cannot be decoded still fails the call its id names.
func (c *conn) dispatch(b []byte, session string) {
	b = fixSurrogates(b)
	var m message
	if err := jsonv2.Unmarshal(b, &m, lenient); err != nil {
		if id, ok := headID(b); ok {
			c.answer(session, id, reply{err: fmt.Errorf("the inspector's answer could not be read: %w", err)})
		}
		return // not a CDP message: ignore it
	}
	if m.Method == workerMessage && session == "" {
		var p struct {
			SessionID string `json:"sessionId"`
			Message   string `json:"message"`
		}
		if jsonv2.Unmarshal(m.Params, &p, lenient) == nil && p.SessionID != "" {
			c.dispatch([]byte(p.Message), p.SessionID)
		}
		return
	}
	switch {
	case m.ID != 0:
		r := reply{result: m.Result}
		if m.Error != nil {
			r.err = m.Error
		}
		c.answer(session, m.ID, r)
	case m.Method != "":
		ev := event{Method: m.Method, Params: m.Params, Session: session}
		if c.early != nil && c.early(&ev) {
			return
		}
		c.push(ev)
	}
}

// push queues an event for the consumer.
func (c *conn) push(ev event) {
	c.mu.Lock()
	c.queue = append(c.queue, ev)
	c.signal()
	c.mu.Unlock()
}

// answer hands a reply to the call id of session that waits for it.
func (c *conn) answer(session string, id int64, r reply) {
	c.mu.Lock()
	defer c.mu.Unlock()
	pending := c.pending
	if session != "" {
		w := c.workers[session]
		if w == nil {
			return
		}
		pending = w.pending
	}
	if ch, ok := pending[id]; ok {
		delete(pending, id)
		ch <- r
	}
}

// oversized handles a message too large to read: the call it answers
// fails; an event is queued as an oversizedEvent (events.go) with its
// method, so a pause the adapter could not read does not leave the
// program paused unseen.
func (c *conn) oversized(head []byte, size int64) {
	err := fmt.Errorf("%w (%d MB, more than %d MB): the value is too large to show whole", errTooLarge, size>>20, maxMessage>>20)
	if id, ok := headID(head); ok {
		c.answer("", id, reply{err: err})
		return
	}
	if session, id, ok := workerHead(head); ok {
		c.answer(session, id, reply{err: err})
		return
	}
	method, session := headMethod(head), ""
	if method == workerMessage {
		method, session = workerEventHead(head)
	}
	params, _ := jsonv2.Marshal(map[string]any{"method": method, "size": size})
	c.push(event{Method: oversizedEvent, Params: params, Session: session})
}

// finish fails every pending call, the workers' too, and ends the event
// stream.
func (c *conn) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = fmt.Errorf("%w (%v)", ErrClosed, err)
	for id, ch := range c.pending {
		ch <- reply{err: c.err}
		delete(c.pending, id)
	}
	for _, w := range c.workers {
		w.failLocked(c.err)
	}
	c.signal()
}

func (c *conn) signal() {
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// next returns the next event; ok is false once the connection has ended
// and every queued event was taken.
func (c *conn) next() (event, bool) {
	for {
		c.mu.Lock()
		if len(c.queue) > 0 {
			ev := c.queue[0]
			c.queue[0] = event{}
			c.queue = c.queue[1:]
			c.mu.Unlock()
			return ev, true
		}
		ended := c.err != nil
		c.mu.Unlock()
		if ended {
			return event{}, false
		}
		<-c.wake
	}
}

// raw sends method with params and decodes the result into out (nil: drop).
func (c *conn) raw(ctx context.Context, method string, params, out any) error {
	b, err := jsonv2.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params"`
	}{0, method, params})
	if err != nil {
		return err
	}
	ch := make(chan reply, 1)
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return c.err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()
	// The id is the first member: patch it in without a second encoding.
	b = append([]byte(fmt.Sprintf(`{"id":%d`, id)), b[len(`{"id":0`):]...)
	if err := c.ws.Write(ctx, websocket.MessageText, b); err != nil {
		c.forget(c.pending, id)
		if errors.Is(err, net.ErrClosed) { // the close frame is out, or the connection is gone
			return fmt.Errorf("%s: %w (%v)", method, ErrClosed, err)
		}
		return fmt.Errorf("%s: %w", method, err)
	}
	return await(ctx, method, ch, out, func() { c.forget(c.pending, id) })
}

// await waits for a call's reply and decodes its result into out.
func await(ctx context.Context, method string, ch chan reply, out any, forget func()) error {
	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if out != nil && len(r.result) > 0 {
			return jsonv2.Unmarshal(r.result, out, lenient)
		}
		return nil
	case <-ctx.Done():
		forget()
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (c *conn) forget(pending map[int64]chan reply, id int64) {
	c.mu.Lock()
	delete(pending, id)
	c.mu.Unlock()
}

// closed says whether the connection has ended.
func (c *conn) closed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err != nil
}

// Close closes the websocket and waits for the read loop to end.
func (c *conn) Close() error {
	err := c.ws.CloseNow()
	<-c.done
	return err
}

// closeGracefully closes the websocket with the closing handshake (node
// waiting for its debugger to disconnect gets a normal close).
func (c *conn) closeGracefully() {
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
	_ = c.Close()
}

// call runs a cdproto command and returns its typed result.
func call[P, R any](ctx context.Context, c caller, cmd cdp.Command[P, R], params P) (R, error) {
	var res R
	err := c.raw(ctx, cmd.Method, params, &res)
	return res, err
}

// discover asks a node inspector at host:port for its websocket URL
// (GET /json/list, the first target).
func discover(ctx context.Context, hops Hops, host string, port int) (string, error) {
	if host == "" {
		host = "127.0.0.1"
	}
	if port <= 0 || port > 65535 {
		return "", fmt.Errorf("attach: port %d is not a port (want the one of node --inspect=HOST:PORT)", port)
	}
	u := "http://" + net.JoinHostPort(host, strconv.Itoa(port)) + "/json/list"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return "", err
	}
	resp, err := hops.client(nil).Do(req)
	if err != nil {
		return "", fmt.Errorf("attach: no node inspector at %s:%d: %w", host, port, pathless(err))
	}
	defer resp.Body.Close()
	var targets []struct {
		URL string `json:"webSocketDebuggerUrl"`
	}
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&targets); err != nil {
		return "", fmt.Errorf("attach: %s did not answer as a node inspector: %w", u, err)
	}
	if len(targets) == 0 || targets[0].URL == "" {
		return "", fmt.Errorf("attach: the inspector at %s:%d lists no target", host, port)
	}
	if err := hops.CheckURL(targets[0].URL); err != nil {
		return "", fmt.Errorf("attach: the inspector at %s:%d names a websocket elsewhere: %w", host, port, err)
	}
	return targets[0].URL, nil
}
