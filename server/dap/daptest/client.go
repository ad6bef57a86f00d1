// Package daptest is the one scripted DAP client every test uses (an
// editor's side of a DAP connection). client.go holds the connection, the
// read loop, the transcript, the mailbox (Expect keeps messages it did not
// want, in order, for later expects) and the bookkeeping of responses: one
// to an unknown request_seq, for another command, or a second answer, is
// recorded as foreign. Every message is kept raw; go-dap decodes the ones it
// knows, and the ones it does not (custom events, "dapscope/…" responses,
// reverse requests) stay reachable raw and never fail a test by arriving.
// typed.go holds the typed requests and the launch-to-a-line helpers.
package daptest

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap"
)

// DefaultTimeout bounds every wait of a new Client.
const DefaultTimeout = 60 * time.Second

// Msg is one message as received: its bytes, its routing fields, its body
// or arguments raw, and the go-dap struct when go-dap knows the message.
type Msg struct {
	Raw       json.RawMessage
	Env       dap.Envelope
	Body      json.RawMessage // "body" of a response or event
	Arguments json.RawMessage // "arguments" of a (reverse) request
	Decoded   godap.Message   // nil when go-dap cannot decode it
	DecodeErr error           // why Decoded is nil
}

// IsResponse reports whether m is the response to the request seq.
func (m Msg) IsResponse(seq int) bool {
	return m.Env.Type == "response" && m.Env.RequestSeq == seq
}

// IsEvent reports whether m is the event name.
func (m Msg) IsEvent(name string) bool { return m.Env.Type == "event" && m.Env.Event == name }

// IsRequest reports whether m is the (reverse) request command.
func (m Msg) IsRequest(command string) bool {
	return m.Env.Type == "request" && m.Env.Command == command
}

// Success is the success flag of a response (false for other messages).
func (m Msg) Success() bool { return m.Env.Success != nil && *m.Env.Success }

// Unmarshal decodes the body into v.
func (m Msg) Unmarshal(v any) error {
	if len(m.Body) == 0 {
		return fmt.Errorf("%s has no body", m)
	}
	return json.Unmarshal(m.Body, v)
}

func (m Msg) String() string { return string(m.Raw) }

// Client is a scripted DAP client. Its methods are safe for concurrent use,
// but a test usually waits for messages from one goroutine.
type Client struct {
	t       testing.TB
	conn    io.ReadWriteCloser
	Timeout time.Duration // bound of every wait; DefaultTimeout unless set

	wmu sync.Mutex // one frame at a time on the wire
	w   *dap.Writer

	mu         sync.Mutex
	seq        int
	sent       map[int]string // request seq → command
	answered   map[int]bool
	transcript []Msg
	queue      []Msg    // received and not yet taken by an Expect
	foreign    []string // responses the client did not cause
	readErr    error
	changed    chan struct{} // a message arrived or the stream ended
	done       chan struct{} // closed when the read loop ends
	closeOnce  sync.Once
}

// New starts a client on conn; it is closed when the test ends.
func New(t testing.TB, conn io.ReadWriteCloser) *Client {
	c := &Client{t: t, conn: conn, Timeout: DefaultTimeout, w: dap.NewWriter(conn),
		sent: map[int]string{}, answered: map[int]bool{}, changed: make(chan struct{}, 1), done: make(chan struct{})}
	go c.readLoop()
	t.Cleanup(c.Close)
	return c
}

// Decode builds a Msg from one frame body.
func Decode(raw []byte) (Msg, error) {
	m := Msg{Raw: json.RawMessage(raw)}
	env, err := dap.Peek(raw)
	if err != nil {
		return m, err
	}
	m.Env = env
	var parts struct {
		Body      json.RawMessage `json:"body"`
		Arguments json.RawMessage `json:"arguments"`
	}
	_ = json.Unmarshal(raw, &parts)
	m.Body, m.Arguments = parts.Body, parts.Arguments
	m.Decoded, m.DecodeErr = godap.DecodeProtocolMessage(raw)
	if m.DecodeErr != nil {
		m.Decoded = nil
	}
	return m, nil
}

func (c *Client) readLoop() {
	defer close(c.done)
	r := dap.NewReader(c.conn)
	for {
		b, err := r.ReadFrame()
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			c.notify()
			return
		}
		m, err := Decode(b)
		c.mu.Lock()
		if err != nil {
			c.foreign = append(c.foreign, "undecodable: "+string(b))
			c.mu.Unlock()
			continue
		}
		if m.Env.Type == "response" {
			c.account(m.Env)
		}
		c.transcript = append(c.transcript, m)
		c.queue = append(c.queue, m)
		c.mu.Unlock()
		c.notify()
	}
}

// account records a response against the requests sent (c.mu held).
func (c *Client) account(env dap.Envelope) {
	rs := env.RequestSeq
	cmd, ok := c.sent[rs]
	switch {
	case !ok:
		c.foreign = append(c.foreign, fmt.Sprintf("response to unknown request_seq %d (%s)", rs, env.Command))
	case c.answered[rs]:
		c.foreign = append(c.foreign, fmt.Sprintf("second response to %d (%s)", rs, env.Command))
	case cmd != env.Command:
		c.foreign = append(c.foreign, fmt.Sprintf("response to %d (%s) is for %s", rs, cmd, env.Command))
	}
	if ok {
		c.answered[rs] = true
	}
}

