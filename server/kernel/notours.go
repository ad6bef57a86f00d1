// notours.go: a reply that answers no request dapscope sent. ZeroMQ routes
// a kernel's shell and control replies to the socket that asked, so every
// reply names one of our requests as its parent: a pending one, or one we
// gave up on (a late reply, ignored). A reply whose parent msg_id we never
// sent is not a kernel's (a hostile or broken peer): the requests waiting
// on that channel fail at once with ErrNotKernelReply, instead of running
// to their timeouts (and attach taking the silent shell for a busy one).

package kernel

import (
	"context"
	"fmt"
	"time"
)

// sentRemembered is how many of our latest request ids are remembered to
// tell a late reply from a foreign one.
const sentRemembered = 4096

// send writes m on channel, remembering its id; it is the one way the
// client sends.
func (c *Client) send(ctx context.Context, channel string, m *Message) error {
	c.mu.Lock()
	if c.sent == nil {
		c.sent = map[string]struct{}{}
	}
	id := m.Header.MsgID
	if _, ok := c.sent[id]; !ok {
		c.sent[id] = struct{}{}
		c.sentOrder = append(c.sentOrder, id)
		if len(c.sentOrder) > sentRemembered {
			delete(c.sent, c.sentOrder[0])
			c.sentOrder = c.sentOrder[1:]
		}
	}
	if p := c.pending[id]; p != nil {
		p.channel = channel
	}
	c.mu.Unlock()
	return c.tr.send(ctx, channel, m)
}

// foreignLocked says whether a reply with no pending request answers one
// we never sent; c.mu is held.
func (c *Client) foreignLocked(m *Message) bool {
	_, ours := c.sent[m.Parent.MsgID]
	return !ours
}

// notOurs fails the requests waiting on m's channel: m answers none of
// ours. c.mu is held.
func (c *Client) notOursLocked(m *Message) {
	err := fmt.Errorf("%w: a %s on the %s channel answers a request dapscope never sent (its parent msg_id is %q): not a kernel, or a broken one",
		ErrNotKernelReply, clipText(m.Header.MsgType, 40), m.Channel, clipText(m.Parent.MsgID, 40))
	c.log.Warn("kernel: a reply to no request of ours", "kernel", c.name, "err", err)
	for _, p := range c.pending {
		if p.channel == m.Channel {
			p.failWith(err)
		}
	}
	c.publish(Event{Kind: EventRefused, Time: time.Now(), Err: err})
}
