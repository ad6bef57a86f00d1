// stuck.go: a command told to stop (SIGINT, SIGTERM, its launcher gone)
// ends within a second even when one of its goroutines is blocked where
// no context reaches (a syscall such as open on a FIFO): after a grace
// for a clean return, the process exits.

package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"
)

// stopGrace is how long a command may take to return once told to stop.
const stopGrace = 800 * time.Millisecond

// exitWhenStuck calls exit(code) if, grace after ctx ends, returned has
// not been called. Call returned once the command returned; it ends the
// watch.
func exitWhenStuck(ctx context.Context, grace time.Duration, code int, exit func(int)) (returned func()) {
	done := make(chan struct{})
	go func() {
		select {
		case <-done:
			return
		case <-ctx.Done():
		}
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-done:
		case <-t.C:
			fmt.Fprintf(os.Stderr, "dapscope: stopped (a call still blocked %v after the stop request)\n", grace)
			exit(code)
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(done) }) }
}
