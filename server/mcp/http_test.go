// http_test.go: the HTTP transport's security — non-loopback binds
// refused, no token → 401, wrong token → 401, foreign Origin or Host → 403,
// a fresh token per launch that never appears in the logs — and several
// agents at once on one session with no lost or misrouted responses.

package mcp

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/server/session"
)

func TestHTTPSecurity(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	var logMu sync.Mutex
	mgr := session.NewManager(session.ManagerOptions{Workspace: repoRoot(t), Logger: testLogger()})
	srv := New(mgr, Options{Logger: slog.New(slog.NewTextHandler(lockedWriter{&logs, &logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
	ctx := testCtx(t)

	for _, addr := range []string{"0.0.0.0:0", ":0", "192.168.1.10:0", "example.com:0", "[::]:0"} {
		if _, err := srv.ServeHTTP(ctx, addr); err == nil || !strings.Contains(err.Error(), "loopback") {
			t.Errorf("ServeHTTP(%q) = %v; want a loopback refusal", addr, err)
		}
	}
	ep, err := srv.ServeHTTP(ctx, "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	ep2, err := srv.ServeHTTP(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	if len(ep.Token) != 64 || ep.Token == ep2.Token || !strings.HasPrefix(ep.URL, "http://127.0.0.1:") {
		t.Fatalf("endpoints %+v %+v", ep, ep2)
	}

	initBody := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}`
	post := func(headers map[string]string, host string) *http.Response {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, strings.NewReader(initBody))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range headers {
			req.Header.Set(k, v)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	bearer := "Bearer " + ep.Token
	cases := []struct {
		name    string
		headers map[string]string
		host    string
		want    int
	}{
		{"no token", nil, "", http.StatusUnauthorized},
		{"wrong token", map[string]string{"Authorization": "Bearer " + strings.Repeat("0", 64)}, "", http.StatusUnauthorized},
		{"other launch's token", map[string]string{"Authorization": "Bearer " + ep2.Token}, "", http.StatusUnauthorized},
		{"token without Bearer", map[string]string{"Authorization": ep.Token}, "", http.StatusUnauthorized},
		{"foreign Origin", map[string]string{"Authorization": bearer, "Origin": "http://evil.example"}, "", http.StatusForbidden},
		{"foreign Origin on a loopback-looking name", map[string]string{"Authorization": bearer, "Origin": "http://127.0.0.1.evil.example"}, "", http.StatusForbidden},
		{"null Origin", map[string]string{"Authorization": bearer, "Origin": "null"}, "", http.StatusForbidden},
		{"rebinding Host", map[string]string{"Authorization": bearer}, "evil.example:80", http.StatusForbidden},
		{"token with another scheme", map[string]string{"Authorization": "Basic " + ep.Token}, "", http.StatusUnauthorized},
		{"valid", map[string]string{"Authorization": bearer}, "", http.StatusOK},
		{"valid, lower-case scheme", map[string]string{"Authorization": "bearer " + ep.Token}, "", http.StatusOK},
		{"valid with loopback Origin", map[string]string{"Authorization": bearer, "Origin": "http://localhost:3000"}, "", http.StatusOK},
	}
	for _, c := range cases {
		if resp := post(c.headers, c.host); resp.StatusCode != c.want {
			t.Errorf("%s: status %d, want %d", c.name, resp.StatusCode, c.want)
		} else if c.want == http.StatusUnauthorized && resp.Header.Get("WWW-Authenticate") == "" {
			t.Errorf("%s: 401 without WWW-Authenticate", c.name)
		}
	}
	// A real client with the token works; the token never reaches the logs.
	a := httpAgent(t, ep)
	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
	logMu.Lock()
	defer logMu.Unlock()
	if strings.Contains(logs.String(), ep.Token) || strings.Contains(logs.String(), ep2.Token) {
		t.Fatal("the bearer token appears in the logs")
	}
	if !strings.Contains(logs.String(), "mcp http listening") {
		t.Fatalf("expected the listening log line; logs:\n%s", logs.String())
	}
}

type lockedWriter struct {
	b  *bytes.Buffer
	mu *sync.Mutex
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

// TestSeveralAgents: four agents over HTTP at once on one paused session,
// each with its own expressions; every answer reaches the agent that asked.
func TestSeveralAgents(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t, Options{})
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lead := httpAgent(t, ep)
	var stop StopReport
	lead.call("debug_launch", map[string]any{"program": agentPy, "breakpoints": []map[string]any{{"file": agentPy, "line": 33}}}, &stop)
	if stop.Status != "paused" {
		t.Fatalf("launch = %+v", stop)
	}
	agents := []*agent{lead}
	for i := 0; i < 3; i++ {
		agents = append(agents, httpAgent(t, ep))
	}
	var wg sync.WaitGroup
	errs := make(chan string, 200)
	for k, a := range agents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 8; i++ {
				want := fmt.Sprint(k*1000 + i + 50)
				r, err := a.callCtx(testCtx(t), "debug_evaluate", map[string]any{"expression": fmt.Sprintf("%d + len(df)", k*1000+i), "session_id": stop.SessionID}, false)
				if err != nil || r.IsError {
					errs <- fmt.Sprintf("agent %d call %d: %v %s", k, i, err, textOf(r))
					continue
				}
				var ev EvaluateResult
				decodeStructured(t, r, &ev)
				if ev.Result != want {
					errs <- fmt.Sprintf("agent %d call %d: got %s want %s", k, i, ev.Result, want)
				}
				if i%4 == 0 {
					r, err := a.callCtx(testCtx(t), "debug_inspect_variable", map[string]any{"expression": "df", "max_preview_rows": 1}, false)
					if err != nil || r.IsError || !strings.Contains(textOf(r), "50 rows") {
						errs <- fmt.Sprintf("agent %d inspect: %v %s", k, err, textOf(r))
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	lead.call("debug_terminate", nil, nil)
}
