// stream_fuzz_test.go: whatever bytes arrive on the editor channel, the
// stream either hands out a JSON-RPC message, answers the frame with a
// JSON-RPC error and reads on, or ends with a framing error — it never
// panics, never answers with something that is not JSON, and never
// allocates past its message limit.

package editor

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"testing"
)

// fuzzConn reads from in and records what the stream writes.
type fuzzConn struct {
	io.Reader
	out bytes.Buffer
}

func (c *fuzzConn) Write(b []byte) (int, error) { return c.out.Write(b) }
func (c *fuzzConn) Close() error                { return nil }

func FuzzEditorStream(f *testing.F) {
	frame := func(body string) []byte {
		return []byte("Content-Length: " + strconv.Itoa(len(body)) + "\r\n\r\n" + body)
	}
	for _, s := range [][]byte{
		frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`),
		frame(`not json`), frame(`[{"jsonrpc":"2.0","id":1,"method":"x"}]`), frame(`{"jsonrpc":"2.0"}`),
		frame(`{"jsonrpc":"2.0","method":"dapscope/bridgeEvent","params":{"x":1}}`),
		[]byte("Content-Length: 99999999999\r\n\r\n"), []byte("Content-Length: -1\r\n\r\n{}"), []byte("garbage\r\n\r\n"),
		append(frame(`{"a":`), frame(`{"jsonrpc":"2.0","id":2,"result":null}`)...),
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := &fuzzConn{Reader: bytes.NewReader(data)}
		st := newStream(c, slog.New(slog.DiscardHandler))
		for i := 0; i < 100; i++ {
			if _, _, err := st.Read(context.Background()); err != nil {
				break
			}
		}
		// Every reply the stream wrote is a framed JSON-RPC error object.
		out := c.out.String()
		for out != "" {
			head, rest, ok := strings.Cut(out, "\r\n\r\n")
			if !ok || !strings.HasPrefix(head, "Content-Length: ") {
				t.Fatalf("bad reply framing %q", out)
			}
			n, err := strconv.Atoi(strings.TrimPrefix(head, "Content-Length: "))
			if err != nil || n > len(rest) {
				t.Fatalf("bad reply length %q", head)
			}
			var msg struct {
				Error *struct {
					Code int `json:"code"`
				} `json:"error"`
			}
			if err := json.Unmarshal([]byte(rest[:n]), &msg); err != nil || msg.Error == nil {
				t.Fatalf("reply is not a JSON-RPC error: %q", rest[:n])
			}
			out = rest[n:]
		}
	})
}
