// main_test.go: shared setup for session tests against real debugpy and
// Delve, and the goroutine-leak check.

package session

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/nativetest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	// go-winio's one I/O completion goroutine (Windows: the editor's
	// named pipe) lives as long as the process.
	// The native programs (nativetest) are built once per run and removed.
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/Microsoft/go-winio.ioCompletionProcessor"),
		goleak.Cleanup(func(code int) { nativetest.Cleanup(); os.Exit(code) }))
}

// repoRoot is the module root (the tests' workspace).
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

func testLogger(t testing.TB) *slog.Logger {
	if os.Getenv("DAPSCOPE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func newTestManager(t testing.TB, opts ManagerOptions) *Manager {
	t.Helper()
	if opts.Workspace == "" {
		opts.Workspace = repoRoot(t)
	}
	opts.Logger = testLogger(t)
	m := NewManager(opts)
	t.Cleanup(func() { _ = m.Close() })
	return m
}

func testCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// waitStop waits for a stop and fails the test on timeout or exit.
func waitStop(t testing.TB, s *Session) Stop {
	t.Helper()
	st, err := s.Wait(testCtx(t), 60*time.Second)
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	if st.Running || st.Exited || st.Location == nil {
		t.Fatalf("Wait: expected a stop, got %+v (outcome %+v)", st, st.Outcome)
	}
	return st
}
