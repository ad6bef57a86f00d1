//go:build unix

// connfile_unix.go: the owner and mode check of a connection file on
// Unix-like systems (Linux, macOS).

package kernel

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openNonBlocking opens a file for reading without blocking on a FIFO
// (O_NONBLOCK) and without becoming its controlling terminal.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOCTTY, 0)
}

// checkPrivate says why a connection file must not be used ("" if fine):
// it must belong to the current user and be private to them.
func checkPrivate(fi fs.FileInfo, path string) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	return privateReason(int(st.Uid), os.Getuid(), fi.Mode().Perm(), path)
}

func privateReason(owner, me int, perm fs.FileMode, path string) string {
	if owner != me {
		return fmt.Sprintf("owned by uid %d, not by you (uid %d): it is another user's kernel, refused", owner, me)
	}
	if perm&0o077 != 0 {
		return fmt.Sprintf("readable or writable by group or others (mode %04o): it holds the kernel's key; fix it with: chmod 600 %s", perm, path)
	}
	return ""
}
