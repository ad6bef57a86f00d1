// frame_test.go: table tests and a fuzz target for the framing reader and
// writer.

package dap

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
)

func TestReadFrame(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		want    []string
		wantErr string // substring; "" means clean EOF after want
	}{
		{name: "one", in: "Content-Length: 2\r\n\r\n{}", want: []string{"{}"}},
		{name: "two", in: "Content-Length: 2\r\n\r\n{}Content-Length: 3\r\n\r\n[1]", want: []string{"{}", "[1]"}},
		{name: "extra header", in: "Content-Type: x\r\nContent-Length: 2\r\n\r\n{}", want: []string{"{}"}},
		{name: "lf only", in: "Content-Length: 2\n\n{}", want: []string{"{}"}},
		{name: "case", in: "content-length:2\r\n\r\n{}", want: []string{"{}"}},
		{name: "empty body", in: "Content-Length: 0\r\n\r\n", want: []string{""}},
		{name: "missing length", in: "Content-Type: x\r\n\r\n{}", wantErr: "missing Content-Length"},
		{name: "bad length", in: "Content-Length: abc\r\n\r\n{}", wantErr: "bad Content-Length"},
		{name: "negative length", in: "Content-Length: -1\r\n\r\n", wantErr: "bad Content-Length"},
		{name: "no colon", in: "garbage\r\n\r\n", wantErr: "header line without name"},
		{name: "too large", in: "Content-Length: 16777217\r\n\r\n", wantErr: "exceeds 16 MiB"},
		{name: "truncated body", in: "Content-Length: 10\r\n\r\n{}", wantErr: "unexpected EOF"},
		{name: "truncated header", in: "Content-Length: 10\r\n", wantErr: "unexpected EOF"},
		{name: "long header", in: strings.Repeat("x", 5000) + "\r\n\r\n", wantErr: "too long"},
		// The quoted excerpt of a bad line is cut before a character, never inside it.
		{name: "no colon, cut before a character", in: strings.Repeat("x", 63) + "名前\r\n\r\n", wantErr: `without name: "` + strings.Repeat("x", 63) + `"`},
		{name: "bad length, cut before a character", in: "Content-Length: " + strings.Repeat("9", 30) + "名\r\n\r\n", wantErr: `Length " ` + strings.Repeat("9", 30) + `"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewReader(strings.NewReader(tt.in))
			for _, w := range tt.want {
				got, err := r.ReadFrame()
				if err != nil {
					t.Fatalf("ReadFrame: %v", err)
				}
				if string(got) != w {
					t.Fatalf("got %q, want %q", got, w)
				}
			}
			_, err := r.ReadFrame()
			if tt.wantErr == "" {
				if err != io.EOF {
					t.Fatalf("want clean EOF, got %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Fatalf("err = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestWriterRoundTripAndLimit(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf)
	if err := w.WriteFrame([]byte(`{"seq":1}`)); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "Content-Length: 9\r\n\r\n{\"seq\":1}" {
		t.Fatalf("wrote %q", got)
	}
	if err := w.WriteFrame(make([]byte, MaxFrame+1)); !errors.Is(err, ErrFrameTooLarge) {
		t.Fatalf("oversized write err = %v", err)
	}
}

// TestWriterNoInterleave writes from many goroutines and checks that every
// frame reads back whole.
func TestWriterNoInterleave(t *testing.T) {
	pr, pw := io.Pipe()
	w := NewWriter(pw)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for i := 0; i < writers; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			body := bytes.Repeat([]byte{byte('a' + i)}, 1000+i*37)
			for j := 0; j < each; j++ {
				if err := w.WriteFrame(body); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); pw.Close() }()
	r := NewReader(pr)
	n := 0
	for {
		b, err := r.ReadFrame()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(b) == 0 || !bytes.Equal(b, bytes.Repeat(b[:1], len(b))) {
			t.Fatalf("interleaved frame of %d bytes", len(b))
		}
		n++
	}
	if n != writers*each {
		t.Fatalf("read %d frames, want %d", n, writers*each)
	}
}

func TestPeek(t *testing.T) {
	tests := []struct {
		in      string
		want    Envelope
		wantErr bool
	}{
		{in: `{"seq":3,"type":"request","command":"evaluate","arguments":{"x":1}}`, want: Envelope{Seq: 3, Type: "request", Command: "evaluate"}},
		{in: `{"seq":4,"type":"event","event":"debugpySockets","body":{}}`, want: Envelope{Seq: 4, Type: "event", Event: "debugpySockets"}},
		{in: `{"seq":5,"type":"response","request_seq":3,"command":"evaluate","success":true}`, want: Envelope{Seq: 5, Type: "response", Command: "evaluate", RequestSeq: 3}},
		{in: `not json`, wantErr: true},
		{in: `{"type":"request"}`, wantErr: true},
		{in: `{"type":"event"}`, wantErr: true},
		{in: `{"type":"mystery"}`, wantErr: true},
		{in: `[]`, wantErr: true},
	}
	for _, tt := range tests {
		got, err := Peek([]byte(tt.in))
		if (err != nil) != tt.wantErr {
			t.Fatalf("Peek(%s) err = %v", tt.in, err)
		}
		if err == nil {
			got.Success = nil
			if got != tt.want {
				t.Fatalf("Peek(%s) = %+v, want %+v", tt.in, got, tt.want)
			}
		}
	}
}

// FuzzReadFrame: the reader never panics, never returns a frame over the
// limit, and a frame it returns re-encodes to bytes it reads back the same.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte("Content-Length: 2\r\n\r\n{}"))
	f.Add([]byte("Content-Length: 5\r\nContent-Type: a\r\n\r\nhello"))
	f.Add([]byte("Content-Length: 99999999999999999999\r\n\r\n"))
	f.Add([]byte("\r\n\r\nContent-Length:1\n\nx"))
	f.Add([]byte("Content-Length: 3\r\n\r\n{\"seq\":1,\"type\":\"event\",\"event\":\"x\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(bytes.NewReader(data))
		r.SetLimit(1 << 16)
		for i := 0; i < 64; i++ {
			body, err := r.ReadFrame()
			if err != nil {
				return
			}
			if len(body) > 1<<16 {
				t.Fatalf("frame of %d bytes over the limit", len(body))
			}
			_, _ = Peek(body)
			var buf bytes.Buffer
			if err := NewWriter(&buf).WriteFrame(body); err != nil {
				t.Fatal(err)
			}
			again, err := NewReader(&buf).ReadFrame()
			if err != nil || !bytes.Equal(again, body) {
				t.Fatalf("round trip: %v", err)
			}
		}
	})
}
