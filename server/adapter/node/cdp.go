// cdp.go: the Chrome DevTools Protocol connection to V8's inspector over a
// websocket: typed calls (cdproto's commands, params and results), errors
// from the inspector as *CDPError, and events delivered in order on one
// unbounded queue so that the read loop never blocks on a slow consumer
// (an event its early hook handled at once is not queued).

package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/coder/websocket"
)

// maxMessage bounds one CDP message (a 50 MB string comes back whole).
const maxMessage = 256 << 20

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

// event is one CDP event, its params raw.
type event struct {
	Method string
	Params jsonv2.Value
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

// conn is a CDP connection.
type conn struct {
	ws *websocket.Conn
	// early, when set, sees each event on the read loop first; true means
	// it was handled there and is not queued (no wake-up of the consumer).
	early func(event) bool

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan reply
	queue   []event
	err     error         // set when the read loop ends
	wake    chan struct{} // an event was queued or the loop ended
	done    chan struct{} // the read loop has ended
}

// dialCDP connects to the inspector's websocket URL; early (nil: none) is
// the connection's early event hook.
func dialCDP(ctx context.Context, url string, hops Hops, early func(event) bool) (*conn, error) {
	if err := hops.CheckURL(url); err != nil { // each hop is checked too (hops.go)
		return nil, fmt.Errorf("connecting to the inspector: %w", err)
	}
	ws, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: hops.client(quickAckWrap), CompressionMode: websocket.CompressionDisabled})
	if err != nil {
		return nil, fmt.Errorf("connecting to the inspector at %s: %w", withoutPath(url), pathless(err))
	}
	ws.SetReadLimit(maxMessage)
	c := &conn{ws: ws, early: early, pending: map[int64]chan reply{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go c.readLoop()
	return c, nil
}

func (c *conn) readLoop() {
	defer close(c.done)
	ctx := context.Background()
	for {
		_, b, err := c.ws.Read(ctx)
		if err != nil {
			c.finish(err)
			return
		}
		var m message
		if err := jsonv2.Unmarshal(b, &m); err != nil {
			continue // not a CDP message: ignore it
		}
		if m.ID == 0 && m.Method != "" && c.early != nil && c.early(event{Method: m.Method, Params: m.Params}) {
			continue
		}
		c.mu.Lock()
		switch {
		case m.ID != 0:
			ch, ok := c.pending[m.ID]
			delete(c.pending, m.ID)
			if ok {
				r := reply{result: m.Result}
				if m.Error != nil {
					r.err = m.Error
				}
				ch <- r
			}
		case m.Method != "":
			c.queue = append(c.queue, event{Method: m.Method, Params: m.Params})
			c.signal()
		}
		c.mu.Unlock()
	}
}

// finish fails every pending call and ends the event stream.
func (c *conn) finish(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.err = fmt.Errorf("%w (%v)", ErrClosed, err)
	for id, ch := range c.pending {
		ch <- reply{err: c.err}
		delete(c.pending, id)
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
		c.forget(id)
		return fmt.Errorf("%s: %w", method, err)
	}
	select {
	case r := <-ch:
		if r.err != nil {
			return r.err
		}
		if out != nil && len(r.result) > 0 {
			return jsonv2.Unmarshal(r.result, out)
		}
		return nil
	case <-ctx.Done():
		c.forget(id)
		return fmt.Errorf("%s: %w", method, ctx.Err())
	}
}

func (c *conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
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
func call[P, R any](ctx context.Context, c *conn, cmd cdp.Command[P, R], params P) (R, error) {
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
