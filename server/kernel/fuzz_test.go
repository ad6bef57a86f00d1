//go:build linux

// fuzz_test.go: what arrives from a kernel or a server is never trusted:
// the decoders of the ZeroMQ frames, both websocket encodings, connection
// files and str literals return errors on garbage and never panic; v1
// frames survive a round trip.

package kernel

import (
	"bytes"
	"testing"
)

func FuzzDecoders(f *testing.F) {
	s, _ := newSigner("hmac-sha256", []byte("k"))
	m, _ := newRequest("s", "execute_request", map[string]any{"code": "1"})
	v1, _ := encodeV1(ChannelShell, m)
	legacy, _ := encodeLegacy(ChannelShell, m)
	frames, _ := encodeFrames(s, m)
	f.Add(v1)
	f.Add(legacy)
	f.Add(bytes.Join(frames, []byte{0}))
	f.Add([]byte(goodConn))
	f.Add([]byte(`'a\x41\u00e9'`))
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = decodeV1(b)
		_, _ = decodeLegacy(b, true)
		_, _ = decodeLegacy(b, false)
		_, _ = decodeFrames(s, ChannelIOPub, bytes.Split(b, []byte{0}))
		_, _ = ParseConnectionInfo(b, FileOptions{})
		_, _ = decodePyStr(string(b))
	})
}

func TestV1RoundTrip(t *testing.T) {
	m, _ := newRequest("s", "debug_request", map[string]any{"command": "stackTrace"})
	m.Buffers = [][]byte{[]byte("buf1"), {}}
	b, err := encodeV1(ChannelControl, m)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeV1(b)
	if err != nil || got.Channel != ChannelControl || got.Header != m.Header || string(got.Content) != string(m.Content) ||
		len(got.Buffers) != 2 || string(got.Buffers[0]) != "buf1" {
		t.Fatalf("round trip: %+v, %v", got, err)
	}
	for _, bad := range [][]byte{nil, b[:7], b[:20], append([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f}, b[8:]...)} {
		if _, err := decodeV1(bad); err == nil {
			t.Errorf("decodeV1(%x) accepted", bad)
		}
	}
}
