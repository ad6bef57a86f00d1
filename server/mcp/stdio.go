// stdio.go: the stdio transport (one client on stdin/stdout, nothing but
// protocol on stdout) and the adapters that route mcp-go's own logging into
// the server's slog logger.

package mcp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"log"
	"log/slog"
	"strings"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// ServeStdio serves one client over in/out until in ends or ctx is done.
// Nothing but protocol goes to out.
func (s *Server) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	ss := mcpserver.NewStdioServer(s.mcp)
	ss.SetErrorLogger(log.New(slogWriter{s.log}, "", 0))
	ids := newRPCIDs() // rpcid.go
	w := &idWriter{ids: ids, dst: out}
	err := ss.Listen(ctx, &idReader{ids: ids, src: bufio.NewReader(in), w: w}, w)
	if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// quieter drops mcp-go's per-request info lines unless debug is enabled.
type quieter struct{ h slog.Handler }

func (q quieter) Enabled(ctx context.Context, l slog.Level) bool {
	if l < slog.LevelWarn && !q.h.Enabled(ctx, slog.LevelDebug) {
		return false
	}
	return q.h.Enabled(ctx, l)
}
func (q quieter) Handle(ctx context.Context, r slog.Record) error { return q.h.Handle(ctx, r) }
func (q quieter) WithAttrs(a []slog.Attr) slog.Handler            { return quieter{q.h.WithAttrs(a)} }
func (q quieter) WithGroup(n string) slog.Handler                 { return quieter{q.h.WithGroup(n)} }

type slogWriter struct{ l *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	w.l.Warn("mcp stdio", "msg", strings.TrimSpace(string(p)))
	return len(p), nil
}
