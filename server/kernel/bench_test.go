//go:build linux

// bench_test.go: round trips to a real kernel, side by side in one run:
// one trivial silent evaluation (user_expressions of an empty silent
// execute_request) and Jupyter's own inspect_request for a variable (a
// 1,000 × 10 DataFrame), over ZeroMQ and over a Jupyter Server's websocket
// (also without the quick ACKs, the plain TCP baseline).
//
//	go test -run '^$' -bench Kernel -benchtime 200x -count 3 ./server/kernel/

package kernel

import (
	"testing"
	"time"
)

const benchSetup = "import numpy as np, pandas as pd\n" +
	"df = pd.DataFrame(np.random.default_rng(0).normal(size=(1000, 10)), columns=[f'c{i}' for i in range(10)])"

func BenchmarkKernel(b *testing.B) {
	k := startKernel(b)
	zc := k.dial(b, Options{})
	js := startServer(b)
	id := js.startNotebook(b, "bench.ipynb")
	srv, err := NewServer(js.url, ServerOptions{Token: js.token})
	if err != nil {
		b.Fatal(err)
	}
	wc, err := srv.Dial(testCtx(b, time.Minute), id, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer wc.Close()
	plain, _ := NewServer(js.url, ServerOptions{Token: js.token})
	plain.plainTCP = true
	pc, err := plain.Dial(testCtx(b, time.Minute), id, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer pc.Close()
	for _, c := range []*Client{zc, wc} {
		if _, err := c.Execute(testCtx(b, time.Minute), benchSetup, ExecOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	for _, tr := range []struct {
		name string
		c    *Client
	}{{"zmq", zc}, {"websocket", wc}, {"websocket-no-quickack", pc}} {
		b.Run(tr.name+"/SilentEvaluate", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if v, err := tr.c.Evaluate(ctx, "'x'", CallOptions{}); err != nil || v != "x" {
					b.Fatal(v, err)
				}
			}
		})
		b.Run(tr.name+"/InspectRequestDataFrame", func(b *testing.B) {
			ctx := testCtx(b, 10*time.Minute)
			for b.Loop() {
				if r, err := tr.c.Inspect(ctx, "df", 2, 0, CallOptions{}); err != nil || !r.Found {
					b.Fatal(r, err)
				}
			}
		})
	}
}
