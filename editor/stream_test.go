// stream_test.go: the editor channel survives bad input. Each framed
// message that is not a JSON-RPC message gets a JSON-RPC error with a null
// id and the channel keeps serving; a broken header ends it with a reason.

package editor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/server/session"
)

// rawChannel serves the editor channel on a pipe and returns the raw end.
func rawChannel(t *testing.T) (net.Conn, *bufio.Reader, chan error) {
	t.Helper()
	a, b := net.Pipe()
	mgr := session.NewManager(session.ManagerOptions{Workspace: t.TempDir()})
	srv := editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	t.Cleanup(func() { _ = b.Close(); <-done })
	return b, bufio.NewReader(b), done
}

func writeFrame(t *testing.T, c net.Conn, body string) {
	t.Helper()
	_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := fmt.Fprintf(c, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		t.Fatal(err)
	}
}

func readFrame(t *testing.T, c net.Conn, r *bufio.Reader) map[string]any {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	n := 0
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			fmt.Sscan(v, &n)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatalf("reply is not JSON: %q", body)
	}
	return m
}

func TestChannelSurvivesBadMessages(t *testing.T) {
	c, r, _ := rawChannel(t)
	cases := []struct {
		name, body string
		code       float64
		says       string
	}{
		{"not JSON", "this is not json", -32700, "parse error"},
		{"truncated JSON", `{"jsonrpc":"2.0","id":1,"method":`, -32700, "parse error"},
		{"a batch", `[{"jsonrpc":"2.0","id":1,"method":"dapscope/sessions"}]`, -32600, "batches are not supported"},
		{"neither id nor method", `{"jsonrpc":"2.0"}`, -32600, "invalid request"},
	}
	for _, tc := range cases {
		// → one bad frame  ← a JSON-RPC error with id null
		writeFrame(t, c, tc.body)
		m := readFrame(t, c, r)
		e, _ := m["error"].(map[string]any)
		if id, has := m["id"]; !has || id != nil || e == nil || e["code"] != tc.code || !strings.Contains(e["message"].(string), tc.says) {
			t.Fatalf("%s: got %v; want error %v with id null saying %q", tc.name, m, tc.code, tc.says)
		}
	}
	// → a valid request afterwards  ← its result: the channel still serves
	writeFrame(t, c, `{"jsonrpc":"2.0","id":7,"method":"dapscope/sessions"}`)
	m := readFrame(t, c, r)
	if m["id"] != float64(7) || m["error"] != nil {
		t.Fatalf("after bad input the channel must still answer: %v", m)
	}
}

func TestChannelBrokenHeaderEnds(t *testing.T) {
	c, _, done := rawChannel(t)
	_ = c.SetWriteDeadline(time.Now().Add(10 * time.Second))
	if _, err := c.Write([]byte("Content-Length: lots\r\n\r\n{}")); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "invalid Content-Length") {
			t.Fatalf("Serve ended with %v; want the framing error", err)
		}
		done <- err // for the cleanup
	case <-time.After(20 * time.Second):
		t.Fatal("a broken header must end the channel (framing is lost)")
	}
}
