// outfiles.go: the generated files of a launched program, found before
// node loads them. Node compiles a CommonJS module and runs it at once, so
// a breakpoint set in a source (shapes.ts) must already be set in its
// generated file (dist/shapes.js) when that file is parsed; as js-debug
// does with its outFiles, the directory of the launched program is
// scanned once (node_modules and hidden directories left out, bounded) for
// scripts that name a source map, and each map's sources are indexed to
// their generated files. A breakpoint in a source then binds by the
// generated file's URL, and V8 sets it as the file loads.

package node

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/dapscope/dapscope/internal/safefile"
)

// maxScanned bounds the files the scan looks at.
const maxScanned = 5000

// outFile is a generated file and its map's URL.
type outFile struct {
	gen, mapURL string
}

// outFiles index a directory's generated files by source, once.
type outFiles struct {
	root     string // "": nothing to scan (an attached program)
	ws       string // the workspace maps and their sources must be in
	once     sync.Once
	bySource map[string][]outFile
}

// mapCommentRE is a script's source map comment.
var mapCommentRE = regexp.MustCompile(`//[#@] sourceMappingURL=(\S+)\s*$`)

// of is the generated files whose map has source as a source.
func (o *outFiles) of(source string) []outFile {
	if o == nil || o.root == "" {
		return nil
	}
	o.once.Do(func() { o.bySource = scanOutFiles(o.root, o.ws) })
	return o.bySource[source]
}

// scanOutFiles indexes the scripts under root that name a source map (a
// map, or a source, outside the workspace ws is left out: mapguard.go).
func scanOutFiles(root, ws string) map[string][]outFile {
	out := map[string][]outFile{}
	n := 0
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != root && (d.Name() == "node_modules" || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch filepath.Ext(p) {
		case ".js", ".mjs", ".cjs":
		default:
			return nil
		}
		if n++; n > maxScanned {
			return filepath.SkipAll
		}
		text, err := safefile.Read(p, maxGenBytes)
		if err != nil {
			return nil
		}
		i := bytes.LastIndex(text, []byte("sourceMappingURL="))
		if i < 0 {
			return nil
		}
		m := mapCommentRE.FindSubmatch(text[max(0, i-4):])
		if m == nil {
			return nil
		}
		mapURL := string(m[1])
		raw, base, err := mapBytes(p, mapURL, ws)
		if err != nil {
			return nil
		}
		var doc struct {
			SourceRoot string   `json:"sourceRoot"`
			Sources    []string `json:"sources"`
		}
		if json.Unmarshal(raw, &doc) != nil {
			return nil
		}
		for _, src := range doc.Sources {
			sp := sourcePath(base, doc.SourceRoot, src)
			if filepath.IsAbs(sp) && !inside(ws, sp) {
				continue
			}
			out[sp] = append(out[sp], outFile{gen: p, mapURL: mapURL})
		}
		return nil
	})
	return out
}

// preloadMaps loads the maps of the scanned generated files that have
// source as a source, so that breakpoints in it bind before they load.
func (s *Server) preloadMaps(source string) {
	for _, of := range s.out.of(source) {
		s.mapOf(of.gen, of.mapURL)
	}
}
