// hops.go: the loopback rule at every hop to an inspector. An attach named
// a loopback host, yet followed /json/list's webSocketDebuggerUrl, or an
// HTTP 302, to any host; js-debug's CDP link followed a websocket 302 and
// sent the proxy's secret path there. Every URL (the discovery's, the
// websocket URL it names, each redirect) is checked by host, and every
// address a name resolves to is checked before it is dialed: loopback, or
// a host allowed by name (the attach's own, --attach-hosts).

package node

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// Hops says where connections to an inspector may go: loopback addresses
// (and localhost, when it resolves to them), and the hosts in Allow. The
// zero value allows loopback only, resolving and dialing for real.
type Hops struct {
	Allow []string
	// Resolve looks a host name up (nil: the system resolver).
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Dial connects to an address the rule allowed (nil: a net.Dialer).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// with allows hosts too.
func (h Hops) with(hosts ...string) Hops {
	h.Allow = append(append([]string(nil), h.Allow...), hosts...)
	return h
}

// listed: host is allowed by name.
func (h Hops) listed(host string) bool {
	for _, a := range h.Allow {
		if a = strings.Trim(strings.TrimSpace(a), "[]"); a != "" && strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

// checkHost allows a host named in a URL: a loopback address, localhost
// (its addresses are checked when dialed), or a listed host.
func (h Hops) checkHost(host string) error {
	host = strings.Trim(host, "[]")
	if strings.EqualFold(host, "localhost") || h.listed(host) {
		return nil
	}
	if ip, err := netip.ParseAddr(host); err == nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%q is not a loopback host (other hosts must be allowed explicitly: dapscope --attach-hosts)", host)
}

// CheckURL checks a URL an inspector connection would go to (its path is
// never quoted: a CDP proxy's path is its secret).
func (h Hops) CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL: %v", err)
	}
	switch u.Scheme {
	case "http", "https", "ws", "wss":
	default:
		return fmt.Errorf("scheme %q is not http or ws", u.Scheme)
	}
	if err := h.checkHost(u.Hostname()); err != nil {
		return fmt.Errorf("%s://%s: %w", u.Scheme, u.Host, err)
	}
	return nil
}

// dialContext connects to addr after checking the address it resolves to.
func (h Hops) dialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	dial := h.Dial
	if dial == nil {
		d := net.Dialer{Timeout: 10 * time.Second}
		dial = d.DialContext
	}
	if h.listed(host) {
		return dial(ctx, network, addr) // allowed by name, wherever it resolves
	}
	if err := h.checkHost(host); err != nil {
		return nil, err
	}
	var addrs []netip.Addr
	if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		addrs = []netip.Addr{ip}
	} else {
		resolve := h.Resolve
		if resolve == nil {
			resolve = func(ctx context.Context, host string) ([]netip.Addr, error) {
				return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
			}
		}
		if addrs, err = resolve(ctx, host); err != nil {
			return nil, err
		}
	}
	if len(addrs) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	for _, a := range addrs {
		if !a.Unmap().IsLoopback() {
			return nil, fmt.Errorf("%s resolves to %s, not a loopback address", host, a)
		}
	}
	return dial(ctx, network, net.JoinHostPort(addrs[0].Unmap().String(), port))
}

// client is an HTTP client whose every connection and redirect obeys the
// rule; wrap (may be nil) wraps each connection it dials. It keeps no idle
// connection (one request per client, or a hijacked websocket).
func (h Hops) client(wrap func(net.Conn) net.Conn) *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:             nil,
			DisableKeepAlives: true,
			DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
				c, err := h.dialContext(ctx, network, addr)
				if err != nil || wrap == nil {
					return c, err
				}
				return wrap(c), nil
			},
		},
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 5 {
				return fmt.Errorf("more than 5 redirects")
			}
			if err := h.CheckURL(req.URL.String()); err != nil {
				return fmt.Errorf("redirect refused: %w", err)
			}
			return nil
		},
	}
}

// withoutPath is a URL without its path and query (an inspector's path is
// its secret: never quoted in an error).
func withoutPath(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		return "(an invalid URL)"
	}
	return u.Scheme + "://" + u.Host
}

// pathless is err with the URL of an HTTP request error (a redirect's
// target among them) cut to its scheme and host.
func pathless(err error) error {
	var ue *url.Error
	if !errors.As(err, &ue) {
		return err
	}
	return fmt.Errorf("%s %s: %w", ue.Op, withoutPath(ue.URL), ue.Err)
}
