// mapguard.go: what a source map from an untrusted repository may do, in
// one place. A map is bounded (maxMapBytes, inline or linked; the generated
// file and the sources it is checked against by maxGenBytes), read only
// from a regular file (internal/safefile: never a FIFO, a device or
// /dev/zero), parsed and looked up behind a recover (go-sourcemap panics
// on an index map with a url section, or a segment whose source index is
// past the end of sources: the map is refused, or the place is unmapped,
// never the process), and every path it names (the map's own file, its
// sources, a sourceRoot) must be inside the session's workspace: an
// outside source is not read, and its code is shown as the generated file.
// A negative original line or column is unmapped. Errors about a map never
// echo its bytes.

package node

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-sourcemap/sourcemap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
)

// The limits on source maps.
const (
	// maxMapBytes bounds a source map, inline (decoded) or linked: 8 MiB
	// is several times the map of a large bundle; a 40 MB inline map took
	// 14 s to load.
	maxMapBytes = 8 << 20
	// maxGenBytes bounds the generated file a map is checked against and
	// a source whose copy in the map is compared with it.
	maxGenBytes = 64 << 20
)

// parseMap parses a map with go-sourcemap; a panic in it is this map's
// error.
func parseMap(raw []byte) (c *sourcemap.Consumer, err error) {
	defer func() {
		if p := recover(); p != nil {
			c, err = nil, errcode.New(errcode.InvalidArgument, "its source map is malformed (the parser failed on it)")
		}
	}()
	c, err = sourcemap.Parse("", raw)
	if err != nil {
		return nil, errcode.New(errcode.InvalidArgument, "its source map cannot be parsed")
	}
	return c, nil
}

// at is the consumer's answer for a generated line (1-based) and column
// (0-based); a panic in it (a segment naming a source past the end of
// sources) is no answer.
func (m *sourceMap) at(line, col int) (src string, l, c int, ok bool) {
	defer func() {
		if p := recover(); p != nil {
			src, l, c, ok = "", 0, 0, false
		}
	}()
	src, _, l, c, ok = m.c.Source(line, col)
	return src, l, c, ok
}

// inside says whether p (absolute) is in the workspace root, links
// resolved on both sides: a link in the workspace to a file outside is
// outside; a file node names by its real path (node resolves the main
// module's links) is inside a workspace spelled through a link.
func inside(root, p string) bool {
	if root == "" || p == "" || !filepath.IsAbs(p) {
		return false
	}
	f := platform.Host
	p = f.Clean(p)
	realRoot := root
	if r, err := platform.RealPath(root); err == nil {
		realRoot = r
	}
	if real, err := platform.RealPath(p); err == nil {
		return f.Within(realRoot, real)
	}
	// Not on disk: nothing there to read; its spelling decides.
	return f.Within(root, p) || f.Within(realRoot, p)
}

// mapRoot is the workspace that the paths of a session's maps must be in:
// the one the launch or attach gave (the session manager's), else the
// launch's cwd, else the sidecar's working directory.
func mapRoot(given, cwd string) string {
	for _, r := range []string{given, cwd} {
		if r != "" {
			if abs, err := filepath.Abs(r); err == nil {
				return abs
			}
		}
	}
	wd, _ := os.Getwd()
	return wd
}

// mapRoot is this session's workspace for maps.
func (s *Server) mapRoot() string {
	s.mu.Lock()
	r := s.root
	s.mu.Unlock()
	if r == "" {
		return mapRoot("", "")
	}
	return r
}

// outsideNote is the notice of a map whose sources are (some) outside the
// workspace: it names how many, never which.
func outsideNote(n int) string {
	if n == 1 {
		return "its source map names a source outside the workspace: that code is shown as this file (the source is not read)"
	}
	return fmt.Sprintf("its source map names %d sources outside the workspace: their code is shown as this file (the sources are not read)", n)
}
