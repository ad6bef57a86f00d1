// Test helpers: a logger writing to the test log.

package editor

import (
	"log/slog"
	"net"
	"testing"
)

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(string(p))
	return len(p), nil
}

func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// newPipe returns the two ends of an in-memory connection.
func newPipe() (net.Conn, net.Conn) { return net.Pipe() }
