// worker.go: a worker thread's inspector session. Node reaches a worker's
// V8 inspector through the main connection (NodeWorker.sendMessageToWorker
// out, NodeWorker.receivedMessageFromWorker in, each message a JSON string
// of its own); workerConn is that session as a caller with its own ids and
// pending calls, which fail when the worker detaches or the connection
// ends. The main connection's read loop routes a worker's answers here and
// its events, tagged with the session, into the one event queue (cdp.go).

package node

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"unicode/utf16"
	"unicode/utf8"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// workerMessage is the event that carries a worker's messages.
const workerMessage = "NodeWorker.receivedMessageFromWorker"

// errWorkerGone is the error of a call on a worker that has ended.
var errWorkerGone = errors.New("the worker thread has ended")

// workerConn is one worker's session over the main connection.
type workerConn struct {
	parent  *conn
	session string

	// under parent.mu
	nextID  int64
	pending map[int64]chan reply
	err     error
}

// attachWorker registers a worker session on c; its answers are routed
// to the returned workerConn.
func (c *conn) attachWorker(session string) *workerConn {
	w := &workerConn{parent: c, session: session, pending: map[int64]chan reply{}}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		w.err = c.err
		return w
	}
	c.workers[session] = w
	return w
}

// detachWorker fails the worker's pending calls and forgets it.
func (c *conn) detachWorker(session string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if w := c.workers[session]; w != nil {
		w.failLocked(errWorkerGone)
		delete(c.workers, session)
	}
}

// failLocked fails every pending call of the worker (parent.mu held).
func (w *workerConn) failLocked(err error) {
	if w.err == nil {
		w.err = err
	}
	for id, ch := range w.pending {
		ch <- reply{err: w.err}
		delete(w.pending, id)
	}
}

func (w *workerConn) raw(ctx context.Context, method string, params any, out any) error {
	ch := make(chan reply, 1)
	c := w.parent
	c.mu.Lock()
	if w.err != nil {
		c.mu.Unlock()
		return fmt.Errorf("%s: %w", method, w.err)
	}
	w.nextID++
	id := w.nextID
	w.pending[id] = ch
	c.mu.Unlock()
	msg, err := jsonv2.Marshal(struct {
		ID     int64  `json:"id"`
		Method string `json:"method"`
		Params any    `json:"params"`
	}{id, method, params})
	if err != nil {
		c.forget(w.pending, id)
		return err
	}
	// Node hands the worker a message with a Latin-1 character (é, ±)
	// mangled, and the worker never answers it ('é'.length hangs on Node 20
	// and 24): every non-ASCII character goes as its \u escape.
	if err := c.raw(ctx, "NodeWorker.sendMessageToWorker", map[string]any{"sessionId": w.session, "message": string(asciiJSON(msg))}, nil); err != nil {
		c.forget(w.pending, id)
		return fmt.Errorf("%s: %w", method, err)
	}
	return await(ctx, method, ch, out, func() { c.forget(w.pending, id) })
}

// asciiJSON is JSON text with every non-ASCII character (only ever inside
// strings) written as its \u escape, a pair for those beyond the BMP.
func asciiJSON(b []byte) []byte {
	i := 0
	for i < len(b) && b[i] < utf8.RuneSelf {
		i++
	}
	if i == len(b) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	out = append(out, b[:i]...)
	for _, r := range string(b[i:]) {
		switch {
		case r < utf8.RuneSelf:
			out = append(out, byte(r))
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, hi, lo)
		default:
			out = fmt.Appendf(out, `\u%04x`, r)
		}
	}
	return out
}

var (
	workerSessionRE = regexp.MustCompile(`"sessionId"\s*:\s*"([^"\\]+)"`)
	innerMethodRE   = regexp.MustCompile(`\\"method\\"\s*:\s*\\"([A-Za-z.]+)\\"`)
)

// workerEventHead is the method and session of a worker's event wrapped
// in a message too large to read.
func workerEventHead(head []byte) (method, session string) {
	if m := innerMethodRE.FindSubmatch(head); m != nil {
		method = string(m[1])
	}
	if m := workerSessionRE.FindSubmatch(head); m != nil {
		session = string(m[1])
	}
	return method, session
}
