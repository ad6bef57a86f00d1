// inspect.go assembles a Result: InspectEntity (method and one-shot
// function) and Enclosing, the stop-location helper for the debugger's MCP
// moving tools. Relationship lists are {symbol, path} pairs ranked by how
// connected the neighbour is and cut to max_neighbors.

package code

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/safefile"
)

// InspectEntity opens (or refreshes) the index of repoRoot with default
// options and inspects one entity. Long-lived callers should Open once and
// call Index.InspectEntity instead.
func InspectEntity(repoRoot string, q Query) (*Result, error) {
	ix, err := Open(repoRoot, Options{})
	if err != nil {
		return nil, err
	}
	return ix.InspectEntity(q)
}

// InspectEntity describes the entity q names. Errors are *errcode.Error.
func (ix *Index) InspectEntity(q Query) (*Result, error) {
	ix.mu.RLock()
	g, files := ix.g, ix.files
	ix.mu.RUnlock()
	t, err := ix.resolve(g, files, q)
	if err != nil {
		return nil, err
	}
	maxN := q.MaxNeighbors
	if maxN == 0 {
		maxN = ix.opts.MaxNeighbors
	}
	abs := filepath.Join(ix.root, filepath.FromSlash(t.path))
	src, truncated, err := readSource(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errorf(errcode.NotFound, nil, "file %q no longer exists; refresh the index", t.path)
		}
		return nil, errorf(errcode.IndexError, nil, "read %s: %v", t.path, err)
	}
	if truncated && q.IncludeFullSource {
		return nil, errorf(errcode.InvalidArgument, nil, "%s is larger than %d MiB; full source is not available (ask without include_full_source)", t.path, maxReadBytes>>20)
	}
	if t.id < 0 && len(src) > 0 && strings.IndexByte(string(src[:min(len(src), 8192)]), 0) >= 0 {
		return nil, errorf(errcode.InvalidArgument, nil, "%s is a binary file", t.path)
	}
	lines := splitLines(string(src))
	fr := files[t.path]
	r := &Result{
		Path: t.path, SourceMode: t.mode,
		DefinedSymbols: []DefinedSymbol{}, Parents: []Ref{}, Children: []Ref{},
		IncomingCalls: []Ref{}, OutgoingCalls: []Ref{}, RelatedTests: []Ref{}, RelatedDocs: []Ref{},
		Enrichment: Enrichment{Inputs: []string{}, Outputs: []string{}, SideEffects: []string{}, Pitfalls: []string{}},
	}
	if q.IncludeFullSource {
		s := string(src)
		r.FullSource = &s
	}
	r.Provenance = ix.provenance(t.path, fr)
	r.FileSummary = fileSummary(g, fr, t.path, len(lines))

	if t.id < 0 || fr == nil || (fr.Err != "" && len(fr.Defs) == 0) {
		// Not in the graph: still a snippet, no relationships, no error.
		r.SourceMode = ModeFile
		r.Symbol, r.Kind = t.path, "file"
		r.Snippet, _ = fileSnippet(lines, nil)
		r.PrimarySpan = [2]int{min(1, len(lines)), len(lines)}
		r.GraphStatus = GraphNotIndexed
		if truncated {
			r.FileSummary += fmt.Sprintf(" (larger than %d MiB: only its head was read)", maxReadBytes>>20)
		}
		if fr != nil && fr.Err != "" {
			r.FileSummary += " (not parsed: " + fr.Err + ")"
		}
		return r, nil
	}
	e := &g.ents[t.id]
	r.Symbol, r.Kind = e.qual, e.kind
	ref := func(id int32) Ref { return Ref{Symbol: g.ents[id].qual, Path: g.ents[id].file.Path} }
	take := func(ids []int32) []Ref {
		out := make([]Ref, 0, min(len(ids), maxN))
		for _, id := range ids {
			if len(out) == maxN {
				break
			}
			r := ref(id)
			if !slices.Contains(out, r) { // overloads share a symbol
				out = append(out, r)
			}
		}
		return out
	}
	refs := func(ids []int32) []Ref { return take(g.rank(ids, len(ids))) }
	var in, out, tests, docs []int32
	if t.mode == ModeSymbol {
		r.PrimarySpan = [2]int{e.start, e.end}
		r.Snippet = symbolSnippet(lines, e.start, e.end, e.d.DocSpan)
		// What the entity defines (the entity itself is symbol/kind/summary).
		r.DefinedSymbols = g.defined(g.rank(g.descendants(t.id), 10))
		var parents []int32
		for p := e.parent; p >= 0 && len(parents) < maxN; p = g.ents[p].parent {
			parents = append(parents, p)
		}
		for _, p := range parents {
			r.Parents = append(r.Parents, ref(p))
		}
		r.Children = refs(e.children)
		members := append([]int32{t.id}, g.descendants(t.id)...)
		in, out, tests, docs = g.aggregate(members)
		if e.file.Lang == "markdown" {
			out = e.mentions
		}
		if e.kind == "test" {
			out = mergeIDs(out, e.subjects)
		}
	} else {
		r.PrimarySpan = [2]int{min(1, len(lines)), len(lines)}
		var tops []int32
		var spans []span
		for _, id := range g.fileDefs[t.path] {
			de := &g.ents[id]
			if de.parent == t.id {
				tops = append(tops, id)
			}
			// The outline shows top-level definitions and the methods of
			// top-level classes.
			if de.parent == t.id || (de.parent >= 0 && g.ents[de.parent].parent == t.id && g.ents[de.parent].kind == "class") {
				spans = append(spans, span{start: de.start, end: de.end, doc: de.d.DocSpan[0]})
			}
		}
		sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
		r.Snippet, _ = fileSnippet(lines, spans)
		r.DefinedSymbols = g.defined(g.rank(tops, 10))
		if pp := g.parentPackage(e.file); pp >= 0 {
			r.Parents = append(r.Parents, ref(pp))
		}
		r.Children = refs(tops)
		members := append([]int32{t.id}, g.fileDefs[t.path]...)
		in, out, tests, docs = g.aggregate(members)
		if e.file.Lang == "markdown" {
			for _, m := range members {
				out = mergeIDs(out, g.ents[m].mentions)
			}
		}
		tests = mergeIDs(tests, g.testFilesFor(e.file))
	}
	r.IncomingCalls = refs(in)
	r.OutgoingCalls = refs(out)
	r.RelatedTests = take(g.rankTests(t.id, g.rank(tests, len(tests))))
	r.RelatedDocs = refs(docs)
	r.Enrichment = g.enrich(t.id)
	if len(in)+len(out)+len(tests)+len(docs) > 0 {
		r.GraphStatus = GraphConnected
	} else {
		r.GraphStatus = GraphIsolated
	}
	return r, nil
}

