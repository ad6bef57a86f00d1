// dial.go: opening a Client on a local kernel: from a connection file, or
// from already parsed connection info.

package kernel

import "context"

// DialFile reads and checks a connection file and attaches to its kernel.
func DialFile(ctx context.Context, path string, opts Options) (*Client, error) {
	info, err := ReadConnectionFile(path, opts.File)
	if err != nil {
		return nil, err
	}
	return Dial(ctx, info, opts)
}

// Dial attaches to the kernel of info over ZeroMQ: it connects the
// channels, checks the heartbeat, asks kernel_info (which tells an idle
// kernel from one already running a cell) and starts the liveness loop.
// ctx bounds the whole attach.
func Dial(ctx context.Context, info *ConnectionInfo, opts Options) (*Client, error) {
	c := newClient(info.String(), opts)
	z, err := dialZMQ(ctx, info, c.deliver, c.lost)
	if err != nil {
		c.cancel()
		return nil, err
	}
	c, err = c.start(ctx, z)
	if err == nil && c.opts.PID > 0 {
		c.watchPID(c.opts.PID, info.Path)
	}
	return c, err
}

// start runs c over its connected transport tr: it attaches (kernel_info)
// and starts the liveness loop; a failed attach closes c.
func (c *Client) start(ctx context.Context, tr transport) (*Client, error) {
	c.tr = tr
	if err := c.attach(ctx); err != nil {
		_ = c.Close()
		return nil, err
	}
	c.wg.Add(1)
	go c.liveLoop()
	return c, nil
}
