// main_test.go: shared setup for the MCP tests — the goroutine-leak check,
// a session manager on the repository as workspace, MCP clients over HTTP
// (in-process server) and over stdio (the dapscope binary as a subprocess),
// and helpers to call tools and decode their structured results.

package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/nativetest"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

func TestMain(m *testing.M) {
	code := m.Run()
	nativetest.Cleanup() // the native programs built for this run
	if binPath != "" && buildErr == nil {
		_ = os.RemoveAll(filepath.Dir(binPath)) // the dapscope binary built for the stdio tests
	}
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintln(os.Stderr, "goleak:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func testLogger() *slog.Logger {
	if os.Getenv("DAPSCOPE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// newServer returns a manager and an MCP server on the repository.
func newServer(t testing.TB, opts Options) (*session.Manager, *Server) {
	t.Helper()
	mgr := session.NewManager(session.ManagerOptions{Workspace: repoRoot(t), Logger: testLogger()})
	opts.Logger = testLogger()
	srv := New(mgr, opts)
	t.Cleanup(func() {
		srv.Close()
		_ = mgr.Close()
	})
	return mgr, srv
}

// agent is one MCP client with its progress notifications.
type agent struct {
	t        testing.TB
	c        *client.Client
	mu       sync.Mutex
	progress []string
}

func initAgent(t testing.TB, c *client.Client) *agent {
	t.Helper()
	a := &agent{t: t, c: c}
	c.OnNotification(func(n mcpgo.JSONRPCNotification) {
		if n.Method == "notifications/progress" {
			a.mu.Lock()
			a.progress = append(a.progress, n.Params.AdditionalFields["message"].(string))
			a.mu.Unlock()
		}
	})
	ctx := testCtx(t)
	if err := c.Start(ctx); err != nil {
		t.Fatalf("client start: %v", err)
	}
	req := mcpgo.InitializeRequest{}
	req.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	req.Params.ClientInfo = mcpgo.Implementation{Name: "dapscope-test", Version: "1"}
	if _, err := c.Initialize(ctx, req); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return a
}

// httpAgent connects an MCP client over streamable HTTP.
// newHTTPAgent starts a server with opts on a loopback HTTP endpoint and
// connects an agent to it.
func newHTTPAgent(t testing.TB, opts Options) (*agent, *Server) {
	t.Helper()
	_, srv := newServer(t, opts)
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return httpAgent(t, ep), srv
}

func httpAgent(t testing.TB, ep Endpoint) *agent {
	t.Helper()
	c, err := client.NewStreamableHttpClient(ep.URL, transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + ep.Token}))
	if err != nil {
		t.Fatal(err)
	}
	return initAgent(t, c)
}

var (
	buildOnce sync.Once
	binPath   string
	buildErr  error
)

// dapscopeBinary builds the dapscope command once per test run.
func dapscopeBinary(t testing.TB) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dapscope-mcp-test")
		if err != nil {
			buildErr = err
			return
		}
		binPath = filepath.Join(dir, "dapscope")
		cmd := exec.Command("go", "build", "-o", binPath, ".")
		cmd.Dir = repoRoot(t)
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = err
			binPath = string(out)
		}
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, binPath)
	}
	return binPath
}

// stdioAgent starts `dapscope mcp` as a subprocess and connects to it.
func stdioAgent(t testing.TB, extra ...string) *agent {
	t.Helper()
	args := append([]string{"mcp", "--workspace", repoRoot(t)}, extra...)
	c, err := client.NewStdioMCPClient(dapscopeBinary(t), nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return initAgent(t, c)
}

// call invokes a tool and returns the raw result.
func (a *agent) callCtx(ctx context.Context, name string, args any, progress bool) (*mcpgo.CallToolResult, error) {
	req := mcpgo.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	if progress {
		req.Params.Meta = &mcpgo.Meta{ProgressToken: "p-" + name}
	}
	return a.c.CallTool(ctx, req)
}

// raw calls a tool and fails the test on a protocol error.
func (a *agent) raw(name string, args any) *mcpgo.CallToolResult {
	a.t.Helper()
	r, err := a.callCtx(testCtx(a.t), name, args, false)
	if err != nil {
		a.t.Fatalf("%s: protocol error %v", name, err)
	}
	return r
}

// call calls a tool that must succeed and decodes its structured content.
func (a *agent) call(name string, args any, out any) *mcpgo.CallToolResult {
	a.t.Helper()
	r := a.raw(name, args)
	if r.IsError {
		a.t.Fatalf("%s(%v) failed: %s", name, args, textOf(r))
	}
	if out != nil {
		decodeStructured(a.t, r, out)
	}
	return r
}

// fail calls a tool that must fail and returns its structured error.
func (a *agent) fail(name string, args any) errcode.Error {
	a.t.Helper()
	r := a.raw(name, args)
	if !r.IsError {
		a.t.Fatalf("%s(%v) succeeded, want an error: %s", name, args, textOf(r))
	}
	var e struct {
		Error errcode.Error `json:"error"`
	}
	decodeStructured(a.t, r, &e)
	if e.Error.Code == "" || e.Error.Message == "" {
		a.t.Fatalf("%s: error without code/message: %s", name, textOf(r))
	}
	if !strings.Contains(textOf(r), string(e.Error.Code)) {
		a.t.Fatalf("%s: text %q does not name the code %s", name, textOf(r), e.Error.Code)
	}
	return e.Error
}

// decodeStructured decodes a result's structured content into out, which
// it zeroes first: a variable reused for several calls holds only the last
// result (json.Unmarshal keeps the fields a result omits, so a missing
// field would read as the previous call's).
func decodeStructured(t testing.TB, r *mcpgo.CallToolResult, out any) {
	t.Helper()
	b, err := json.Marshal(r.StructuredContent)
	if err != nil || r.StructuredContent == nil {
		t.Fatalf("no structured content (%v): %s", err, textOf(r))
	}
	if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
		v.Elem().SetZero()
	}
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatalf("decoding structured content: %v\n%s", err, b)
	}
}

func textOf(r *mcpgo.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(mcpgo.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// responseBytes is the size of the tool result as sent on the wire.
func responseBytes(t testing.TB, r *mcpgo.CallToolResult) int {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}

func (a *agent) progressMessages() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]string(nil), a.progress...)
}

func structuredBytes(t testing.TB, r *mcpgo.CallToolResult) int {
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
