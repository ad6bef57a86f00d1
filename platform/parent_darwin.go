// parent_darwin.go: the parent's exit seen by kqueue (EVFILT_PROC,
// NOTE_EXIT on its pid); a parent already gone when the watch starts is
// seen through getppid, which is also the fallback without kqueue
// (parent_poll_unix.go). See parent.go.

package platform

import (
	"context"
	"os"

	"golang.org/x/sys/unix"
)

func watchParent(ctx context.Context, exited func(int)) int {
	ppid := os.Getppid()
	if ppid <= 1 {
		return 0
	}
	kq, err := unix.Kqueue()
	if err != nil {
		return pollParent(ctx, ppid, exited)
	}
	ev := []unix.Kevent_t{{Ident: uint64(ppid), Filter: unix.EVFILT_PROC, Flags: unix.EV_ADD | unix.EV_ONESHOT, Fflags: unix.NOTE_EXIT}}
	if _, err := unix.Kevent(kq, ev, nil, nil); err != nil || os.Getppid() != ppid {
		_ = unix.Close(kq)
		go exited(ppid) // ESRCH: it is already gone
		return ppid
	}
	go func() {
		defer unix.Close(kq)
		out := make([]unix.Kevent_t, 1)
		ts := unix.NsecToTimespec(parentPoll.Nanoseconds())
		for ctx.Err() == nil {
			n, err := unix.Kevent(kq, nil, out, &ts)
			if err != nil && err != unix.EINTR {
				return
			}
			if n > 0 {
				exited(ppid)
				return
			}
		}
	}()
	return ppid
}
