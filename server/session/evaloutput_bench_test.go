// evaloutput_bench_test.go: what EvaluateOutput costs under real debugpy,
// side by side with the plain Evaluate in one run: a plain path (no wait),
// a call that prints nothing (no wait), and one that prints (the late-output wait).

package session

import (
	"testing"
)

func BenchmarkEvaluateOutput(b *testing.B) {
	m := newTestManager(b, ManagerOptions{})
	ctx := testCtx(b)
	s, err := m.Launch(ctx, LaunchSpec{
		Program:     "testdata/core/loop.py",
		Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 14, Condition: "i == 2"}},
	})
	if err != nil {
		b.Fatal(err)
	}
	waitStop(b, s)
	b.Run("Evaluate/call", func(b *testing.B) {
		for range b.N {
			if _, err := s.Evaluate(ctx, "abs(i)", 0, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EvaluateOutput/path", func(b *testing.B) {
		for range b.N {
			if _, _, err := s.EvaluateOutput(ctx, "i", 0, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EvaluateOutput/call", func(b *testing.B) {
		for range b.N {
			if _, _, err := s.EvaluateOutput(ctx, "abs(i)", 0, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EvaluateOutput/print", func(b *testing.B) {
		missed := 0
		for range b.N {
			_, out, err := s.EvaluateOutput(ctx, "print(i)", 0, "")
			if err != nil {
				b.Fatal(err)
			}
			if out.Text != "2\n" {
				missed++
			}
		}
		b.ReportMetric(float64(missed)/float64(b.N), "missed/op")
	})
}

func TestPrintingCall(t *testing.T) {
	for expr, want := range map[string]bool{
		"print(x)": true, "df.info()": true, "sdf.show(5)": true, "sys.stdout.write('a')": true, "pprint.pprint(d)": true,
		"log.warning('x')": true, "x": false, "len(df)": false, "abs(i)": false, "df['price'].mean()": false, "a + b": false,
		"printable": false, "blueprint": false,
	} {
		if got := printingCall.MatchString(expr); got != want {
			t.Errorf("printingCall(%q) = %v, want %v", expr, got, want)
		}
	}
}
