//go:build unix

// realpath_unix.go: symbolic links resolved (see realpath.go).

package platform

import "path/filepath"

func realPath(p string) (string, error) { return filepath.EvalSymlinks(p) }
