// zmtpguard.go: a guard in front of zmq4's reader. zmq4 allocates a frame
// of whatever length the peer's ZMTP 3 header announces (2^62 panics in
// makeslice, 2^40 runs out of memory): a stale connection file whose port
// another local process binds could kill dapscope. guardConn parses the
// ZMTP 3 stream it reads (greeting, then frames: flags, a 1- or 8-byte
// length, the body) and never lets a frame over maxFrame through: an
// oversized message frame reaches zmq4 as a short marker frame (its body
// is read and dropped), so that only the call it answers fails and the
// connection stays usable; an oversized command frame (handshake) fails
// the connection.

package kernel

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"net"
	"strconv"
)

// maxFrame is the largest ZeroMQ frame dapscope accepts from a kernel.
const maxFrame = 64 << 20

// frameCap is the cap the ZeroMQ transport applies (tests lower it).
var frameCap uint64 = maxFrame

// zmtpGreeting is the length of a ZMTP 3 greeting.
const zmtpGreeting = 64

// frameTooLargePrefix starts the marker frame that stands for a dropped
// frame; its decimal length follows.
var frameTooLargePrefix = []byte("\x00dapscope: frame too large: ")

// ErrFrameTooLarge: a kernel (or whatever listens on its port) sent a
// ZeroMQ frame over the cap; what it answered is dropped.
var ErrFrameTooLarge = errors.New("a ZeroMQ frame over dapscope's cap")

const (
	zFlagMore    = 0x01
	zFlagLong    = 0x02
	zFlagCommand = 0x04
)

// zmtpParser is the guard's state machine over the bytes read.
type zmtpParser struct {
	max      uint64
	greeting int    // greeting bytes still to pass
	hdr      []byte // the frame header read so far (flags, length)
	body     uint64 // body bytes still to pass or drop
	drop     bool   // dropping the current body
}

func newZMTPParser(max uint64) *zmtpParser {
	return &zmtpParser{max: max, greeting: zmtpGreeting}
}

// feed parses in and appends what may reach zmq4 to out.
func (p *zmtpParser) feed(in, out []byte) ([]byte, error) {
	for len(in) > 0 {
		switch {
		case p.greeting > 0:
			n := min(p.greeting, len(in))
			out = append(out, in[:n]...)
			p.greeting -= n
			in = in[n:]
		case p.body > 0:
			n := int(min(p.body, uint64(len(in))))
			if !p.drop {
				out = append(out, in[:n]...)
			}
			p.body -= uint64(n)
			in = in[n:]
		default:
			p.hdr = append(p.hdr, in[0])
			in = in[1:]
			need := 2
			if p.hdr[0]&zFlagLong != 0 {
				need = 9
			}
			if len(p.hdr) < need {
				continue
			}
			var size uint64
			if need == 2 {
				size = uint64(p.hdr[1])
			} else {
				size = binary.BigEndian.Uint64(p.hdr[1:9])
			}
			flags := p.hdr[0]
			p.hdr = p.hdr[:0]
			p.body, p.drop = size, false
			if size <= p.max {
				out = append(out, flags)
				if need == 2 {
					out = append(out, byte(size))
				} else {
					out = binary.BigEndian.AppendUint64(out, size)
				}
				continue
			}
			if flags&zFlagCommand != 0 {
				return out, fmt.Errorf("%w: a ZMTP command of %d bytes (the cap is %d): not a kernel", ErrFrameTooLarge, size, p.max)
			}
			marker := append(append([]byte(nil), frameTooLargePrefix...), strconv.FormatUint(size, 10)...)
			out = append(out, flags&zFlagMore, byte(len(marker)))
			out = append(out, marker...)
			p.drop = true
		}
	}
	return out, nil
}

// guardConn is a net.Conn whose reads pass through a zmtpParser.
type guardConn struct {
	net.Conn
	p       *zmtpParser
	buf     []byte
	pending []byte
	err     error
	sig     *sigCheck // the peer's signature, until seen (zmtpsig.go)
}

func newGuardConn(c net.Conn, max uint64) *guardConn {
	g := &guardConn{Conn: c, p: newZMTPParser(max), buf: make([]byte, 32<<10)}
	if a := c.RemoteAddr(); a != nil {
		g.sig = &sigCheck{network: a.Network(), addr: a.String()}
	}
	return g
}

func (g *guardConn) Read(b []byte) (int, error) {
	for len(g.pending) == 0 {
		if g.err != nil {
			return 0, g.err
		}
		n, err := g.readConn(g.buf)
		out, perr := g.p.feed(g.buf[:n], g.pending[:0])
		g.pending = out
		if perr != nil {
			err = perr
		}
		g.err = err
	}
	n := copy(b, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// frameTooLarge says whether a frame is the guard's marker, and the size
// of the frame it stands for.
func frameTooLarge(frame []byte) (string, bool) {
	if !bytes.HasPrefix(frame, frameTooLargePrefix) {
		return "", false
	}
	return string(frame[len(frameTooLargePrefix):]), true
}
