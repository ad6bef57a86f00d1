// sourcemaps.go: the source maps of compiled TypeScript and bundled
// JavaScript. A script of the program (a file outside node_modules) with
// a sourceMappingURL gets its map loaded — inline (data: URL) or external
// (a file beside it) — parsed with github.com/go-sourcemap/sourcemap and
// checked against its file: a map that cannot be read, that covers lines
// the file does not have, that names another file, or whose copy of a
// source (sourcesContent) differs from that source on disk (a stale build)
// is not used, and a notice says why once (the script's own lines are
// shown, never wrong ones). Generated files are found ahead, by a scan of
// the program's directory (outfiles.go), so that breakpoints in their
// sources are set before they load. Lookups are in mapping.go.

package node

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/go-sourcemap/sourcemap"

	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/internal/safefile"
)

// sourceMap is a loaded, usable source map of one generated file.
type sourceMap struct {
	gen     string              // the generated file
	c       *sourcemap.Consumer //
	paths   map[string]string   // the consumer's source name → the source's path (or URL when not a file)
	names   map[string]string   // path → the consumer's source name
	content map[string]string   // path → sourcesContent, for sources not on disk
	mapped  []bool              // generated line (0-based) has segments
	lines   []string            // the generated file's lines

	once sync.Once
	rev  map[string]*reverse // path → original lines to generated places (mapping.go)
}

// sourceMaps are the maps loaded in this session, by generated file.
type sourceMaps struct {
	mu    sync.Mutex
	byGen map[string]*sourceMap // nil value: the file's map is not usable
	refs  map[string]int        // source path not on disk → sourceReference
	texts map[int]string        // sourceReference → content
}

func newSourceMaps() *sourceMaps {
	return &sourceMaps{byGen: map[string]*sourceMap{}, refs: map[string]int{}, texts: map[int]string{}}
}

// content is the text of an original source known only from its map.
func (m *sourceMaps) content(ref int) (string, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.texts[ref]
	return t, ok
}

// loadMap attaches the source map of a parsed script (loaded once per
// generated file) to it; breakpoints of its sources that were not set in
// it yet (a file outside the scanned directory) are set now, as it loads.
func (s *Server) loadMap(th *thread, e parsedScript) {
	gen := filePath(e.URL)
	if gen == "" || e.SourceMapURL == "" || strings.Contains(gen, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
		return
	}
	m := s.mapOf(gen, e.SourceMapURL)
	s.mu.Lock()
	if sc := th.scripts[e.ScriptID]; sc != nil {
		sc.sm = m
	}
	ready := th.ready
	s.mu.Unlock()
	if m == nil || !ready {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.CallTimeout)
	defer cancel()
	s.bindMu.Lock()
	defer s.bindMu.Unlock()
	for _, p := range s.bps.all() {
		if _, ok := m.names[p.path]; ok && p.bindable() {
			s.bind(ctx, th, p)
		}
	}
}

// mapOf is the usable map of a generated file (nil: none), read once; a
// map that is not usable gets its notice then.
func (s *Server) mapOf(gen, mapURL string) *sourceMap {
	s.maps.mu.Lock()
	m, seen := s.maps.byGen[gen]
	s.maps.mu.Unlock()
	if seen {
		return m
	}
	m, note, err := readSourceMap(gen, mapURL, s.mapRoot())
	if err != nil {
		s.output("important", fmt.Sprintf("dapscope: %s: %v; its own lines are shown (breakpoints in its sources do not bind)\n", gen, err))
		m = nil
	} else if note != "" {
		s.output("important", fmt.Sprintf("dapscope: %s: %s\n", gen, note))
	}
	s.maps.mu.Lock()
	defer s.maps.mu.Unlock()
	if prev, seen := s.maps.byGen[gen]; seen {
		return prev
	}
	s.maps.byGen[gen] = m
	return m
}