// Enclosing names the innermost code definition covering path:line (path
// may be absolute inside the repository, as debuggers report it; a line at
// module level gives the module) and up to MaxNeighbors of its callers.
// ok is false when the location is outside the index.
func (ix *Index) Enclosing(path string, line int) (symbol string, callers []Ref, ok bool) {
	rel, ok := ix.RelPath(path)
	if !ok {
		return "", nil, false
	}
	ix.mu.RLock()
	g := ix.g
	ix.mu.RUnlock()
	fid, ok := g.fileEnt[rel]
	if !ok || g.ents[fid].file.Lang == "markdown" {
		return "", nil, false
	}
	id := g.innermost(rel, line)
	if id < 0 {
		id = fid
	}
	callers = []Ref{}
	for _, c := range g.rank(g.ents[id].in, ix.opts.MaxNeighbors) {
		callers = append(callers, Ref{Symbol: g.ents[c].qual, Path: g.ents[c].file.Path})
	}
	return g.ents[id].qual, callers, true
}

// rank orders ids by connectivity (non-test first), keeping the first n.
func (g *graph) rank(ids []int32, n int) []int32 {
	cp := append([]int32(nil), ids...)
	sort.SliceStable(cp, func(i, j int) bool {
		a, b := &g.ents[cp[i]], &g.ents[cp[j]]
		if a.isTest() != b.isTest() {
			return !a.isTest()
		}
		return a.degree() > b.degree()
	})
	if len(cp) > n {
		cp = cp[:n]
	}
	return cp
}

func (g *graph) descendants(id int32) []int32 {
	var out []int32
	var walk func(int32)
	walk = func(x int32) {
		for _, c := range g.ents[x].children {
			out = append(out, c)
			walk(c)
		}
	}
	walk(id)
	return out
}

func (g *graph) defined(ids []int32) []DefinedSymbol {
	out := make([]DefinedSymbol, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if len(out) == 10 {
			break
		}
		e := &g.ents[id]
		if seen[e.qual] {
			continue
		}
		seen[e.qual] = true
		ds := DefinedSymbol{Name: e.qual, Line: e.start, Type: e.kind}
		if e.d != nil {
			ds.Summary = firstSentence(e.d.Doc)
		}
		out = append(out, ds)
	}
	return out
}

