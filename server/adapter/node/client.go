// client.go: the adapter's CDP connection (cdp.go) for other packages: the
// editor's link to js-debug's CDP proxy of a bridged session calls CDP
// methods and sees every event on the read loop.

package node

import (
	"context"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// Client is a CDP connection whose events all go to one callback.
type Client struct{ c *conn }

// DialClient connects to a CDP websocket URL; onEvent sees each event on
// the read loop (it must not block or call the client).
func DialClient(ctx context.Context, url string, onEvent func(method string, params []byte)) (*Client, error) {
	return DialClientVia(ctx, url, Hops{}, onEvent)
}

// DialClientVia is DialClient with the rule its hops obey (hops.go):
// DialClient allows loopback only.
func DialClientVia(ctx context.Context, url string, hops Hops, onEvent func(method string, params []byte)) (*Client, error) {
	c, err := dialCDP(ctx, url, hops, func(ev *event) bool {
		onEvent(ev.Method, ev.Params)
		return true // nothing is queued: the client has no event loop
	})
	if err != nil {
		return nil, err
	}
	return &Client{c: c}, nil
}

// Call sends a method and returns its raw JSON result; an error answer is a
// *CDPError, a call on an ended connection wraps ErrClosed.
func (cl *Client) Call(ctx context.Context, method string, params any) ([]byte, error) {
	var res jsonv2.Value
	if err := cl.c.raw(ctx, method, params, &res); err != nil {
		return nil, err
	}
	return res, nil
}

// Closed says whether the connection has ended.
func (cl *Client) Closed() bool { return cl.c.closed() }

// Close closes the connection and waits for its read loop.
func (cl *Client) Close() error { return cl.c.Close() }
