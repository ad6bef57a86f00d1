// parent.go: a long-running subcommand started by a launcher (the VS Code
// extension starts `dapscope mcp --http`) ends when that launcher goes
// away, instead of living on orphaned and still listening. How the exit is
// seen differs by system (platform/parent*.go).

package main

import (
	"context"
	"os"

	"github.com/dapscope/dapscope/platform"
)

// untilParentExits returns a context that is cancelled when ctx is, or
// when the process that started this one exits. A process started
// detached (its parent is init) is not watched.
func untilParentExits(ctx context.Context, log interface{ Info(string, ...any) }) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	gone, parentGone := context.WithCancel(context.Background())
	platform.WatchParent(ctx, func(ppid int) {
		log.Info("the process that started dapscope exited; shutting down (use --detached to keep running)", "parent", ppid)
		parentGone()
		cancel()
	})
	// Orphaned, the process ends even while a goroutine is blocked in a
	// syscall that no context reaches (#37.11: an hour in open).
	returned := exitWhenStuck(gone, stopGrace, 1, os.Exit)
	return ctx, func() {
		returned()
		parentGone()
		cancel()
	}
}
