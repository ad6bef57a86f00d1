// bench_test.go: what the MCP layer costs over calling the session and the
// inspector directly, on one real debugpy session paused in
// testdata/mcp/agent.py (10-column DataFrame): evaluate, smart inspect, and a
// full stop report (debug_wait on a paused session) versus the direct calls
// an embedder would make for the same facts. Run with
// `go test -run '^$' -bench . -count 6 ./server/mcp | benchstat -`.

package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// benchAgent is a server on a loopback HTTP endpoint and an agent on it.
func benchAgent(b testing.TB) (*session.Manager, *agent) {
	mgr, srv := newServer(b, Options{})
	ep, err := srv.ServeHTTP(context.Background(), "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	return mgr, httpAgent(b, ep)
}

func BenchmarkTools(b *testing.B) {
	mgr, a := benchAgent(b)
	ctx := context.Background()
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": agentPy, "breakpoints": []map[string]any{{"file": agentPy, "line": 33}}}, &stop)
	sess, err := mgr.Get("")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("evaluate/direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := sess.Evaluate(ctx, "len(df)", 0, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("evaluate/mcp-http", func(b *testing.B) {
		for b.Loop() {
			a.call("debug_evaluate", map[string]any{"expression": "len(df)"}, nil)
		}
	})
	b.Run("inspect-df/direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := inspect.Inspect(ctx, sess, 0, "df", inspect.Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("inspect-df/mcp-http", func(b *testing.B) {
		for b.Loop() {
			a.call("debug_inspect_variable", map[string]any{"expression": "df"}, nil)
		}
	})
	b.Run("stop-report/direct", func(b *testing.B) {
		for b.Loop() {
			if _, err := sess.Wait(ctx, time.Second); err != nil {
				b.Fatal(err)
			}
			f, err := sess.TopFrame(ctx)
			if err != nil {
				b.Fatal(err)
			}
			sc, err := sess.Scopes(ctx, f.Id)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := sess.Variables(ctx, sc[0].VariablesReference); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("stop-report/mcp-http", func(b *testing.B) {
		for b.Loop() {
			a.call("debug_wait", nil, nil)
		}
	})
	_ = sess.Terminate(ctx)
}

// BenchmarkVariablesDepth2: debug_variables at depth 2 on a frame of three
// DataFrames, a Series, an array and twenty other locals, against the plain
// way to the same tree (a variables request, then one per container, one
// after the other). Reports the response bytes.
func BenchmarkVariablesDepth2(b *testing.B) {
	mgr, a := benchAgent(b)
	ctx := context.Background()
	const prog = "testdata/python/smart_values.py"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": 20}}}, &stop)
	if stop.Status != "paused" {
		b.Fatalf("stop = %+v", stop)
	}
	sess, err := mgr.Get("")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("plain", func(b *testing.B) {
		for b.Loop() {
			f, err := sess.TopFrame(ctx)
			if err != nil {
				b.Fatal(err)
			}
			sc, err := sess.Scopes(ctx, f.Id)
			if err != nil {
				b.Fatal(err)
			}
			vars, err := sess.Variables(ctx, sc[0].VariablesReference)
			if err != nil {
				b.Fatal(err)
			}
			for _, v := range vars {
				if v.VariablesReference > 0 {
					if _, err := sess.Variables(ctx, v.VariablesReference); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		size := 0
		for b.Loop() {
			r := a.call("debug_variables", map[string]any{"depth": 2}, nil)
			size = responseBytes(b, r)
		}
		b.ReportMetric(float64(size), "bytes")
	})
	_ = sess.Terminate(ctx)
}
