//go:build unix

// procinfo_unix.go: killing a process and its group (see procinfo.go).

package platform

import "syscall"

func killProcess(pid int) error {
	if pgid, err := syscall.Getpgid(pid); err == nil && pgid == pid {
		return syscall.Kill(-pid, syscall.SIGKILL)
	}
	return syscall.Kill(pid, syscall.SIGKILL)
}
