package main

import (
	"context"
	"testing"
	"time"
)

// TestExitWhenStuck: a command that does not return after the stop
// request is ended by exit with the code; one that returned is not.
func TestExitWhenStuck(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	exited := make(chan int, 1)
	returned := exitWhenStuck(ctx, time.Millisecond, 130, func(code int) { exited <- code })
	defer returned()
	cancel() // the command (here: nothing) stays blocked
	if code := <-exited; code != 130 {
		t.Errorf("exit(%d), want 130", code)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	calls := make(chan int, 1)
	returned = exitWhenStuck(ctx, time.Millisecond, 1, func(code int) { calls <- code })
	returned()
	returned() // twice is fine
	cancel()
	select {
	case code := <-calls:
		t.Errorf("exit(%d) after the command returned", code)
	default:
	}
}
