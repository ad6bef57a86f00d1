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
)

func BenchmarkTools(b *testing.B) {
	mgr, srv := newServer(b, Options{})
	ctx := context.Background()
	ep, err := srv.ServeHTTP(ctx, "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	a := httpAgent(b, ep)
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