// readSourceMap reads and checks the map of the generated file gen; the
// paths it names must be inside root (mapguard.go). note is about a map
// that is used, sources outside root left out.
func readSourceMap(gen, mapURL, root string) (m *sourceMap, note string, err error) {
	genText, err := safefile.Read(gen, maxGenBytes)
	if err != nil {
		return nil, "", fmt.Errorf("cannot be read to check its source map: %w", err)
	}
	raw, base, err := mapBytes(gen, mapURL, root)
	if err != nil {
		return nil, "", err
	}
	var doc struct {
		File           string   `json:"file"`
		SourceRoot     string   `json:"sourceRoot"`
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
		Mappings       string   `json:"mappings"`
	}
	// The JSON error is not kept: it would echo the map's bytes.
	if json.Unmarshal(raw, &doc) != nil {
		return nil, "", fmt.Errorf("its source map (%s) is not JSON", shortURL(mapURL))
	}
	c, err := parseMap(raw)
	if err != nil {
		return nil, "", fmt.Errorf("%w (%s)", err, shortURL(mapURL))
	}
	lines := strings.Split(string(genText), "\n")
	m = &sourceMap{gen: gen, c: c, lines: lines, paths: map[string]string{}, names: map[string]string{}, content: map[string]string{}}
	// A line of the generated file has segments when its group of the
	// mappings (they are separated by ';') is not empty: counting groups
	// needs no decoding.
	for _, g := range strings.Split(doc.Mappings, ";") {
		m.mapped = append(m.mapped, g != "")
	}
	last := len(m.mapped) - 1
	for last >= 0 && !m.mapped[last] {
		last--
	}
	if last >= len(lines) {
		return nil, "", fmt.Errorf("its source map (%s) does not match it: the map covers line %d, the file has %d lines", shortURL(mapURL), last+1, len(lines))
	}
	if doc.File != "" && path.Base(doc.File) != filepath.Base(gen) {
		return nil, "", fmt.Errorf("its source map (%s) was written for %s, not for this file", shortURL(mapURL), clip.Bytes.Head(path.Base(doc.File), 100))
	}
	outside := 0
	for i, src := range doc.Sources {
		name, p := consumerName(doc.SourceRoot, src), sourcePath(base, doc.SourceRoot, src)
		isFile := filepath.IsAbs(p)
		if isFile && !inside(root, p) {
			outside++ // never read, never shown: its segments map nowhere
			continue
		}
		m.paths[name], m.names[p] = p, name
		if i >= len(doc.SourcesContent) || doc.SourcesContent[i] == "" {
			continue
		}
		if !isFile {
			m.content[p] = doc.SourcesContent[i] // a URL: served by reference
			continue
		}
		disk, err := safefile.Read(p, maxGenBytes)
		switch {
		case err != nil:
			m.content[p] = doc.SourcesContent[i]
		case normalize(disk) != normalize([]byte(doc.SourcesContent[i])):
			return nil, "", fmt.Errorf("its source map (%s) is stale: %s changed since it was built (rebuild it)", shortURL(mapURL), p)
		}
	}
	if outside > 0 {
		note = outsideNote(outside)
	}
	return m, note, nil
}

// mapBytes reads a map of at most maxMapBytes: a data: URL, or a file
// relative to gen inside root; base is the directory its sources are
// relative to.
func mapBytes(gen, mapURL, root string) ([]byte, string, error) {
	if rest, ok := strings.CutPrefix(mapURL, "data:"); ok {
		b, err := inlineMap(rest)
		return b, filepath.Dir(gen), err
	}
	p := mapURL
	if strings.HasPrefix(p, "file://") {
		p = filePath(p)
	} else if u, err := url.Parse(p); err == nil && u.Scheme != "" {
		return nil, "", fmt.Errorf("its source map is at %s, which is not a file", shortURL(mapURL))
	} else if !filepath.IsAbs(p) {
		if unescaped, err := url.PathUnescape(p); err == nil {
			p = unescaped
		}
		p = filepath.Join(filepath.Dir(gen), p)
	}
	if !inside(root, p) {
		return nil, "", fmt.Errorf("its source map %s is outside the workspace (not read)", shortURL(mapURL))
	}
	b, err := safefile.Read(p, maxMapBytes)
	if err != nil {
		return nil, "", fmt.Errorf("its source map %s cannot be read: %w", p, err)
	}
	return b, filepath.Dir(p), nil
}

// inlineMap decodes the payload of a data: URL map (after "data:"),
// refused past maxMapBytes before it is decoded.
func inlineMap(rest string) ([]byte, error) {
	meta, payload, found := strings.Cut(rest, ",")
	if !found {
		return nil, fmt.Errorf("its inline source map is not a data URL")
	}
	tooLarge := fmt.Errorf("its inline source map is larger than %s (not read)", safefile.Size(maxMapBytes))
	if strings.HasSuffix(meta, ";base64") {
		if len(payload) > base64.StdEncoding.EncodedLen(maxMapBytes) {
			return nil, tooLarge
		}
		b, err := base64.StdEncoding.DecodeString(payload)
		if err != nil {
			return nil, fmt.Errorf("its inline source map is not valid base64")
		}
		return b, nil
	}
	if len(payload) > 3*maxMapBytes {
		return nil, tooLarge
	}
	s, err := url.PathUnescape(payload)
	if err != nil {
		return nil, fmt.Errorf("its inline source map is not a valid data URL")
	}
	if len(s) > maxMapBytes {
		return nil, tooLarge
	}
	return []byte(s), nil
}

// consumerName is the name go-sourcemap gives a source when parsed
// without a URL (absSource's rule).
func consumerName(root, src string) string {
	if path.IsAbs(src) {
		return src
	}
	if u, err := url.Parse(src); err == nil && u.IsAbs() {
		return src
	}
	if root != "" {
		if u, err := url.Parse(root); err == nil && u.IsAbs() {
			u.Path = path.Join(u.Path, src)
			return u.String()
		}
		return path.Join(root, src)
	}
	return src
}

// sourcePath is the path of a map's source (sourceRoot + source, relative
// to the map's directory base); a URL that is not a file stays a URL.
func sourcePath(base, root, src string) string {
	full := src
	if root != "" && !path.IsAbs(src) {
		full = strings.TrimSuffix(root, "/") + "/" + src
	}
	if p := filePath(full); p != "" {
		return filepath.Clean(p)
	}
	if u, err := url.Parse(full); err == nil && u.Scheme != "" {
		return full
	}
	return filepath.Join(base, filepath.FromSlash(full))
}

// normalize makes two copies of a source comparable (line ends).
func normalize(b []byte) string {
	return string(bytes.TrimRight(bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n")), "\n"))
}

// shortURL is a map URL for a message (an inline map is not spelled out).
func shortURL(u string) string {
	if strings.HasPrefix(u, "data:") {
		return "inline"
	}
	if len(u) > 200 {
		return u[:200] + "…"
	}
	return u
}
