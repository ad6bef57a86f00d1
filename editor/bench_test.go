// Benchmarks of hover through the editor channel against the plain
// alternative, in the same debugpy session: VS Code's own debug hover is one
// DAP evaluate (context "hover") returning a repr string; dapscope's hover is
// a JSON-RPC textDocument/hover that finds the frame, inspects the value and
// renders markdown. Also the null answer when nothing is paused, and a
// dapscope/page of the data viewer beside one trivial evaluate.
//
//	go test -run '^$' -bench . -count 5 ./editor/ | benchstat -
package editor

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/server/session"
)

type benchEnv struct {
	mgr   *session.Manager
	s     *session.Session
	conn  jsonrpc2.Conn
	done  chan error
	file  string
	line  int
	col   int
	frame int
}

func setupBench(b *testing.B, paused bool) *benchEnv {
	b.Helper()
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, err := os.ReadFile(fixture)
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	e := &benchEnv{file: fixture}
	for i, l := range lines {
		if strings.HasPrefix(l, "total = ") {
			e.line, e.col = i, strings.Index(l, "df")+1
		}
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	e.mgr = session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: quiet})
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	if paused {
		e.s, err = e.mgr.Launch(ctx, session.LaunchSpec{Program: "hover.py", Breakpoints: []session.Breakpoint{{File: "hover.py", Line: e.line + 1}}})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.s.Wait(ctx, 60*time.Second); err != nil {
			b.Fatal(err)
		}
		f, err := e.s.TopFrame(ctx)
		if err != nil {
			b.Fatal(err)
		}
		e.frame = f.Id
	}
	a, c := newPipe()
	srv := New(Options{Manager: e.mgr, Logger: quiet})
	e.done = make(chan error, 1)
	go func() { e.done <- srv.Serve(context.Background(), a) }()
	e.conn = jsonrpc2.NewConn(jsonrpc2.NewStream(c))
	e.conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	if _, err := e.conn.Call(ctx, "initialize", map[string]any{}, nil); err != nil {
		b.Fatal(err)
	}
	_ = e.conn.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": string(uri.File(fixture)), "languageId": "python", "version": 1, "text": string(src)}})
	return e
}

func (e *benchEnv) close(b *testing.B) {
	_, _ = e.conn.Call(context.Background(), "shutdown", nil, nil)
	_ = e.conn.Notify(context.Background(), "exit", nil)
	<-e.done
	_ = e.conn.Close()
	<-e.conn.Done()
}

func (e *benchEnv) hover(b *testing.B) json.RawMessage {
	var raw json.RawMessage
	_, err := e.conn.Call(context.Background(), "textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": string(uri.File(e.file))},
		"position":     map[string]any{"line": e.line, "character": e.col},
	}, &raw)
	if err != nil {
		b.Fatal(err)
	}
	return raw
}

// BenchmarkHover/dapscope: the smart hover of a paused DataFrame.
// BenchmarkHover/dap-evaluate: the plain debug hover (one evaluate, a repr).
func BenchmarkHover(b *testing.B) {
	e := setupBench(b, true)
	defer e.close(b)
	ctx := context.Background()
	if raw := e.hover(b); !strings.Contains(string(raw), "DataFrame") {
		b.Fatalf("hover = %s", raw)
	}
	b.Run("dapscope", func(b *testing.B) {
		for b.Loop() {
			if raw := e.hover(b); len(raw) < 50 {
				b.Fatalf("hover = %s", raw)
			}
		}
	})
	b.Run("dap-evaluate", func(b *testing.B) {
		for b.Loop() {
			r, err := e.s.Evaluate(ctx, "df", e.frame, "hover")
			if err != nil || r.Result == "" {
				b.Fatal(r, err)
			}
		}
	})
}

// BenchmarkHoverNothingPaused: the null answer with no paused session.
func BenchmarkHoverNothingPaused(b *testing.B) {
	e := setupBench(b, false)
	defer e.close(b)
	for b.Loop() {
		if raw := e.hover(b); len(raw) != 0 && string(raw) != "null" {
			b.Fatalf("hover = %s", raw)
		}
	}
}

// BenchmarkPage/dapscope-page: one dapscope/page of the paused DataFrame,
// sorted and filtered (the order cached in the debuggee after the first
// call: what each later page of the data viewer costs).
// BenchmarkPage/dap-evaluate: one trivial evaluate, for scale.
func BenchmarkPage(b *testing.B) {
	e := setupBench(b, true)
	defer e.close(b)
	ctx := context.Background()
	params := map[string]any{"expression": "df", "frameId": e.frame, "sort": []any{map[string]any{"column": "price", "descending": true}},
		"filter": "price > 1", "rows": map[string]any{"offset": 0, "limit": 200}}
	page := func(b *testing.B) {
		var res struct {
			Page *struct {
				Rows [][]any `json:"rows"`
			} `json:"page"`
		}
		if _, err := e.conn.Call(ctx, "dapscope/page", params, &res); err != nil || res.Page == nil || len(res.Page.Rows) != 3 {
			b.Fatalf("page = %+v, %v", res, err)
		}
	}
	page(b)
	b.Run("dapscope-page", func(b *testing.B) {
		for b.Loop() {
			page(b)
		}
	})
	b.Run("dap-evaluate", func(b *testing.B) {
		for b.Loop() {
			r, err := e.s.Evaluate(ctx, "1", e.frame, "repl")
			if err != nil || r.Result != "1" {
				b.Fatal(r, err)
			}
		}
	})
}
