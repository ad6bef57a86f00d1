// httpsessions_test.go: MCP sessions over HTTP are bounded and expire
// (issue 28.10: 20,000 initializes without a DELETE grew RSS from 16 to
// 274 MB). Past MaxHTTPSessions the oldest idle sessions are closed, an
// idle one is closed after HTTPSessionIdle, a closed session's requests get
// 404 (initialize again), and the transport's own state for it is gone.

package mcp

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

type rawHTTP struct {
	t  *testing.T
	ep Endpoint
}

// post sends one JSON-RPC message for session id ("" for initialize) and
// returns the HTTP status and the session id the server named.
func (c rawHTTP) post(id, body string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequestWithContext(testCtx(c.t), http.MethodPost, c.ep.URL, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+c.ep.Token)
	if id != "" {
		req.Header.Set(mcpserver.HeaderKeySessionID, id)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get(mcpserver.HeaderKeySessionID)
}

func (c rawHTTP) initialize() string {
	c.t.Helper()
	code, id := c.post("", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if code != http.StatusOK || id == "" {
		c.t.Fatalf("initialize: %d, session %q", code, id)
	}
	c.post(id, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return id
}

func (c rawHTTP) ping(id string) int {
	code, _ := c.post(id, `{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	return code
}

// known says whether the transport still holds state for the session.
func known(srv *Server, id string) bool {
	err := srv.MCP().SendNotificationToSpecificClient(id, "notifications/message", map[string]any{"level": "info", "data": "x"})
	return !errors.Is(err, mcpserver.ErrSessionNotFound)
}

func TestHTTPSessionsBounded(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t, Options{MaxHTTPSessions: 8})
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := rawHTTP{t, ep}
	var ids []string
	for i := 0; i < 300; i++ {
		ids = append(ids, c.initialize())
	}
	if n := srv.httpSessions[0].open(); n != 8 {
		t.Errorf("%d sessions open after 300 initializes, want the cap, 8", n)
	}
	for i, id := range ids {
		newest := i >= len(ids)-8
		if got := known(srv, id); got != newest {
			t.Errorf("session %d: transport state kept %v, want %v", i, got, newest)
		}
	}
	if code := c.ping(ids[0]); code != http.StatusNotFound {
		t.Errorf("a request on the oldest (closed) session: HTTP %d, want 404", code)
	}
	if code := c.ping(ids[len(ids)-1]); code != http.StatusOK {
		t.Errorf("a request on the newest session: HTTP %d, want 200", code)
	}
	// The least recently used go first, not the first opened: after a
	// request on the oldest open session, the next initialize closes the
	// second oldest.
	oldest, second := ids[len(ids)-8], ids[len(ids)-7]
	if code := c.ping(oldest); code != http.StatusOK {
		t.Fatalf("ping the oldest open session: HTTP %d", code)
	}
	c.initialize()
	if !known(srv, oldest) || known(srv, second) {
		t.Errorf("the cap closed a recently used session (%v) before an idle one (%v)", !known(srv, oldest), known(srv, second))
	}
}

func TestHTTPSessionsExpire(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t, Options{HTTPSessionIdle: 50 * time.Millisecond})
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := rawHTTP{t, ep}
	id := c.initialize()
	deadline := time.Now().Add(30 * time.Second)
	for known(srv, id) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if known(srv, id) || srv.httpSessions[0].open() != 0 {
		t.Fatalf("an idle session was never closed")
	}
	if code := c.ping(id); code != http.StatusNotFound {
		t.Errorf("a request on an expired session: HTTP %d, want 404", code)
	}
	// A client that initializes again gets a new session (initialize
	// fails the test otherwise; a ping after it could itself come past the
	// 50 ms idle limit on a loaded machine).
	if id2 := c.initialize(); id2 == id {
		t.Errorf("initialize after the expiry reused the expired session %s", id)
	}
}
