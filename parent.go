// parent.go: a long-running subcommand started by a launcher (the VS Code
// extension starts `dapscope mcp --http`) ends when that launcher goes
// away, instead of living on re-parented and still listening.

package main

import (
	"context"
	"os"
	"time"
)

// parentPollInterval is how often the parent is checked. Polling getppid
// is used rather than PR_SET_PDEATHSIG: the signal fires when the parent's
// *thread* exits, which a Go or Node launcher may do while still alive.
const parentPollInterval = 500 * time.Millisecond

// untilParentExits returns a context that is cancelled when ctx is, or
// when this process is re-parented (its launcher died). A process whose
// parent is already init (started detached) is not watched.
func untilParentExits(ctx context.Context, log interface{ Info(string, ...any) }) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	ppid := os.Getppid()
	if ppid <= 1 {
		return ctx, cancel
	}
	go func() {
		t := time.NewTicker(parentPollInterval)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != ppid {
					log.Info("the process that started dapscope exited; shutting down (use --detached to keep running)", "parent", ppid)
					cancel()
					return
				}
			}
		}
	}()
	return ctx, cancel
}
