//go:build unix && !darwin

// parent_unix.go: the parent's exit seen by polling getppid
// (parent_poll_unix.go). Linux's PR_SET_PDEATHSIG is not used for this: it
// fires when the parent's *thread* that started us exits, which a Go or
// Node launcher may do while still alive. See parent.go.

package platform

import (
	"context"
	"os"
)

func watchParent(ctx context.Context, exited func(int)) int {
	ppid := os.Getppid()
	if ppid <= 1 {
		return 0
	}
	return pollParent(ctx, ppid, exited)
}
