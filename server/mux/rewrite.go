// rewrite.go: the one place where the sidecar changes what the editor
// sees from the adapter. A Rewriter may replace the adapter's response to
// chosen editor requests (smart values in hovers, Watch and Variables),
// within a time budget: past it, or on any failure, the adapter's own
// bytes go out. Messages toward the editor keep their order: what arrives
// while a response is being rewritten waits behind it (for at most the
// budget), so the editor's stream is exactly the adapter's but for the
// rewritten bodies. A Rewriter that is also a Preparer decides on the
// adapter's read loop, so a response it leaves alone (most of them) goes
// out at once, without the rewrite's goroutines and timer.

package mux

import (
	"context"
	"encoding/json"
	"sync"
	"time"

	"github.com/dapscope/dapscope/server/dap"
)

// Rewriter decides which editor requests' responses may change and
// computes the change.
type Rewriter interface {
	// Wants is asked on the editor's read loop for every request; it must be
	// cheap (decide from the command and its arguments only).
	Wants(command string, args json.RawMessage) bool
	// Rewrite returns the response body to send instead of resp (the whole
	// message), or nil to send resp unchanged. It must honour ctx: when the
	// budget ends the adapter's response is sent and the result dropped.
	Rewrite(ctx context.Context, command string, args, resp json.RawMessage) []byte
}

// Preparer is an optional part of a Rewriter. Prepare is called on the
// adapter's read loop instead of Rewrite: it does the cheap part at once
// (decoding the response, bookkeeping) and returns the rewrite still to
// run, under the budget and with Rewrite's contract, or nil when the
// response stays as it is. It must not wait for anything.
type Preparer interface {
	Prepare(command string, args, resp json.RawMessage) func(ctx context.Context) []byte
}

// DefaultRewriteBudget bounds how long a rewrite may hold a response.
const DefaultRewriteBudget = 50 * time.Millisecond

// outbox is the editor's single writer. Messages leave in queue order; an
// entry that is not ready (a rewrite under way) holds those behind it.
type outbox struct {
	mu sync.Mutex
	q  []*outMsg
	w  func([]byte) // writes one frame; called with mu held (one writer)
}

type outMsg struct {
	body  []byte
	ready bool
}

// send queues a ready message, writing at once when nothing waits.
func (o *outbox) send(body []byte) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.q) == 0 {
		o.w(body)
		return
	}
	o.q = append(o.q, &outMsg{body: body, ready: true})
}

// hold queues a placeholder and returns the function that fills it.
func (o *outbox) hold() func(body []byte) {
	m := &outMsg{}
	o.mu.Lock()
	o.q = append(o.q, m)
	o.mu.Unlock()
	var once sync.Once
	return func(body []byte) {
		once.Do(func() {
			o.mu.Lock()
			defer o.mu.Unlock()
			m.body, m.ready = body, true
			for len(o.q) > 0 && o.q[0].ready {
				o.w(o.q[0].body)
				o.q[0] = nil
				o.q = o.q[1:]
			}
		})
	}
}

// rewriteResponse sends the adapter's response to an editor request through
// the rewriter, bounded by the budget; the response keeps its place.
func (ed *editorConn) rewriteResponse(req pendingReq, body []byte) {
	rewrite := func(ctx context.Context) []byte {
		return ed.m.opts.Rewriter.Rewrite(ctx, req.command, req.args, body)
	}
	if p, ok := ed.m.opts.Rewriter.(Preparer); ok {
		if rewrite = ed.prepare(p, req, body); rewrite == nil {
			ed.write(body)
			return
		}
	}
	fill := ed.out.hold()
	budget := ed.m.opts.RewriteBudget
	if budget <= 0 {
		budget = DefaultRewriteBudget
	}
	ed.handlers.Add(1)
	go func() {
		defer ed.handlers.Done()
		ctx, cancel := context.WithTimeout(ed.ctx, budget)
		defer cancel()
		result := make(chan []byte, 1)
		ed.handlers.Add(1) // the rewrite itself may outlive the budget: tracked too
		go func() {
			defer ed.handlers.Done()
			defer func() {
				if p := recover(); p != nil {
					ed.m.log.Error("panic in response rewrite; sending the adapter's response", "command", req.command, "panic", p)
					result <- nil
				}
			}()
			result <- rewrite(ctx)
		}()
		select {
		case b := <-result:
			if b != nil && len(b) <= dap.MaxFrame {
				fill(b)
				return
			}
		case <-ctx.Done():
			ed.m.log.Debug("response rewrite over budget; sending the adapter's response", "command", req.command, "budget", budget)
		}
		fill(body)
	}()
}

// prepare runs p.Prepare; a panic leaves the adapter's response as it is.
func (ed *editorConn) prepare(p Preparer, req pendingReq, body []byte) (rewrite func(context.Context) []byte) {
	defer func() {
		if r := recover(); r != nil {
			ed.m.log.Error("panic in response rewrite; sending the adapter's response", "command", req.command, "panic", r)
			rewrite = nil
		}
	}()
	return p.Prepare(req.command, req.args, body)
}
