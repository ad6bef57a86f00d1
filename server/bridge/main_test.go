// main_test.go: goleak over the bridge's tests (and the native test
// programs' cleanup), and a logger writing to the test log.

package bridge_test

import (
	"log/slog"
	"os"
	"testing"

	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/internal/nativetest"
)

// TestMain checks for leaks, then removes the native programs built for
// this run (nativetest).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) { nativetest.Cleanup(); os.Exit(code) }))
}

type testWriter struct{ t testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(p))
	return len(p), nil
}

func testLogger(t testing.TB) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}
