// bench_node_test.go: a stop report on Node (real Node, dapscope's Node
// adapter; testdata/node/stops.js at its bench marker: ten locals, two of
// them 10,000-record arrays) through MCP, beside the plain reads of the same
// locals (stackTrace, scopes, variables of the Local scope) in one run.
//
//	go test -run '^$' -bench NodeStopReport -benchtime 200x ./server/mcp

package mcp

import (
	"context"
	"testing"
	"time"
)

func BenchmarkNodeStopReport(b *testing.B) {
	mgr, a := benchAgent(b)
	ctx := context.Background()
	const prog = "testdata/node/stops.js"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": lineWith(b, prog, "// @bench")}}}, &stop)
	if stop.Status != "paused" || len(stop.Locals) != 10 || stop.Locals[0].Value != "Array 10,000 × 6 · 10,000 nulls in price, note" {
		b.Fatalf("stop = %+v", stop)
	}
	sess, err := mgr.Get("")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("plain", func(b *testing.B) {
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
			vars, err := sess.Variables(ctx, sc[0].VariablesReference)
			if err != nil || len(vars) != 10 {
				b.Fatalf("%d variables, %v", len(vars), err)
			}
		}
	})
	b.Run("mcp", func(b *testing.B) {
		for b.Loop() {
			var r StopReport
			if a.call("debug_wait", nil, &r); len(r.Locals) != 10 {
				b.Fatalf("%d locals", len(r.Locals))
			}
		}
	})
	_ = sess.Terminate(ctx)
}
