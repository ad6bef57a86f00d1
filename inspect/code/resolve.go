// resolve.go turns a Query into the entity it names: a symbol first (exact,
// then without leading package components, then a unique dotted suffix),
// else path + line (the innermost definition covering the line), else the
// file. Paths are validated (repo-relative, no "..") and unresolvable
// queries become a NOT_FOUND *errcode.Error carrying close matches.

package code

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
)

// target is a resolved query.
type target struct {
	mode string
	id   int32  // entity; the file entity in file mode; -1 when not indexed
	path string // repo-relative path
}

// cleanRel validates a user-supplied repo-relative path.
func cleanRel(p string) (string, *errcode.Error) {
	orig := p
	p = strings.TrimSpace(strings.ReplaceAll(p, "\\", "/"))
	if p == "" {
		return "", errorf(errcode.InvalidPath, nil, "empty path")
	}
	if strings.HasPrefix(p, "/") || platform.Host.IsAbs(p) || (len(p) > 1 && p[1] == ':') {
		return "", errorf(errcode.InvalidPath, nil, "path %q must be relative to the repository root", orig)
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return "", errorf(errcode.InvalidPath, nil, "path %q must not contain \"..\"", orig)
		}
	}
	if strings.ContainsRune(p, 0) {
		return "", errorf(errcode.InvalidPath, nil, "path %q contains a NUL byte", orig)
	}
	p = path.Clean(p)
	if p == "." {
		return "", errorf(errcode.InvalidPath, nil, "path %q names the repository root, not a file", orig)
	}
	return p, nil
}

// RelPath converts an absolute path inside the repository (as debuggers
// report stop locations) to the repo-relative form, or reports false. The
// system's path rules apply (platform.Host: drive letters and case on
// Windows, case on macOS).
func (ix *Index) RelPath(abs string) (string, bool) { return ix.relPathIn(platform.Host, abs) }

func (ix *Index) relPathIn(f platform.Flavour, abs string) (string, bool) {
	if !f.IsAbs(abs) {
		p, err := cleanRel(abs)
		return p, err == nil
	}
	for _, root := range []string{ix.root, ix.alias} {
		for _, a := range []string{f.Clean(abs), evalOr(abs)} {
			if rel, ok := f.Rel(root, a); ok && rel != "." {
				return rel, true
			}
		}
	}
	return "", false
}

// evalOr is p with its links resolved (platform.RealPath: junctions too on
// Windows), or p.
func evalOr(p string) string {
	if r, err := platform.RealPath(p); err == nil {
		return r
	}
	return p
}

func (ix *Index) resolve(g *graph, files map[string]*fileRec, q Query) (target, error) {
	if q.Symbol == "" && q.Path == "" {
		return target{}, errorf(errcode.InvalidArgument, nil, "give a symbol or a path")
	}
	if q.Line < 0 {
		return target{}, errorf(errcode.InvalidArgument, nil, "line %d must be positive", q.Line)
	}
	if q.MaxNeighbors < 0 {
		return target{}, errorf(errcode.InvalidArgument, nil, "max_neighbors %d must not be negative", q.MaxNeighbors)
	}
	rel := ""
	if q.Path != "" {
		p, err := cleanRel(q.Path)
		if err != nil {
			return target{}, err
		}
		rel = p
	}
	if q.Symbol != "" {
		return ix.resolveSymbol(g, strings.TrimSpace(q.Symbol), rel)
	}
	if q.Line > 0 && q.Symbol == "" && rel == "" {
		return target{}, errorf(errcode.InvalidArgument, nil, "line needs a path")
	}
	fr := files[rel]
	if fr == nil {
		abs := filepath.Join(ix.root, filepath.FromSlash(rel))
		if st, err := os.Stat(abs); err == nil && st.Mode().IsRegular() && ix.inside(abs) {
			return target{mode: ModeFile, id: -1, path: rel}, nil
		}
		return target{}, errorf(errcode.NotFound, closePaths(files, rel), "no file %q in the repository", rel)
	}
	if q.Line > 0 {
		if fr.Lines > 0 && q.Line > fr.Lines {
			return target{}, errorf(errcode.InvalidArgument, nil, "line %d is past the end of %s (%d lines)", q.Line, rel, fr.Lines)
		}
		if id := g.innermost(rel, q.Line); id >= 0 {
			return target{mode: ModeSymbol, id: id, path: rel}, nil
		}
	}
	return target{mode: ModeFile, id: g.fileEnt[rel], path: rel}, nil
}

// inside reports whether abs, with links resolved, stays in the root.
func (ix *Index) inside(abs string) bool {
	return platform.Host.Within(evalOr(ix.root), evalOr(abs))
}

// innermost returns the smallest definition of path covering line, or -1.
func (g *graph) innermost(rel string, line int) int32 {
	best := int32(-1)
	for _, id := range g.fileDefs[rel] {
		e := &g.ents[id]
		if e.start <= line && line <= e.end {
			if best < 0 || e.end-e.start < g.ents[best].end-g.ents[best].start ||
				(e.end-e.start == g.ents[best].end-g.ents[best].start && e.start > g.ents[best].start) {
				best = id
			}
		}
	}
	return best
}

