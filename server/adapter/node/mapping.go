// mapping.go: lookups through a loaded source map — a generated location
// to its original source, line and column (a line without segments, or a
// segment without a source, maps nowhere: never to a neighbour's line);
// an original line (and column) to the generated places of every loaded
// map that has the source (for breakpoints), through a reverse index built
// once per map from go-sourcemap's own lookups; and a V8 stack text with
// its generated locations rewritten to original ones.

package node

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	godap "github.com/google/go-dap"
)

// genPlace is a place in a generated file (1-based line and column).
type genPlace struct {
	path         string
	line, column int
}

// segment is where an original column of a line starts in generated code.
type segment struct {
	column int // original, 0-based
	at     genPlace
}

// reverse indexes one source of a map: its original lines (1-based) that
// have code, each with its segments in original column order.
type reverse struct {
	lines []int
	segs  map[int][]segment
	first map[int]genPlace // the earliest generated place of each line
}

// orig is a place in an original source.
type orig struct {
	path         string
	line, column int // 1-based
	ref          int // sourceReference of a source known only from its map
}

// source is the DAP source of an original place.
func (o orig) source() *godap.Source {
	return &godap.Source{Name: filepath.Base(o.path), Path: o.path, SourceReference: o.ref, Origin: originOf(o.ref)}
}

func originOf(ref int) string {
	if ref != 0 {
		return "source map (sourcesContent)"
	}
	return ""
}

// maxLead bounds the columns searched for a line's first segment.
const maxLead = 10000

// lookup is the original place of a generated line (1-based) and column
// (0-based); ok is false where the map has nothing.
func (m *sourceMap) lookup(line, col int) (path string, oline, ocol int, ok bool) {
	if line < 1 || line > len(m.mapped) || !m.mapped[line-1] {
		return "", 0, 0, false
	}
	// go-sourcemap answers a column before a line's first segment with the
	// previous line's last segment: the answer for column -1 tells it.
	bs, bl, bc, bok := m.at(line, -1)
	src, l, c, ok := m.at(line, col)
	for x := col + 1; ok && bok && src == bs && l == bl && c == bc && x <= col+maxLead; x++ {
		src, l, c, ok = m.at(line, x)
	}
	if !ok || src == "" || (bok && src == bs && l == bl && c == bc) || l < 1 || c < 0 {
		return "", 0, 0, false // a negative line or column (a hostile VLQ) is nowhere
	}
	p, known := m.paths[src]
	if !known {
		return "", 0, 0, false // a source left out (outside the workspace)
	}
	return p, l, c, true
}

// index builds the reverse index once: every column of every line with
// segments is looked up, and where the answer changes a segment starts.
func (m *sourceMap) index() map[string]*reverse {
	m.once.Do(func() {
		m.rev = map[string]*reverse{}
		for line := 1; line <= len(m.mapped) && line <= len(m.lines); line++ {
			if !m.mapped[line-1] {
				continue
			}
			ps, pl, pc, have := m.at(line, -1)
			for col := 0; col <= len(m.lines[line-1]); col++ {
				src, l, c, ok := m.at(line, col)
				if !ok || have && src == ps && l == pl && c == pc {
					continue
				}
				ps, pl, pc, have = src, l, c, true
				p, known := m.paths[src]
				if !known || l < 1 || c < 0 {
					continue
				}
				r := m.rev[p]
				if r == nil {
					r = &reverse{segs: map[int][]segment{}, first: map[int]genPlace{}}
					m.rev[p] = r
				}
				at := genPlace{path: m.gen, line: line, column: col + 1}
				if _, seen := r.first[l]; !seen {
					r.first[l] = at
					r.lines = append(r.lines, l)
				}
				r.segs[l] = append(r.segs[l], segment{column: c, at: at})
			}
		}
		for _, r := range m.rev {
			sort.Ints(r.lines)
			for _, ss := range r.segs {
				sort.SliceStable(ss, func(i, j int) bool { return ss[i].column < ss[j].column })
			}
		}
	})
	return m.rev
}

