// liveness.go: whether the kernel is alive: the heartbeat loop (dead,
// not answering, back), a dead kernel reconnected when it answers again,
// and restarts seen from a new kernel session (a Jupyter Server restarts a
// kernel behind the same websocket), with the requests they lose.

package kernel

import (
	"context"
	"errors"
	"time"
)

// setLive records a liveness change: requests in flight fail at once when
// the kernel is dead or not answering.
func (c *Client) setLive(state string, err error, restarted bool) {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	// A death already seen (a closed connection) becomes final when the
	// kernel is known gone (its process exited, the server has no such
	// kernel): told again.
	final := state == LiveDead && errors.Is(err, ErrGone) && !errors.Is(c.liveErr, ErrGone)
	if c.live == LiveClosed || (c.live == state && !restarted && !final) {
		return
	}
	c.live, c.liveErr, c.liveAt = state, err, now
	if state != LiveAlive {
		for _, p := range c.pending {
			p.failWith(err)
		}
	}
	if state == LiveDead || restarted {
		c.track.reset()
	}
	c.notifyLocked()
	c.log.Info("kernel: liveness", "kernel", c.name, "state", state, "err", err)
	c.publish(Event{Kind: EventLiveness, Time: now, Liveness: state, Restarted: restarted, Err: err})
}

// liveness is the current liveness error, nil when alive.
func (c *Client) liveness() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.live == LiveAlive {
		return nil
	}
	return c.liveErr
}

// lost is called by the transport when a connection to the kernel closed
// on its own: the kernel exited (or is restarting).
func (c *Client) lost(err error) {
	select {
	case <-c.done:
		return
	default:
	}
	c.setLive(LiveDead, &ConnError{Kernel: c.name, Err: ErrDead, Detail: "its connection closed (" + err.Error() + "): the kernel exited or is restarting"}, false)
}

// checkKernelSession learns the kernel process's session id from what it
// sends; another one means the kernel restarted (a Jupyter Server
// restarts a kernel behind the same websocket). A request made while the
// old process was the one known went to it (and is lost) or, if it was
// already gone, waits for the new one: it becomes suspect, and fails with
// ErrRestarted unless the new process starts it soon (restartGrace). A
// server's "restarting" status (sent as it launches the new process, which
// may not speak for a while) says the same. Late messages of a retired
// process change nothing. A shutdown_reply on IOPub (the kernel is going
// away, to restart or not) makes the requests in flight suspect too.
func (c *Client) checkKernelSession(m *Message) {
	if m.Header.Session == "" {
		return
	}
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.kernelSession
	if m.Channel == ChannelIOPub && m.Header.MsgType == "shutdown_reply" && m.Header.Session == old {
		for _, p := range c.pending {
			if p.kernelSession == old {
				p.began, p.suspect = false, now
			}
		}
		return
	}
	if m.Header.MsgType == "status" && serverStatus(statusOf(m)) {
		// The server's own statuses carry the server's session.
		if statusOf(m) == "dead" || old == "" {
			return
		}
		c.kernelSession = ""
	} else {
		if old == m.Header.Session || c.retired[m.Header.Session] {
			return
		}
		c.kernelSession = m.Header.Session
		if old == "" {
			return
		}
	}
	c.retired[old] = true
	c.log.Info("kernel: the kernel restarted", "kernel", c.name)
	for id, p := range c.pending {
		if id != m.Parent.MsgID && p.kernelSession == old {
			p.began, p.suspect = false, now
		}
	}
	c.track.reset()
	c.notifyLocked()
	c.publish(Event{Kind: EventLiveness, Time: now, Liveness: c.live, Restarted: true})
}

func serverStatus(s string) bool {
	return s == "restarting" || s == "autorestarting" || s == "dead"
}

// restartGrace is how long a request made before a restart may wait for
// the new kernel process to start it.
func (c *Client) restartGrace() time.Duration {
	return max(2*c.opts.HeartbeatInterval, 2*time.Second)
}

// failSuspects fails the requests that a restarted kernel lost.
func (c *Client) failSuspects() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.pending {
		if !p.suspect.IsZero() && !p.began && time.Since(p.suspect) > c.restartGrace() {
			p.failWith(&ConnError{Kernel: c.name, Err: ErrRestarted, Detail: "the kernel restarted while the request was in flight"})
		}
	}
}

