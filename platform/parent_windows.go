// parent_windows.go: the parent's exit seen by waiting on its process
// handle. Windows never re-parents, so the parent's pid may have been
// reused by the time it is opened: a process created after this one is
// not our parent, and means the parent is gone. See parent.go.

package platform

import (
	"context"
	"os"

	"golang.org/x/sys/windows"
)

func watchParent(ctx context.Context, exited func(int)) int {
	ppid := os.Getppid()
	if ppid <= 0 {
		return 0
	}
	h, err := windows.OpenProcess(windows.SYNCHRONIZE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(ppid))
	if err == windows.ERROR_INVALID_PARAMETER {
		go exited(ppid) // no such process: it is gone
		return ppid
	}
	if err != nil {
		return 0 // not ours to watch (another user's process)
	}
	self, _ := creationTime(windows.CurrentProcess())
	if born, ok := creationTime(h); ok && self != 0 && born > self {
		_ = windows.CloseHandle(h)
		go exited(ppid) // the pid now names a younger process
		return ppid
	}
	go func() {
		defer windows.CloseHandle(h)
		for ctx.Err() == nil {
			ev, err := windows.WaitForSingleObject(h, uint32(parentPoll.Milliseconds()))
			if err != nil {
				return
			}
			if ev == windows.WAIT_OBJECT_0 {
				exited(ppid)
				return
			}
		}
	}()
	return ppid
}
