//go:build linux

// adapter_bench_test.go: a kernel session's costs beside the plain
// round trips they build on, in one run, over ZeroMQ and over a Jupyter
// Server's websocket: inspecting a 1,000 × 10 DataFrame through the session
// (the smart inspector: mux, virtual adapter, one probe evaluation) against
// one trivial silent execute_request (and evaluation), listing 50
// variables with their one-line summaries, and Jupyter's own
// inspect_request for the same DataFrame (repr text only).
//
//	go test -run '^$' -bench KernelSession -benchtime 100x -count 3 ./server/kernel/

package kernel

import (
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// benchVars defines 50 variables of mixed kinds besides df.
const benchVars = "import numpy as np, pandas as pd\n" +
	"rng = np.random.default_rng(0)\n" +
	"df = pd.DataFrame(rng.normal(size=(1000, 10)), columns=[f'c{i}' for i in range(10)])\n" +
	"for i in range(10):\n" +
	"    globals()[f'frame{i}'] = pd.DataFrame({'a': rng.normal(size=200), 'b': ['x', None] * 100})\n" +
	"    globals()[f'arr{i}'] = rng.normal(size=(100, 5))\n" +
	"    globals()[f'count{i}'] = i\n" +
	"    globals()[f'name{i}'] = 'item %d' % i\n" +
	"for i in range(9):\n" +
	"    globals()[f'items{i}'] = list(range(i * 10))\n" +
	"del i, rng\n"

func BenchmarkKernelSession(b *testing.B) {
	k := startKernel(b)
	user := k.dial(b, Options{})
	js := startServer(b)
	id := js.startNotebook(b, "bench.ipynb")
	srv, err := NewServer(js.url, ServerOptions{Token: js.token})
	if err != nil {
		b.Fatal(err)
	}
	wuser, err := srv.Dial(testCtx(b, time.Minute), id, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer wuser.Close()
	for _, c := range []*Client{user, wuser} {
		if _, err := c.Execute(testCtx(b, time.Minute), benchVars, ExecOptions{Visible: true}); err != nil {
			b.Fatal(err)
		}
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: k.dir, Logger: testLogger()})
	defer mgr.Close()
	zat, err := AttachSession(testCtx(b, time.Minute), mgr, AttachSpec{ConnectionFile: k.file})
	if err != nil {
		b.Fatal(err)
	}
	wat, err := AttachSession(testCtx(b, time.Minute), mgr, AttachSpec{ServerURL: js.url, KernelID: id, Token: js.token})
	if err != nil {
		b.Fatal(err)
	}
	for _, tr := range []struct {
		name string
		at   *Attached
	}{{"zmq", zat}, {"websocket", wat}} {
		s, c := tr.at.Session, tr.at.Adapter.Client()
		if _, err := s.Wait(testCtx(b, time.Minute), 10*time.Second); err != nil {
			b.Fatal(err)
		}
		b.Run(tr.name+"/SilentExecute", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if _, err := c.Execute(ctx, "pass", ExecOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(tr.name+"/SilentEvaluate", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if v, err := c.Evaluate(ctx, "'x'", CallOptions{}); err != nil || v != "x" {
					b.Fatal(v, err)
				}
			}
		})
		b.Run(tr.name+"/InspectDataFrame1Kx10", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if r, err := inspect.Inspect(ctx, s, 0, "df", inspect.Options{}); err != nil || r.Statistics == nil {
					b.Fatal(r, err)
				}
			}
		})
		b.Run(tr.name+"/InspectRequestDataFrame", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if r, err := c.Inspect(ctx, "df", 2, 0, CallOptions{}); err != nil || !r.Found {
					b.Fatal(r, err)
				}
			}
		})
		b.Run(tr.name+"/List50Variables", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				items, err := inspect.SummariesWith(ctx, s, 0, nil, inspect.SummaryOptions{Timeout: 2 * time.Second})
				if err != nil || len(items) != 50 || !strings.HasPrefix(items[0].Line(), "DataFrame 1,000 × 10") {
					b.Fatal(len(items), err)
				}
			}
		})
	}
}