// pingError classifies a failed heartbeat.
func (c *Client) pingError(err error) error {
	var ce *ConnError
	if errors.As(err, &ce) {
		if ce.Kernel == "" {
			ce.Kernel = c.name
		}
		return err
	}
	if isCtxErr(err) {
		return &ConnError{Kernel: c.name, Err: ErrNotAnswering,
			Detail: "its heartbeat did not answer (the process is stopped or hung)"}
	}
	return &ConnError{Kernel: c.name, Err: ErrDead, Detail: err.Error()}
}

// liveLoop checks the heartbeat every interval; a dead kernel is
// reconnected (and attached again) when it answers again.
func (c *Client) liveLoop() {
	defer c.wg.Done()
	t := time.NewTicker(c.opts.HeartbeatInterval)
	defer t.Stop()
	for {
		select {
		case <-c.done:
			return
		case <-t.C:
		}
		c.checkLive()
	}
}

func (c *Client) checkLive() {
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.HeartbeatTimeout)
	defer cancel()
	c.failSuspects()
	c.mu.Lock()
	state := c.live
	c.mu.Unlock()
	if state == LiveDead {
		if err := c.tr.reconnect(ctx); err != nil {
			if errors.Is(err, ErrGone) { // a server's 404: final at once
				c.setLive(LiveDead, err, false)
			}
			c.log.Debug("kernel: still unreachable", "kernel", c.name, "err", err)
			return
		}
		c.mu.Lock()
		c.kernelSession = "" // a new process: learnt again, not a restart in flight
		c.mu.Unlock()
		if err := c.attach(ctx); err != nil {
			c.log.Info("kernel: reconnected but not attached", "kernel", c.name, "err", err)
			return
		}
		c.setLive(LiveAlive, nil, true)
		return
	}
	err := c.tr.ping(ctx)
	if c.ctx.Err() != nil {
		return
	}
	if err == nil {
		c.mu.Lock()
		c.pingOK = time.Now()
		c.mu.Unlock()
		if c.probeRestarts {
			c.probeKernel(state)
		} else if state == LiveNotAnswering {
			c.setLive(LiveAlive, nil, false)
		}
		return
	}
	perr := c.pingError(err)
	if errors.Is(perr, ErrDead) {
		c.setLive(LiveDead, perr, false)
	} else {
		c.setLive(LiveNotAnswering, perr, false)
	}
}

// probeKernel is the kernel-level check of a transport whose heartbeat
// only shows the server (a Jupyter Server's websocket). When a request has
// waited more than two heartbeat intervals without beginning, or the
// kernel was found not answering, it asks kernel_info on the control
// channel (which ipykernel answers even while a cell runs): the answer's
// session shows a restart (checkKernelSession), no answer within
// HeartbeatTimeout means the kernel process is stopped or hung.
func (c *Client) probeKernel(state string) {
	old := time.Now().Add(-2 * c.opts.HeartbeatInterval)
	c.mu.Lock()
	needed := state == LiveNotAnswering
	for _, p := range c.pending {
		// A request that began runs in the kernel known: only one that
		// never began may have gone to a process that is no more.
		if p.since.Before(old) && !p.began {
			needed = true
			break
		}
	}
	c.mu.Unlock()
	if !needed {
		return
	}
	ctx, cancel := context.WithTimeout(c.ctx, c.opts.HeartbeatTimeout)
	defer cancel()
	m, err := newRequest(c.session, "kernel_info_request", struct{}{})
	if err != nil {
		return
	}
	p := c.register(m.Header.MsgID, false)
	defer c.unregister(p.id)
	if c.send(ctx, ChannelControl, m) != nil {
		return
	}
	select {
	case <-p.reply:
		if state == LiveNotAnswering {
			c.setLive(LiveAlive, nil, false)
		}
	case <-p.fail:
	case <-ctx.Done():
		if c.ctx.Err() == nil {
			c.setLive(LiveNotAnswering, &ConnError{Kernel: c.name, Err: ErrNotAnswering,
				Detail: "the Jupyter Server answers, but the kernel does not answer kernel_info on its control channel: the kernel process is stopped or hung"}, false)
		}
	}
}

// Ping checks the kernel's heartbeat now.
func (c *Client) Ping(ctx context.Context) error {
	if err := c.tr.ping(ctx); err != nil {
		return c.pingError(err)
	}
	c.mu.Lock()
	c.pingOK = time.Now()
	c.mu.Unlock()
	return nil
}
