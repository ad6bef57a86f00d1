// procinfo_windows.go: a process's creation time, whether it still runs,
// and ending it, through a process handle (see procinfo.go).

package platform

import (
	"strconv"

	"golang.org/x/sys/windows"
)

const stillActive = 259 // STILL_ACTIVE, GetExitCodeProcess of a running process

func processStart(pid int) (string, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, uint32(pid))
	if err != nil {
		return "", false
	}
	defer windows.CloseHandle(h)
	var code uint32
	if err := windows.GetExitCodeProcess(h, &code); err != nil || code != stillActive {
		return "", false
	}
	created, ok := creationTime(h)
	if !ok {
		return "", false
	}
	return strconv.FormatInt(created, 10), true
}

// creationTime is when the process of h was created (100 ns since 1601).
func creationTime(h windows.Handle) (int64, bool) {
	var c, e, k, u windows.Filetime
	if err := windows.GetProcessTimes(h, &c, &e, &k, &u); err != nil {
		return 0, false
	}
	return int64(c.HighDateTime)<<32 | int64(c.LowDateTime), true
}

func killProcess(pid int) error {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE, false, uint32(pid))
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.TerminateProcess(h, killedExitCode)
}