// aggregate collects the relationships of a group of entities (a class and
// its methods, or a file's definitions), leaving out those inside the group.
func (g *graph) aggregate(members []int32) (in, out, tests, docs []int32) {
	inside := make(map[int32]bool, len(members))
	for _, m := range members {
		inside[m] = true
	}
	seen := map[int32]bool{}
	pick := func(dst []int32, ids []int32) []int32 {
		for _, id := range ids {
			if !inside[id] && !seen[id] {
				seen[id] = true
				dst = append(dst, id)
			}
		}
		return dst
	}
	for _, m := range members {
		in = pick(in, g.ents[m].in)
	}
	clear(seen)
	for _, m := range members {
		out = pick(out, g.ents[m].out)
	}
	clear(seen)
	for _, m := range members {
		tests = pick(tests, g.ents[m].tests)
	}
	clear(seen)
	for _, m := range members {
		docs = pick(docs, g.ents[m].docs)
	}
	return
}

func mergeIDs(a, b []int32) []int32 {
	for _, x := range b {
		if !containsID(a, x) {
			a = append(a, x)
		}
	}
	return a
}

// parentPackage is the enclosing Python package's __init__ module.
func (g *graph) parentPackage(fr *fileRec) int32 {
	if fr.Lang != "python" || fr.Module == "" {
		return -1
	}
	mod := fr.Module
	if strings.HasSuffix(fr.Path, "/__init__.py") || fr.Path == "__init__.py" {
		i := strings.LastIndexByte(mod, '.')
		if i < 0 {
			return -1
		}
		mod = mod[:i]
	} else if i := strings.LastIndexByte(mod, '.'); i >= 0 {
		mod = mod[:i]
	} else {
		return -1
	}
	if p, ok := g.pyMods[mod]; ok {
		return g.fileEnt[p]
	}
	return -1
}

// testFilesFor finds test files named after a source file: core.py ->
// test_core.py / core_test.py; x.go -> x_test.go in the same directory;
// calc.js -> calc.test.js, calc.spec.ts anywhere.
func (g *graph) testFilesFor(fr *fileRec) []int32 {
	dir, base := splitPath(fr.Path)
	var names []string
	switch fr.Lang {
	case "go":
		if strings.HasSuffix(base, "_test.go") {
			return nil
		}
		p := strings.TrimSuffix(base, ".go") + "_test.go"
		if dir != "" {
			p = dir + "/" + p
		}
		if id, ok := g.fileEnt[p]; ok {
			return []int32{id}
		}
		return nil
	case "javascript", "typescript":
		if fr.Kind == "test" {
			return nil
		}
		var out []int32
		for _, p := range g.jsTests[jsSubjectStem(fr.Path)] {
			out = append(out, g.fileEnt[p])
		}
		return out
	case "python":
		if fr.Kind == "test" {
			return nil
		}
		stem := strings.TrimSuffix(base, ".py")
		names = []string{"test_" + stem, stem + "_test"}
	default:
		return nil
	}
	var out []int32
	for _, n := range names {
		for _, mod := range g.pyModsByLast[n] {
			out = append(out, g.fileEnt[g.pyMods[mod]])
		}
	}
	return out
}

func fileSummary(g *graph, fr *fileRec, rel string, nLines int) string {
	if fr == nil {
		return fmt.Sprintf("%s file, %d lines, not indexed", fileKind(rel, ""), nLines)
	}
	counts := map[string]int{}
	top := 0
	if fid, ok := g.fileEnt[rel]; ok {
		for _, id := range g.fileDefs[rel] {
			counts[g.ents[id].kind]++
			if g.ents[id].parent == fid {
				top++
			}
		}
	}
	var parts []string
	for _, k := range []string{"class", "struct", "interface", "type", "function", "method", "test", "doc-section"} {
		if n := counts[k]; n > 0 {
			name := k
			switch {
			case n == 1:
			case k == "class":
				name = "classes"
			default:
				name += "s"
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, name))
		}
	}
	lang := map[string]string{"python": "Python module " + fr.Module, "go": "Go package " + fr.Module, "markdown": "Markdown document",
		"javascript": "JavaScript module " + fr.Module, "typescript": "TypeScript module " + fr.Module,
		"rust": "Rust file", "c": "C file", "cpp": "C++ file"}[fr.Lang]
	s := fmt.Sprintf("%s, %d lines", lang, nLines)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if doc := firstSentence(fr.Doc); doc != "" {
		s = doc + " — " + s
	}
	return s
}

// maxReadBytes bounds how much of a file InspectEntity reads; larger
// (never indexed) files are shown from their first headBytes only.
const (
	maxReadBytes = 8 << 20
	headBytes    = 256 << 10
)

// readSource reads a file, or only its head (whole lines) when it is larger
// than maxReadBytes.
// Only a regular file is read, and what was read decides, never Stat's
// size (internal/safefile).
func readSource(abs string) (src []byte, truncated bool, err error) {
	src, more, err := safefile.Head(abs, maxReadBytes)
	if err != nil || !more {
		return src, false, err
	}
	buf := src[:headBytes]
	if i := bytes.LastIndexByte(buf, '\n'); i >= 0 {
		buf = buf[:i+1]
	}
	return buf, true, nil
}
