// attach.go: attaching to a kernel: heartbeat, then kernel_info on the
// shell and control channels at once, which tells an idle kernel from one
// already running a cell, and a check that IOPub delivers.

package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"time"
)

// KernelInfo is a kernel_info_reply.
type KernelInfo struct {
	ProtocolVersion       string       `json:"protocol_version"`
	Implementation        string       `json:"implementation"`
	ImplementationVersion string       `json:"implementation_version"`
	Banner                string       `json:"banner"`
	Debugger              bool         `json:"debugger"`
	LanguageInfo          LanguageInfo `json:"language_info"`
	// SupportedFeatures: "kernel subshells" (JEP 91, subshell.go),
	// "debugger".
	SupportedFeatures []string `json:"supported_features,omitempty"`
}

// LanguageInfo is the kernel's language_info.
type LanguageInfo struct {
	Name          string `json:"name"`
	Version       string `json:"version"`
	MimeType      string `json:"mimetype"`
	FileExtension string `json:"file_extension"`
}

// Language is the kernel's language name ("python", "R", …).
func (k KernelInfo) Language() string { return k.LanguageInfo.Name }

// attach learns the kernel's info and whether a cell is already running.
func (c *Client) attach(ctx context.Context) error {
	if err := c.tr.ping(ctx); err != nil {
		return c.pingError(err)
	}
	c.mu.Lock()
	c.pingOK = time.Now()
	c.mu.Unlock()
	shell, err := newRequest(c.session, "kernel_info_request", struct{}{})
	if err != nil {
		return err
	}
	control, _ := newRequest(c.session, "kernel_info_request", struct{}{})
	ps := c.register(shell.Header.MsgID, false)
	pc := c.register(control.Header.MsgID, false)
	defer c.unregister(pc.id)
	keepShell := false
	defer func() {
		if !keepShell {
			c.unregister(ps.id)
		}
	}()
	start := time.Now()
	if err := c.send(ctx, ChannelShell, shell); err != nil {
		return fmt.Errorf("%s: sending kernel_info_request: %w", c.name, err)
	}
	if err := c.send(ctx, ChannelControl, control); err != nil {
		return fmt.Errorf("%s: sending kernel_info_request: %w", c.name, err)
	}
	var grace <-chan time.Time
	for {
		c.mu.Lock()
		changed, bad := c.changed, c.sigBad
		c.mu.Unlock()
		if bad > 0 {
			// The kernel's messages fail their signature check: the key
			// is wrong, and the kernel drops ours as well.
			return c.attachTimeout(time.Since(start), nil)
		}
		select {
		case <-changed:
		case r := <-ps.reply:
			if err := c.learnInfo(r); err != nil {
				return err
			}
			c.mu.Lock()
			c.track.clearUnknown()
			c.track.learnt = true
			c.notifyLocked()
			c.mu.Unlock()
			c.confirmIOPub(ctx)
			return nil
		case r := <-pc.reply:
			if err := c.learnInfo(r); err != nil {
				return err
			}
			t := time.NewTimer(c.opts.AttachGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			// The control channel answered and the shell did not: a cell
			// that started before we attached is running. Its end is the
			// shell's answer to our kernel_info (or an idle we see).
			keepShell = true
			c.mu.Lock()
			c.track.unknown, c.track.unknownAt = true, time.Now()
			c.attached = c.track.unknownAt
			if b := c.serverBusy; !b.IsZero() && b.Before(c.attached) {
				c.track.unknownAt, c.track.unknownByServer = b, true
			}
			ps.then = func(*Message) {
				c.mu.Lock()
				c.track.clearUnknown()
				c.track.learnt = true
				c.notifyLocked()
				c.mu.Unlock()
			}
			c.notifyLocked()
			c.mu.Unlock()
			select {
			case r := <-ps.reply: // arrived before then was set
				c.unregister(ps.id)
				ps.then(r)
			default:
			}
			c.confirmIOPub(ctx)
			c.learnRunningCell(ctx)
			return nil
		case err := <-ps.fail:
			return err
		case err := <-pc.fail:
			return err
		case <-ctx.Done():
			return c.attachTimeout(time.Since(start), ctx.Err())
		}
	}
}

// learnInfo stores a kernel_info_reply.
func (c *Client) learnInfo(r *Message) error {
	var info KernelInfo
	if err := json.Unmarshal(r.Content, &info); err != nil {
		return fmt.Errorf("%s: kernel_info_reply is not valid: %w", c.name, err)
	}
	c.mu.Lock()
	c.info = info
	c.mu.Unlock()
	return nil
}

// confirmIOPub waits briefly until an IOPub message caused by us arrives,
// asking kernel_info on the control channel again meanwhile: a new
// subscription can miss the first messages. Without it busy tracking only
// lags; it is logged, not an error (some kernels publish no status for
// control requests).
func (c *Client) confirmIOPub(ctx context.Context) {
	deadline := time.Now().Add(2 * time.Second)
	for try := 0; ; try++ {
		c.mu.Lock()
		ok, changed := c.iopubOK, c.changed
		c.mu.Unlock()
		if ok {
			return
		}
		if time.Now().After(deadline) {
			c.log.Warn("kernel: no IOPub message seen for our requests; busy tracking may lag", "kernel", c.name)
			return
		}
		if try > 0 {
			if m, err := newRequest(c.session, "kernel_info_request", struct{}{}); err == nil {
				_ = c.send(ctx, ChannelControl, m)
			}
		}
		t := time.NewTimer(300 * time.Millisecond)
		select {
		case <-changed:
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return
		}
		t.Stop()
	}
}

// attachTimeout explains a kernel that answers its heartbeat but not
// kernel_info.
func (c *Client) attachTimeout(waited time.Duration, ctxErr error) error {
	c.mu.Lock()
	bad := c.sigBad
	c.mu.Unlock()
	if bad > 0 {
		return &ConnError{Kernel: c.name, Err: ErrSignature,
			Detail: fmt.Sprintf("%d message(s) from the kernel failed their signature check", bad)}
	}
	return fmt.Errorf("%s: the kernel answers its heartbeat but not kernel_info on its shell or control channel within %s: it rejects our messages (wrong key in the connection file?) or is stuck: %w",
		c.name, waited.Round(time.Millisecond), ctxErr)
}