// generated is where original line (and column, 0: none) of path runs in
// m's generated file: the line's earliest place, or the first segment at
// or after the column; a line without code moves to the next one that has
// some, as V8 moves a breakpoint.
func (m *sourceMap) generated(path string, line, column int) (genPlace, bool) {
	r := m.index()[path]
	if r == nil {
		return genPlace{}, false
	}
	i := sort.SearchInts(r.lines, line)
	if i == len(r.lines) {
		return genPlace{}, false
	}
	l := r.lines[i]
	if column > 0 && l == line {
		for _, sg := range r.segs[l] {
			if sg.column >= column-1 {
				return sg.at, true
			}
		}
	}
	return r.first[l], true
}

// generatedFor is every generated place of original line (and column) of
// path, in the loaded maps that have path as a source.
func (ms *sourceMaps) generatedFor(path string, line, column int) []genPlace {
	ms.mu.Lock()
	var maps []*sourceMap
	for _, m := range ms.byGen {
		if m != nil {
			if _, ok := m.names[path]; ok {
				maps = append(maps, m)
			}
		}
	}
	ms.mu.Unlock()
	var out []genPlace
	for _, m := range maps {
		if g, ok := m.generated(path, line, column); ok {
			out = append(out, g)
		}
	}
	return out
}

// original is where loc of th is in its script's original source; ok is
// false when the script has no usable map or the map has nothing there.
func (s *Server) original(th *thread, loc *debugger.Location) (orig, bool) {
	s.mu.Lock()
	sc := th.scripts[loc.ScriptID]
	s.mu.Unlock()
	if sc == nil || sc.sm == nil {
		return orig{}, false
	}
	col := 0
	if loc.ColumnNumber != nil {
		col = int(*loc.ColumnNumber)
	}
	p, line, c, ok := sc.sm.lookup(int(loc.LineNumber)+1, col)
	if !ok {
		return orig{}, false
	}
	return orig{path: p, line: line, column: c + 1, ref: s.sourceRef(sc.sm, p)}, true
}

// hasMap says whether a script of th has a usable source map.
func (s *Server) hasMap(th *thread, id cdp.ScriptID) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	sc := th.scripts[id]
	return sc != nil && sc.sm != nil
}

// sourceRef is the sourceReference of a source known only from its map's
// sourcesContent (0: the source is a file).
func (s *Server) sourceRef(m *sourceMap, p string) int {
	text, ok := m.content[p]
	if !ok {
		return 0
	}
	s.maps.mu.Lock()
	ref, ok := s.maps.refs[p]
	s.maps.mu.Unlock()
	if ok {
		return ref
	}
	s.mu.Lock()
	s.nextHandle++ // handles and references share one counter
	ref = s.nextHandle
	s.mu.Unlock()
	s.maps.mu.Lock()
	s.maps.refs[p], s.maps.texts[ref] = ref, text
	s.maps.mu.Unlock()
	return ref
}

// stackLocRE is a location in a V8 stack text: (file://)PATH:LINE:COLUMN.
var stackLocRE = regexp.MustCompile(`(?:file://)?(/[^\s()]*?):(\d+):(\d+)`)

// mapStack rewrites the generated locations of a V8 stack text that a
// loaded map covers to their original ones.
func (s *Server) mapStack(text string) string {
	return stackLocRE.ReplaceAllStringFunc(text, func(loc string) string {
		m := stackLocRE.FindStringSubmatch(loc)
		gen := filePath("file://" + m[1])
		if gen == "" {
			gen = m[1]
		}
		s.maps.mu.Lock()
		sm := s.maps.byGen[gen]
		s.maps.mu.Unlock()
		line, _ := strconv.Atoi(m[2])
		col, _ := strconv.Atoi(m[3])
		if sm == nil {
			return loc
		}
		if p, l, c, ok := sm.lookup(line, col-1); ok {
			return p + ":" + strconv.Itoa(l) + ":" + strconv.Itoa(c+1)
		}
		return loc
	})
}