func (c *Client) notify() {
	select {
	case c.changed <- struct{}{}:
	default:
	}
}

// nextSeq takes the next seq and, for a request, records its command.
func (c *Client) nextSeq(command string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	if command != "" {
		c.sent[c.seq] = command
	}
	return c.seq
}

// SetNextSeq makes the next message the client sends carry seq n.
func (c *Client) SetNextSeq(n int) {
	c.mu.Lock()
	c.seq = n - 1
	c.mu.Unlock()
}

// Send sends a request and returns its seq. args is a go-dap argument
// struct (or any JSON value for requests go-dap does not know, such as
// launch configurations and "dapscope/…" requests); nil sends none.
func (c *Client) Send(command string, args any) int {
	c.t.Helper()
	seq := c.nextSeq(command)
	req := dap.Request{Seq: seq, Type: "request", Command: command, Arguments: args}
	b, err := json.Marshal(req)
	if err != nil {
		c.t.Fatalf("daptest: encoding %s: %v", command, err)
	}
	c.WriteFrame(b)
	return seq
}

// Reply answers the reverse request req.
func (c *Client) Reply(req Msg, success bool, body any) {
	c.t.Helper()
	resp := godap.Response{ProtocolMessage: godap.ProtocolMessage{Seq: c.nextSeq(""), Type: "response"},
		RequestSeq: req.Env.Seq, Command: req.Env.Command, Success: success}
	b, err := json.Marshal(struct {
		godap.Response
		Body any `json:"body,omitempty"`
	}{resp, body})
	if err != nil {
		c.t.Fatalf("daptest: encoding reply: %v", err)
	}
	c.WriteFrame(b)
}

// WriteFrame writes one frame with any body (malformed ones included).
func (c *Client) WriteFrame(body []byte) {
	c.t.Helper()
	c.wmu.Lock()
	err := c.w.WriteFrame(body)
	c.wmu.Unlock()
	if err != nil {
		c.t.Fatalf("daptest: write: %v", err)
	}
}

// Expect waits for the first message matching pred and takes it; messages
// before it stay queued for later expects.
func (c *Client) Expect(what string, pred func(Msg) bool) Msg {
	c.t.Helper()
	deadline := time.After(c.Timeout)
	for {
		c.mu.Lock()
		for i, m := range c.queue {
			if pred(m) {
				c.queue = append(c.queue[:i:i], c.queue[i+1:]...)
				c.mu.Unlock()
				return m
			}
		}
		ended, readErr := c.readErr != nil, c.readErr
		c.mu.Unlock()
		if ended {
			c.t.Fatalf("daptest: connection closed while waiting for %s (%v)", what, readErr)
		}
		select {
		case <-c.changed:
		case <-deadline:
			c.t.Fatalf("daptest: no %s within %v", what, c.Timeout)
		}
	}
}

// Recv takes the next queued message, whatever it is.
func (c *Client) Recv() Msg {
	c.t.Helper()
	return c.Expect("message", func(Msg) bool { return true })
}

// Response waits for the response to seq, successful or not.
func (c *Client) Response(seq int) Msg {
	c.t.Helper()
	return c.Expect(fmt.Sprintf("response to %d", seq), func(m Msg) bool { return m.IsResponse(seq) })
}

// OK waits for the response to seq and fails the test unless it succeeded.
func (c *Client) OK(seq int) Msg {
	c.t.Helper()
	m := c.Response(seq)
	if !m.Success() {
		c.t.Fatalf("daptest: request %d (%s) failed: %s", seq, m.Env.Command, m.Raw)
	}
	return m
}

// Call sends a request and returns its successful response.
func (c *Client) Call(command string, args any) Msg {
	c.t.Helper()
	return c.OK(c.Send(command, args))
}

// Event waits for the event name.
func (c *Client) Event(name string) Msg {
	c.t.Helper()
	return c.Expect("event "+name, func(m Msg) bool { return m.IsEvent(name) })
}

// Transcript returns every message received so far, in order.
func (c *Client) Transcript() []Msg {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Msg(nil), c.transcript...)
}

// Count returns how many received messages match pred.
func (c *Client) Count(pred func(Msg) bool) int {
	n := 0
	for _, m := range c.Transcript() {
		if pred(m) {
			n++
		}
	}
	return n
}

// Foreign lists the responses the client did not cause (unknown
// request_seq, another command, a second answer) and undecodable frames.
func (c *Client) Foreign() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.foreign...)
}

// Unanswered lists the requests sent that got no response yet.
func (c *Client) Unanswered() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []string
	for seq, cmd := range c.sent {
		if !c.answered[seq] {
			out = append(out, fmt.Sprintf("%d (%s)", seq, cmd))
		}
	}
	slices.Sort(out)
	return out
}

// Done is closed when the connection has ended (read side).
func (c *Client) Done() <-chan struct{} { return c.done }

// Close closes the connection and waits for the read loop to end.
func (c *Client) Close() {
	c.closeOnce.Do(func() { _ = c.conn.Close() })
	<-c.done
}
