// Benchmarks of hover through the editor channel against the plain
// alternative, in the same debugpy session: VS Code's own debug hover is one
// DAP evaluate (context "hover") returning a repr string; dapscope's hover is
// a JSON-RPC textDocument/hover that finds the frame, inspects the value and
// renders markdown. Also the null answer when nothing is paused, and a
// dapscope/page of the data viewer beside one trivial evaluate. The
// extension's side is the fake editor (editortest).
//
//	go test -run '^$' -bench . -count 5 ./editor/ | benchstat -

package editor_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

type benchEnv struct {
	mgr   *session.Manager
	s     *session.Session
	ed    *editortest.Editor
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
	e.ed = editortest.Connect(b, editor.New(editor.Options{Manager: e.mgr, Logger: quiet}), editortest.Options{})
	e.ed.Initialize()
	e.ed.DidOpen(fixture, "python", string(src))
	return e
}

func (e *benchEnv) close(b *testing.B) {
	if err := e.ed.Shutdown(); err != nil {
		b.Error(err)
	}
}

func (e *benchEnv) hover(b *testing.B) *protocol.Hover { return e.ed.Hover(e.file, e.line, e.col) }

// BenchmarkHover/dapscope: the smart hover of a paused DataFrame.
// BenchmarkHover/dap-evaluate: the plain debug hover (one evaluate, a repr).
func BenchmarkHover(b *testing.B) {
	e := setupBench(b, true)
	defer e.close(b)
	ctx := context.Background()
	if h := e.hover(b); h == nil || !strings.Contains(h.Contents.Value, "DataFrame") {
		b.Fatalf("hover = %+v", h)
	}
	b.Run("dapscope", func(b *testing.B) {
		for b.Loop() {
			if h := e.hover(b); h == nil || len(h.Contents.Value) < 50 {
				b.Fatalf("hover = %+v", h)
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
		if h := e.hover(b); h != nil {
			b.Fatalf("hover = %+v", h)
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
	params := editor.PageParams{Expression: "df", FrameID: e.frame, Selection: inspect.Selection{
		Sort: []inspect.SortKey{{Column: "price", Descending: true}}, Filter: "price > 1", Rows: &inspect.RowWindow{Offset: 0, Limit: 200}}}
	page := func(b *testing.B) {
		if res := e.ed.Page(params); res.Page == nil || len(res.Page.Rows) != 3 {
			b.Fatalf("page = %+v", res)
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
