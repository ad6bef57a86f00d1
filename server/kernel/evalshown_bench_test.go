//go:build linux

// evalshown_bench_test.go: what a user's evaluate on a kernel session
// costs with its value cut in the kernel and its output gathered
// (EvaluateShown: waits for the request's IOPub idle), side by side with
// the plain silent evaluation (EvaluateRepr) on the same client.

package kernel

import (
	"testing"
	"time"
)

func BenchmarkEvaluateShown(b *testing.B) {
	k := startKernel(b)
	c := k.dial(b, Options{})
	ctx := testCtx(b, 5*time.Minute)
	if _, err := c.Execute(ctx, "n = 42", ExecOptions{}); err != nil {
		b.Fatal(err)
	}
	b.Run("EvaluateRepr", func(b *testing.B) {
		for range b.N {
			if v, err := c.EvaluateRepr(ctx, "n * 2", CallOptions{}); err != nil || v != "84" {
				b.Fatal(v, err)
			}
		}
	})
	b.Run("EvaluateShown", func(b *testing.B) {
		for range b.N {
			if v, err := c.EvaluateShown(ctx, "n * 2", CallOptions{}); err != nil || v.Text != "84" {
				b.Fatal(v, err)
			}
		}
	})
}
