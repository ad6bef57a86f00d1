// realpath.go: RealPath, the path the system really opens for p, so a
// check that p stays inside the workspace sees through every kind of link
// the system has (realpath_unix.go: symbolic links; realpath_windows.go:
// symbolic links, junctions, short 8.3 names and the case on disk).

package platform

// RealPath is p with every link resolved; an error when p does not exist.
func RealPath(p string) (string, error) { return realPath(p) }
