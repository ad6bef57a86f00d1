// realpath_windows.go: the final path of an open handle (see realpath.go):
// it follows symbolic links and junctions alike (filepath.EvalSymlinks
// does not follow junctions), expands 8.3 names and spells each name as
// on disk.

package platform

import (
	"strings"

	"golang.org/x/sys/windows"
)

// GetFinalPathNameByHandle's flags: the normalized name, with a drive
// letter.
const (
	fileNameNormalized = 0x0
	volumeNameDOS      = 0x0
)

func realPath(p string) (string, error) {
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return "", err
	}
	// FILE_FLAG_BACKUP_SEMANTICS opens directories too; no access rights
	// are needed to read the name.
	h, err := windows.CreateFile(name, 0, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return "", err
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), fileNameNormalized|volumeNameDOS)
	if err != nil {
		return "", err
	}
	return trimLongPrefix(windows.UTF16ToString(buf[:n])), nil
}

// trimLongPrefix turns \\?\C:\x into C:\x and \\?\UNC\server\x into
// \\server\x.
func trimLongPrefix(p string) string {
	if rest, ok := strings.CutPrefix(p, `\\?\UNC\`); ok {
		return `\\` + rest
	}
	return strings.TrimPrefix(p, `\\?\`)
}
