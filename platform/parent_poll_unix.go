//go:build unix

// parent_poll_unix.go: the getppid poll that sees the parent's exit on every
// Unix: an orphan is re-parented (to init or a subreaper), so its parent pid
// changes. Linux relies on it alone, macOS where kqueue is unavailable.

package platform

import (
	"context"
	"os"
	"time"
)

// pollParent calls exited once ppid is no longer this process's parent.
func pollParent(ctx context.Context, ppid int, exited func(int)) int {
	go func() {
		t := time.NewTicker(parentPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != ppid {
					exited(ppid)
					return
				}
			}
		}
	}()
	return ppid
}
