// zmtpsig.go: telling a ZeroMQ peer from anything else on a kernel's port,
// at once. A ZeroMQ peer (libzmq, as every kernel uses) sends its ZMTP
// signature (0xff, 8 bytes, then a byte with bit 0 set: 0x7f) as soon as
// it accepts a connection. The guard checks the first bytes it reads: any
// other first bytes (an SSH or SMTP banner, an HTTP answer) are "not a
// kernel" at once. A peer that stays silent is either a stopped or hung
// kernel or a server that waits for its client to speak first (HTTP): after
// sigWindow a second connection asks it, with an empty line; a server that
// answers anything but ZeroMQ's signature, or closes the connection
// without a byte, is not a kernel. A stopped kernel answers nothing, and
// the dial goes on waiting as before (bounded by the caller's context); a
// live one answers the signature on the second connection too.

package kernel

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"syscall"
	"time"
)

// sigWindow is how long a peer may stay silent before it is asked whether
// it speaks ZeroMQ at all; probeWindow bounds that question.
var (
	sigWindow   = 300 * time.Millisecond
	probeWindow = time.Second
)

// zmtpSigLen is the length of a ZMTP signature.
const zmtpSigLen = 10

// sigCheck is the guard's state while the peer's signature is unread.
type sigCheck struct {
	network, addr string
	got           []byte // the first bytes read (up to 32)
	done          bool   // the signature was seen
	armed         bool   // the silence deadline is set
	probed        bool
}

// readConn reads from the connection, checking the peer's first bytes.
func (g *guardConn) readConn(buf []byte) (int, error) {
	s := g.sig
	if s == nil || s.done {
		return g.Conn.Read(buf)
	}
	if !s.armed && !s.probed {
		s.armed = true
		_ = g.Conn.SetReadDeadline(time.Now().Add(sigWindow))
	}
	n, err := g.Conn.Read(buf)
	if n == 0 && s.armed && isTimeout(err) {
		s.armed, s.probed = false, true
		_ = g.Conn.SetReadDeadline(time.Time{})
		if why := probeNotZMTP(s.network, s.addr); why != "" {
			return 0, fmt.Errorf("%w: %s on %s %s: not a kernel (a stale connection file whose port another program took?)",
				ErrNotKernelReply, why, s.network, s.addr)
		}
		return 0, nil // silent on both connections: wait, as for a stopped kernel
	}
	if n > 0 {
		if s.armed {
			s.armed = false
			_ = g.Conn.SetReadDeadline(time.Time{})
		}
		s.got = append(s.got, buf[:min(n, 32-len(s.got))]...)
		switch ok, known := zmtpSignature(s.got); {
		case !ok:
			return 0, fmt.Errorf("%w: %s %s answered %s instead of ZeroMQ's greeting: not a kernel (a stale connection file whose port another program took?)",
				ErrNotKernelReply, s.network, s.addr, quoteHead(s.got))
		case known:
			s.done, s.got = true, nil
		}
	}
	return n, err
}

// zmtpSignature says whether b can start a ZMTP signature (ok), and
// whether enough of it was read to know (known).
func zmtpSignature(b []byte) (ok, known bool) {
	if len(b) == 0 {
		return true, false
	}
	if b[0] != 0xff {
		return false, true
	}
	if len(b) < zmtpSigLen {
		return true, false
	}
	return b[zmtpSigLen-1]&1 == 1, true
}

// probeNotZMTP asks the peer at addr, on a connection of its own, whether
// it speaks ZeroMQ: why it does not, or "" when it does or stays silent.
func probeNotZMTP(network, addr string) string {
	c, err := net.DialTimeout(network, addr, probeWindow)
	if err != nil {
		return ""
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(probeWindow))
	// An empty line: an HTTP server answers it (400) or closes; a ZeroMQ
	// peer has sent its signature before it reads anything.
	if _, err := c.Write([]byte("\r\n\r\n")); err != nil {
		return ""
	}
	var got []byte
	buf := make([]byte, 64)
	for len(got) < zmtpSigLen {
		n, err := c.Read(buf)
		got = append(got, buf[:n]...)
		if ok, known := zmtpSignature(got); known {
			if ok {
				return ""
			}
			return "it answers " + quoteHead(got)
		}
		if err != nil {
			if len(got) == 0 && (errors.Is(err, io.EOF) || isReset(err)) {
				return "it waits for its client to speak first and closed the connection without a byte of ZeroMQ's greeting"
			}
			return ""
		}
	}
	return ""
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

func isReset(err error) bool { return errors.Is(err, syscall.ECONNRESET) }

// quoteHead quotes the first bytes a peer sent.
func quoteHead(b []byte) string {
	return strconv.QuoteToASCII(string(b[:min(len(b), 32)]))
}
