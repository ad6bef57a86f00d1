//go:build !unix

// connfile_other.go: on Windows (and other non-Unix systems) a connection
// file's owner and ACL are not checked: Jupyter itself restricts the file
// with an ACL there, and Go has no portable reading of one.

package kernel

import (
	"io/fs"
	"os"
)

// openNonBlocking: Windows has no FIFO that blocks an open of a path.
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }

func checkPrivate(fs.FileInfo, string) string { return "" }
