// parent.go: a long-running subcommand started by a launcher (the VS Code
// extension starts `dapscope mcp --http`) ends when that launcher goes
// away, instead of living on orphaned and still listening. How the exit is
// seen differs by system (platform/parent*.go).

package main

import (
	"context"

	"github.com/dapscope/dapscope/platform"
)

// untilParentExits returns a context that is cancelled when ctx is, or
// when the process that started this one exits. A process started
// detached (its parent is init) is not watched.
func untilParentExits(ctx context.Context, log interface{ Info(string, ...any) }) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	platform.WatchParent(ctx, func(ppid int) {
		log.Info("the process that started dapscope exited; shutting down (use --detached to keep running)", "parent", ppid)
		cancel()
	})
	return ctx, cancel
}
