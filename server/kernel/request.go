// request.go: one request and its reply, bounded by the caller's context:
// refused at once while a user's cell holds the shell (unless the caller
// waits), given up and withdrawn when it turns out to be queued behind a
// cell, failed at once when the kernel dies or stops answering, and a
// timeout that says what was seen.

package kernel

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// CallOptions apply to one call.
type CallOptions struct {
	// Wait is how long a call may wait for a running cell to finish. Zero
	// answers at once with *BusyError while a user's cell runs.
	Wait time.Duration
}

// call describes one request.
type call struct {
	channel   string
	msgType   string
	content   any
	collect   bool // also wait for the request's IOPub idle; gather its outputs
	busyCheck bool // a shell request that a running cell would hold up
	wait      time.Duration
	subshell  string // the kernel subshell it is for ("" = the main shell)
	// silentCall: a silent execute of dapscope's own, sent in the
	// client's subshell where the kernel has one (subshell.go).
	silentCall bool
}

// answer is a reply and, for collecting calls, the IOPub messages the
// request caused.
type answer struct {
	reply   *Message
	outputs []*Message
}

func (c *Client) do(ctx context.Context, k call) (*answer, error) {
	select {
	case <-c.done:
		return nil, ErrClosed
	default:
	}
	if err := c.liveness(); err != nil {
		return nil, err
	}
	deadline := time.Now().Add(k.wait)
	if k.busyCheck {
		if err := c.waitShell(ctx, deadline); err != nil {
			return nil, err
		}
	}
	m, err := newRequest(c.session, k.msgType, k.content)
	if err != nil {
		return nil, err
	}
	m.Header.SubshellID = k.subshell
	p := c.register(m.Header.MsgID, k.collect)
	defer c.unregister(p.id)
	start := time.Now()
	if err := c.send(ctx, k.channel, m); err != nil {
		if lerr := c.liveness(); lerr != nil {
			return nil, lerr
		}
		return nil, fmt.Errorf("%s: sending %s: %w", c.name, k.msgType, err)
	}
	var reply *Message
	for reply == nil {
		var busy *BusyError
		c.mu.Lock()
		changed := c.changed
		if k.busyCheck && !p.began && k.subshell == "" { // a subshell's request queues behind no cell
			busy = c.busyLocked(time.Now())
		}
		c.mu.Unlock()
		var timer <-chan time.Time
		stop := func() bool { return false }
		if busy != nil {
			left := time.Until(deadline)
			if left <= 0 {
				busy.Queued = true
				c.withdraw(p.id)
				return nil, busy
			}
			t := time.NewTimer(left)
			timer, stop = t.C, t.Stop
		}
		select {
		case reply = <-p.reply:
		case err := <-p.fail:
			return nil, err
		case <-ctx.Done():
			return nil, c.noReply(k.msgType, time.Since(start), ctx.Err())
		case <-c.done:
			return nil, ErrClosed
		case <-changed:
		case <-timer:
		}
		stop()
	}
	if k.collect {
		select {
		case <-p.idle:
		case err := <-p.fail:
			return nil, err
		case <-ctx.Done():
			return nil, c.noReply("IOPub idle status after "+k.msgType, time.Since(start), ctx.Err())
		case <-c.done:
			return nil, ErrClosed
		}
	}
	c.mu.Lock()
	out := p.outputs
	c.mu.Unlock()
	return &answer{reply: reply, outputs: out}, nil
}

// busyLocked is the BusyError for the cell holding the shell, or nil;
// c.mu is held.
func (c *Client) busyLocked(now time.Time) *BusyError {
	cell, since, ok := c.track.blocking(now)
	if !ok {
		return nil
	}
	if since.IsZero() {
		since = c.attached
	}
	return &BusyError{Cell: cell, For: now.Sub(since), Paused: len(c.track.stopped) > 0}
}

// waitShell returns when no user's cell holds the shell, or a *BusyError
// once deadline (or ctx) passes first.
func (c *Client) waitShell(ctx context.Context, deadline time.Time) error {
	for {
		c.mu.Lock()
		busy := c.busyLocked(time.Now())
		changed := c.changed
		c.mu.Unlock()
		if busy == nil {
			return nil
		}
		left := time.Until(deadline)
		if left <= 0 {
			return busy
		}
		t := time.NewTimer(left)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return busy
		case <-c.done:
			t.Stop()
			return ErrClosed
		}
		t.Stop()
		if err := c.liveness(); err != nil {
			return err
		}
	}
}

// withdraw asks the kernel to drop a request still queued behind a cell
// (ipykernel's abort_request on the control channel), so that it does not
// run later. Best effort: nothing waits for the answer.
func (c *Client) withdraw(id string) {
	m, err := newRequest(c.session, "abort_request", map[string]any{"msg_ids": []string{id}})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, time.Second)
	defer cancel()
	if err := c.send(ctx, ChannelControl, m); err != nil {
		c.log.Debug("kernel: abort_request not sent", "err", err)
	}
}

// noReply explains a request that got no reply before its context ended.
func (c *Client) noReply(what string, waited time.Duration, ctxErr error) error {
	if err := c.liveness(); err != nil {
		return err
	}
	c.mu.Lock()
	bad, pingOK := c.sigBad, c.pingOK
	c.mu.Unlock()
	waited = waited.Round(time.Millisecond)
	if bad > 0 {
		return &ConnError{Kernel: c.name, Err: ErrSignature,
			Detail: fmt.Sprintf("no reply to %s within %s, and %d message(s) from the kernel failed their signature check", what, waited, bad)}
	}
	if !pingOK.IsZero() && time.Since(pingOK) > 2*c.opts.HeartbeatInterval+c.opts.HeartbeatTimeout {
		return &ConnError{Kernel: c.name, Err: ErrNotAnswering,
			Detail: fmt.Sprintf("no reply to %s within %s, and its heartbeat last answered %s ago", what, waited, time.Since(pingOK).Round(time.Millisecond))}
	}
	if c.probeRestarts {
		return fmt.Errorf("%s: no reply to %s within %s (the Jupyter Server answers; the kernel may be busy on that channel): %w",
			c.name, what, waited, ctxErr)
	}
	return fmt.Errorf("%s: no reply to %s within %s; the kernel answers its heartbeat, so it is busy on that channel or rejects our messages (wrong key in the connection file?): %w",
		c.name, what, waited, ctxErr)
}

// isCtxErr says whether err is a context's end.
func isCtxErr(err error) bool {
	return errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled)
}

// WaitIdle returns once no user's cell holds the kernel's shell, or a
// *BusyError when ctx ends first.
func (c *Client) WaitIdle(ctx context.Context) error {
	dl, ok := ctx.Deadline()
	if !ok {
		dl = time.Now().Add(100 * 365 * 24 * time.Hour)
	}
	return c.waitShell(ctx, dl)
}
