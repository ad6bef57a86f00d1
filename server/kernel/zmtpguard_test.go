// zmtpguard_test.go: the ZMTP guard: oversized frames never reach zmq4
// (fuzzed), and a hostile peer that greets and then announces a 2^62-byte
// frame fails the dial with a typed error instead of panicking in zmq4.

package kernel

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"
)

func zmtpGreetingBytes() []byte {
	g := make([]byte, zmtpGreeting)
	g[0], g[9], g[10] = 0xff, 0x7f, 3
	copy(g[12:], "NULL")
	return g
}

func zframe(flags byte, body []byte) []byte {
	if len(body) > 255 {
		b := []byte{flags | zFlagLong}
		b = binary.BigEndian.AppendUint64(b, uint64(len(body)))
		return append(b, body...)
	}
	return append([]byte{flags, byte(len(body))}, body...)
}

// checkFrames parses a guarded stream and says whether every frame is at
// most max bytes long and complete.
func checkFrames(t *testing.T, out []byte, max uint64) {
	t.Helper()
	if len(out) < zmtpGreeting {
		return
	}
	out = out[zmtpGreeting:]
	for len(out) > 0 {
		flags := out[0]
		var size uint64
		switch {
		case flags&zFlagLong != 0 && len(out) >= 9:
			size, out = binary.BigEndian.Uint64(out[1:9]), out[9:]
		case flags&zFlagLong == 0 && len(out) >= 2:
			size, out = uint64(out[1]), out[2:]
		default:
			return // a header cut short by the end of the input
		}
		if size > max && size > uint64(len(frameTooLargePrefix)+20) {
			t.Fatalf("a frame of %d bytes passed the guard (cap %d)", size, max)
		}
		if size > uint64(len(out)) {
			return
		}
		out = out[size:]
	}
}

func TestZMTPGuardReplacesOversizedFrames(t *testing.T) {
	big := bytes.Repeat([]byte("x"), 1000)
	in := append(zmtpGreetingBytes(), zframe(zFlagCommand, []byte("\x05READY"))...)
	in = append(in, zframe(zFlagMore, []byte("<IDS|MSG>"))...)
	in = append(in, zframe(zFlagMore, big)...)
	in = append(in, zframe(0, []byte("end"))...)
	p := newZMTPParser(500)
	var out []byte
	var err error
	for i := 0; i < len(in); i += 7 { // in pieces, as reads come
		if out, err = p.feed(in[i:min(i+7, len(in))], out); err != nil {
			t.Fatal(err)
		}
	}
	want := append(zmtpGreetingBytes(), zframe(zFlagCommand, []byte("\x05READY"))...)
	want = append(want, zframe(zFlagMore, []byte("<IDS|MSG>"))...)
	want = append(want, zframe(zFlagMore, append(append([]byte(nil), frameTooLargePrefix...), "1000"...))...)
	want = append(want, zframe(0, []byte("end"))...)
	if !bytes.Equal(out, want) {
		t.Errorf("guarded stream\n%q\nwant\n%q", out, want)
	}
	if size, ok := frameTooLarge(zframe(0, nil)); ok {
		t.Errorf("an empty frame read as the marker (%s)", size)
	}

	// A command over the cap fails the connection.
	p = newZMTPParser(500)
	huge := append(zmtpGreetingBytes(), zFlagCommand|zFlagLong)
	huge = binary.BigEndian.AppendUint64(huge, 1<<62)
	if _, err := p.feed(huge, nil); !errors.Is(err, ErrFrameTooLarge) {
		t.Errorf("a 2^62-byte command: err = %v, want ErrFrameTooLarge", err)
	}
}

func FuzzZMTPFrames(f *testing.F) {
	f.Add(append(zmtpGreetingBytes(), zframe(0, []byte("hello"))...), uint16(3))
	f.Add(append(zmtpGreetingBytes(), zFlagLong, 0x40, 0, 0, 0, 0, 0, 0, 0), uint16(1))
	f.Add(append(zmtpGreetingBytes(), zframe(zFlagMore, bytes.Repeat([]byte("y"), 300))...), uint16(64))
	f.Fuzz(func(t *testing.T, in []byte, chunk uint16) {
		step := int(chunk%512) + 1
		p := newZMTPParser(256)
		var out []byte
		for i := 0; i < len(in); i += step {
			var err error
			out, err = p.feed(in[i:min(i+step, len(in))], out)
			if err != nil {
				if !errors.Is(err, ErrFrameTooLarge) {
					t.Fatalf("err = %v", err)
				}
				break
			}
		}
		if len(out) > len(in)+len(frameTooLargePrefix)+22 && len(out) > 2*len(in) {
			t.Fatalf("the guard grew %d bytes into %d", len(in), len(out))
		}
		checkFrames(t, out, 256)
	})
}

// hostilePeer listens on n loopback ports; each connection gets a ZMTP 3
// greeting, then a frame header announcing 2^62 bytes.
func hostilePeer(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	var wg sync.WaitGroup
	t.Cleanup(wg.Wait) // after the listeners' Close (cleanups run last first)
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				c, err := l.Accept()
				if err != nil {
					return
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer c.Close()
					hdr := append(zmtpGreetingBytes(), zFlagLong)
					hdr = binary.BigEndian.AppendUint64(hdr, 1<<62)
					_, _ = c.Write(hdr)
					_, _ = io.Copy(io.Discard, c)
				}()
			}
		}()
		t.Cleanup(func() { _ = l.Close() })
	}
	return ports
}

func TestZMQHostilePeerFailsTheDial(t *testing.T) {
	p := hostilePeer(t, 5)
	cf := map[string]any{"shell_port": p[0], "iopub_port": p[1], "stdin_port": p[2], "control_port": p[3], "hb_port": p[4],
		"ip": "127.0.0.1", "key": "k", "transport": "tcp", "signature_scheme": "hmac-sha256"}
	b, _ := json.Marshal(cf)
	info, err := ParseConnectionInfo(b, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := Dial(ctx, info, Options{})
	if err == nil {
		c.Close()
		t.Fatal("Dial to a hostile peer succeeded")
	}
	if ctx.Err() != nil {
		t.Fatalf("Dial ran to its deadline: %v", err)
	}
	t.Log(strconv.Quote(err.Error()))
}
