// http_limit_test.go: request bodies over MaxRequestBody get a clear 413,
// declared or chunked, and the server stays usable; resident memory does
// not balloon by the size of the body.

package mcp

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/session"
)

// endlessBody streams n bytes without a declared length (chunked).
type endlessBody struct{ n int }

func (b *endlessBody) Read(p []byte) (int, error) {
	if b.n <= 0 {
		return 0, io.EOF
	}
	k := min(len(p), b.n)
	for i := range p[:k] {
		p[i] = 'a'
	}
	b.n -= k
	return k, nil
}

func TestHTTPBodyLimit(t *testing.T) {
	t.Parallel()
	mgr := session.NewManager(session.ManagerOptions{Workspace: repoRoot(t), Logger: testLogger()})
	srv := New(mgr, Options{Logger: testLogger()})
	t.Cleanup(func() { srv.Close(); _ = mgr.Close() })
	ctx := testCtx(t)
	ep, err := srv.ServeHTTP(ctx, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	post := func(body io.Reader, length int64) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, ep.URL, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		req.Header.Set("Authorization", "Bearer "+ep.Token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
		return resp.StatusCode, string(b)
	}
	const size = 100 << 20 // the 100 MB POST of the report
	// → POST with Content-Length: 104857600  ← 413 before the body is read
	if code, msg := post(&endlessBody{n: size}, size); code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "limit is 4194304 bytes") {
		t.Fatalf("declared 100 MB body: %d %q; want 413 naming the limit", code, msg)
	}
	// → POST chunked, 100 MB  ← 413 after reading at most limit+1 bytes
	if code, msg := post(&endlessBody{n: size}, -1); code != http.StatusRequestEntityTooLarge || !strings.Contains(msg, "too large") {
		t.Fatalf("chunked 100 MB body: %d %q; want 413", code, msg)
	}
	// A normal client still works afterwards.
	a := httpAgent(t, ep)
	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
}
