// kernel_bench_test.go: what an attached MCP session costs the user's own
// cells (#36.2): the same trivial cell run by the user's client with no
// session, then with an MCP kernel session attached (which reads nothing
// between cells: lazy.go), in one run; and debug_variables on 50 names.
//
//	go test -run '^$' -bench KernelCell -benchtime 30x -count 3 ./server/mcp/

package mcp

import (
	"context"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
)

const bench50 = "import numpy as np, pandas as pd\n" +
	"for i in range(10):\n" +
	"    globals()[f'frame{i}'] = pd.DataFrame({'a': np.arange(200.0), 'b': ['x', None] * 100})\n" +
	"    globals()[f'arr{i}'] = np.ones((100, 5))\n" +
	"    globals()[f'count{i}'] = i\n" +
	"    globals()[f'name{i}'] = 'item %d' % i\n" +
	"    globals()[f'items{i}'] = list(range(i * 10))\n" +
	"del i\n"

func BenchmarkKernelCell(b *testing.B) {
	k := kerneltest.Start(b, "benchcell")
	k.Run(b, bench50)
	user := k.User(b)
	cell := func(b *testing.B) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		// A few cells first: the steady per-cell cost is measured, not
		// what attaching itself left running (the probe's install).
		for range 5 {
			if _, err := user.Execute(ctx, "x = 1", kernel.ExecOptions{Visible: true, CallOptions: kernel.CallOptions{Wait: time.Minute}}); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			if _, err := user.Execute(ctx, "x = 1", kernel.ExecOptions{Visible: true, CallOptions: kernel.CallOptions{Wait: time.Minute}}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("detached", cell)
	a, _ := newHTTPAgent(b, Options{Kernels: kernel.ListOptions{RuntimeDir: k.Dir, NoProcesses: true}})
	var at KernelAttachResult
	a.call("kernel_attach", map[string]any{"kernel": "benchcell"}, &at)
	b.Run("attached", cell)
	b.Run("attached/debug_variables50", func(b *testing.B) {
		for b.Loop() {
			var vars VariablesResult
			a.call("debug_variables", map[string]any{"max_items": 50}, &vars)
			if len(vars.Variables) < 50 {
				b.Fatalf("%d variables", len(vars.Variables))
			}
		}
	})
}