// lookupSymbol returns the candidate entities of a symbol.
func (g *graph) lookupSymbol(sym string) []int32 {
	if ids := g.byQual[sym]; len(ids) > 0 {
		return ids
	}
	// A Go import path: github.com/x/y/pkg.Func -> pkg.Func.
	if i := strings.LastIndexByte(sym, '/'); i >= 0 && !strings.Contains(sym, "#") {
		if ids := g.byQual[sym[i+1:]]; len(ids) > 0 {
			return ids
		}
	}
	// Leading package components the index does not know (the repository
	// root is inside the package): pandas.core.frame.X -> core.frame.X.
	parts := strings.Split(sym, ".")
	for i := 1; i < len(parts); i++ {
		if ids := g.byQual[strings.Join(parts[i:], ".")]; len(ids) > 0 {
			return ids
		}
	}
	// A unique dotted suffix: DataFrame.merge.
	return g.suffixes()[sym]
}

func (ix *Index) resolveSymbol(g *graph, sym, rel string) (target, error) {
	ids := g.lookupSymbol(sym)
	if rel != "" {
		var in []int32
		for _, id := range ids {
			if g.ents[id].file.Path == rel {
				in = append(in, id)
			}
		}
		ids = in
		if len(ids) == 0 {
			// The package / module name of that very file.
			if fid, ok := g.fileEnt[rel]; ok && (g.ents[fid].qual == sym || g.ents[fid].file.Path == sym) {
				ids = []int32{fid}
			}
		}
	}
	if len(ids) == 0 {
		return target{}, errorf(errcode.NotFound, g.closeSymbols(sym), "no symbol %q in the index", sym)
	}
	if len(ids) > 1 {
		ids = preferOne(g, ids)
	}
	if len(ids) > 1 {
		var ms []string
		for _, id := range ids {
			e := &g.ents[id]
			ms = append(ms, fmt.Sprintf("%s (%s:%d)", e.qual, e.file.Path, e.start))
			if len(ms) == 8 {
				break
			}
		}
		return target{}, errorf(errcode.Ambiguous, ms, "symbol %q matches %d definitions; add the path", sym, len(ids))
	}
	e := &g.ents[ids[0]]
	if e.d == nil {
		return target{mode: ModeFile, id: ids[0], path: e.file.Path}, nil
	}
	return target{mode: ModeSymbol, id: ids[0], path: e.file.Path}, nil
}

// preferOne narrows duplicates: all in one file (conditional redefinitions)
// -> the first; otherwise the only non-test candidate if there is one.
func preferOne(g *graph, ids []int32) []int32 {
	same := true
	for _, id := range ids[1:] {
		if g.ents[id].file != g.ents[ids[0]].file {
			same = false
			break
		}
	}
	if same { // redefinitions (typing.overload stubs, if/else): the last binding wins
		return ids[len(ids)-1:]
	}
	var nonTest []int32
	for _, id := range ids {
		if !g.ents[id].isTest() && g.ents[id].file.Lang != "markdown" {
			nonTest = append(nonTest, id)
		}
	}
	if len(nonTest) == 1 {
		return nonTest
	}
	return ids
}

// closeSymbols suggests up to five symbols whose last component resembles
// the query's.
func (g *graph) closeSymbols(sym string) []string {
	want := strings.ToLower(sym[strings.LastIndexAny(sym, ".#/")+1:])
	type cand struct {
		q     string
		score int
	}
	var cs []cand
	for q, ids := range g.byQual {
		if len(ids) == 0 || g.ents[ids[0]].d == nil {
			continue
		}
		last := strings.ToLower(q[strings.LastIndexAny(q, ".#")+1:])
		s := -1
		switch {
		case last == want:
			s = 0
		case want != "" && (strings.Contains(last, want) || strings.Contains(want, last) && len(last) >= 3):
			s = 1 + abs(len(last)-len(want))
		default:
			if d := levenshtein(last, want, 3); d <= 2 {
				s = 10 + d
			}
		}
		if s >= 0 {
			cs = append(cs, cand{q, s})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score < cs[j].score
		}
		if len(cs[i].q) != len(cs[j].q) {
			return len(cs[i].q) < len(cs[j].q)
		}
		return cs[i].q < cs[j].q
	})
	var out []string
	for _, c := range cs {
		out = append(out, c.q)
		if len(out) == 5 {
			break
		}
	}
	return out
}

func closePaths(files map[string]*fileRec, rel string) []string {
	_, want := splitPath(rel)
	want = strings.ToLower(want)
	type cand struct {
		p     string
		score int
	}
	var cs []cand
	for p := range files {
		_, b := splitPath(p)
		b = strings.ToLower(b)
		s := -1
		switch {
		case b == want:
			s = 0
		case strings.Contains(b, strings.TrimSuffix(want, path.Ext(want))):
			s = 1
		default:
			if d := levenshtein(b, want, 3); d <= 2 {
				s = 2 + d
			}
		}
		if s >= 0 {
			cs = append(cs, cand{p, s})
		}
	}
	sort.Slice(cs, func(i, j int) bool {
		if cs[i].score != cs[j].score {
			return cs[i].score < cs[j].score
		}
		return cs[i].p < cs[j].p
	})
	var out []string
	for _, c := range cs {
		out = append(out, c.p)
		if len(out) == 5 {
			break
		}
	}
	return out
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// levenshtein is the edit distance, giving up (returning limit) once it is
// certainly at least limit.
func levenshtein(a, b string, limit int) int {
	if abs(len(a)-len(b)) >= limit {
		return limit
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
			rowMin = min(rowMin, cur[j])
		}
		if rowMin >= limit {
			return limit
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
