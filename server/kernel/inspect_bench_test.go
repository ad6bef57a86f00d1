//go:build linux

// inspect_bench_test.go: inspecting a 50,880 × 10 frame of mixed dtypes
// (ints, floats with NaN, float32, strings with None, a categorical, a
// datetime, booleans) through a kernel session (#36.6), beside pandas' own
// df.describe(include="all") run in the same kernel as a silent execute,
// and a silent "pass" (the round trip both pay), in one run.
//
//	go test -run '^$' -bench KernelInspect50K -benchtime 20x -count 3 ./server/kernel/

package kernel

import (
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// mixed50K builds the frame (and silences pandas 1.5's describe warning
// about datetimes).
const mixed50K = "import warnings; warnings.simplefilter('ignore', FutureWarning)\n" +
	"import numpy as np, pandas as pd\n" +
	"rng = np.random.default_rng(0)\n" +
	"n = 50880\n" +
	"df = pd.DataFrame({\n" +
	"    'id': np.arange(n),\n" +
	"    'price': np.where(rng.random(n) < 0.05, np.nan, rng.normal(100, 20, n)),\n" +
	"    'qty': rng.integers(0, 50, n),\n" +
	"    'city': rng.choice(['Paris', 'Lyon', 'Nice', None, 'Lille'], n),\n" +
	"    'sku': ['SKU-%06d' % i for i in rng.integers(0, 40000, n)],\n" +
	"    'cat': pd.Categorical(rng.choice(['a', 'b', 'c'], n)),\n" +
	"    'when': pd.Timestamp('2024-01-01') + pd.to_timedelta(rng.integers(0, 10**6, n), unit='s'),\n" +
	"    'flag': rng.random(n) < 0.3,\n" +
	"    'score': rng.random(n).astype('float32'),\n" +
	"    'note': rng.choice(['ok', 'late', '', None], n),\n" +
	"})\n" +
	"del n, rng\n"

func BenchmarkKernelInspect50K(b *testing.B) {
	k := startKernel(b)
	user := k.dial(b, Options{})
	if _, err := user.Execute(testCtx(b, time.Minute), mixed50K, ExecOptions{Visible: true}); err != nil {
		b.Fatal(err)
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: k.dir, Logger: testLogger()})
	defer mgr.Close()
	at, err := AttachSession(testCtx(b, time.Minute), mgr, AttachSpec{ConnectionFile: k.file})
	if err != nil {
		b.Fatal(err)
	}
	s, c := at.Session, at.Adapter.Client()
	if _, err := s.Wait(testCtx(b, time.Minute), 10*time.Second); err != nil {
		b.Fatal(err)
	}
	b.Run("SilentExecute", func(b *testing.B) {
		ctx := testCtx(b, 10*time.Minute)
		for b.Loop() {
			if _, err := c.Execute(ctx, "pass", ExecOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Describe", func(b *testing.B) {
		ctx := testCtx(b, 10*time.Minute)
		for b.Loop() {
			if _, err := c.Execute(ctx, "df.describe(include='all')", ExecOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Inspect", func(b *testing.B) {
		ctx := testCtx(b, 10*time.Minute)
		for b.Loop() {
			r, err := inspect.Inspect(ctx, s, 0, "df", inspect.Options{})
			if err != nil || r.Statistics == nil || len(r.Statistics.Columns) != 10 {
				b.Fatal(r, err)
			}
		}
	})
}
