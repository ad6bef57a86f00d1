//go:build unix && !darwin

// parent_unix.go: the parent's exit seen by polling getppid: an orphan is
// re-parented (to init or a subreaper), so its parent pid changes. Linux's
// PR_SET_PDEATHSIG is not used for this: it fires when the parent's
// *thread* that started us exits, which a Go or Node launcher may do while
// still alive. See parent.go.

package platform

import (
	"context"
	"os"
	"time"
)

func watchParent(ctx context.Context, exited func(int)) int {
	ppid := os.Getppid()
	if ppid <= 1 {
		return 0
	}
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
