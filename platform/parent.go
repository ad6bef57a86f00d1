// parent.go: WatchParent, noticing that the process that started dapscope
// has exited (the VS Code extension that started `dapscope mcp --http`),
// so a long-running subcommand ends instead of living on, orphaned and
// listening. Each system watches its own way: Linux and other Unix poll
// getppid (parent_unix.go), macOS waits on kqueue (parent_darwin.go),
// Windows waits on the parent's process handle (parent_windows.go).

package platform

import (
	"context"
	"time"
)

// parentPoll bounds how long a watch may take to see its context end (and
// is the poll period where getppid is polled).
const parentPoll = 500 * time.Millisecond

// WatchParent calls exited (once, from its own goroutine) when the
// process that started this one exits, unless ctx ends first. It returns
// the parent's pid, or 0 when there is none to watch (started detached,
// by init or launchd) and nothing is called. The goroutine ends with ctx.
func WatchParent(ctx context.Context, exited func(parent int)) int {
	return watchParent(ctx, exited)
}
