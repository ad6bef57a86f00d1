// race_step_test.go: requests racing a step against real debugpy. Whatever
// the interleaving, a request that needed the stopped thread either
// answers or fails with NOT_PAUSED (never an adapter's "Thread id … is not
// current thread id").

package session

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestRequestsRacingSteps(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	s, err := m.Launch(testCtx(t), LaunchSpec{Program: "testdata/core/loop.py", Breakpoints: []Breakpoint{{File: "testdata/core/loop.py", Line: 14}}})
	if err != nil {
		t.Fatal(err)
	}
	waitStop(t, s)
	var mu sync.Mutex
	counts := map[string]int{}
	for step := 0; step < 6; step++ {
		frame, err := s.TopFrame(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if i%2 == 0 {
					_, err = s.Evaluate(context.Background(), "total", frame.Id, "watch")
				} else {
					_, err = s.StackTrace(context.Background(), 0, 5)
				}
				var se *errcode.Error
				code := "ok"
				if err != nil {
					code = "untyped: " + err.Error()
					if errors.As(err, &se) {
						code = string(se.Code)
						if se.Code != errcode.NotPaused {
							code += ": " + se.Message
						}
					}
				}
				mu.Lock()
				counts[code]++
				mu.Unlock()
			}()
		}
		// → next while the requests are in flight
		if err := s.Step(testCtx(t), "over"); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		wg.Wait()
		waitStop(t, s)
	}
	for code, n := range counts {
		if code != "ok" && code != string(errcode.NotPaused) {
			t.Errorf("%d requests racing a step failed with %s; want an answer or NOT_PAUSED", n, code)
		}
	}
	t.Logf("outcomes of 48 racing requests: %v", counts)
}
