// graph.go links the per-file records into the in-memory code graph:
// entities (modules, definitions, doc sections) with containment, resolved
// calls (same module, imports and re-exports, self/receiver methods, typed
// parameters and locals), tests -> subjects (name conventions and calls from
// test files) and docs -> symbols (code mentions in Markdown). buildGraph
// is the list of phases; the resolvers and the test and doc phases live
// beside it: link_python.go, link_go.go, link_javascript.go,
// link_tests.go and link_docs.go.

package code

import (
	"runtime"
	"sort"
	"strings"
	"sync"
)

type entity struct {
	file     *fileRec
	d        *def // nil for the file/module entity
	qual     string
	kind     string
	start    int
	end      int
	parent   int32
	children []int32
	out      []int32 // resolved callees, first occurrence order, unique
	in       []int32 // callers, unique
	tests    []int32 // test entities exercising this one
	subjects []int32 // for tests: what they exercise
	docs     []int32 // doc sections mentioning this one
	mentions []int32 // for doc sections: what they mention
}

func (e *entity) isTest() bool { return e.kind == "test" || e.file.Kind == "test" }

func (e *entity) degree() int {
	return len(e.in) + len(e.out) + len(e.tests) + len(e.docs) + len(e.children) + len(e.subjects) + len(e.mentions)
}

type graph struct {
	ents   []entity
	byQual map[string][]int32 // qualified symbol -> entities
	// bySuffix maps every dotted suffix of a qualified symbol to its
	// entities; built on first use (see suffixes).
	bySuffix   map[string][]int32
	suffixOnce sync.Once
	fileEnt    map[string]int32   // path -> file/module entity
	fileDefs   map[string][]int32 // path -> definitions in source order
	pyMods     map[string]string  // Python dotted module -> path
	// pyModDups lists, for a module name several files share, those files
	// in path order (see pyModFile).
	pyModDups map[string][]string
	// pyModsByLast maps a module's last component to the modules, sorted.
	pyModsByLast map[string][]string
	goLocal      map[string]int32 // Go dir + "\x00" + local name -> entity
	goDirs       map[string]bool
	goMod        string

	// jsSubjects maps a JS/TS subject stem ("calc") to its code files and
	// jsTests to the test files named after it (calc.test.js, calc.spec.ts).
	jsSubjects map[string][]string
	jsTests    map[string][]string

	// classAttrs maps a class/struct to its typed attributes / fields.
	classAttrs map[int32]map[string]attrSrc

	// pyNames holds the last component of every non-test Python
	// definition: test-name candidates not in it are skipped.
	pyNames map[string]bool

	// nativeNames maps a Rust/C/C++ definition's local name ("f",
	// "Type.method", and ".method") to its entities, for calls across
	// files.
	nativeNames map[string][]int32
}

// buildGraph links the per-file records, phase by phase: entities, then
// containment, typed attributes, calls, tests and docs (each phase reads
// what the earlier ones built).
func buildGraph(files map[string]*fileRec, goMod string) *graph {
	g := &graph{
		byQual:  make(map[string][]int32, 4*len(files)),
		fileEnt: map[string]int32{}, fileDefs: map[string][]int32{},
		pyMods: map[string]string{}, pyModDups: map[string][]string{}, pyModsByLast: map[string][]string{}, goLocal: map[string]int32{}, goDirs: map[string]bool{}, nativeNames: map[string][]int32{},
		goMod: goMod, jsSubjects: map[string][]string{}, jsTests: map[string][]string{},
	}
	g.addEntities(files)
	g.linkContainment()
	g.collectAttrs()
	g.linkCalls(len(files))
	g.linkTests(len(files))
	g.linkDocs()
	return g
}

// addEntities adds one entity per file (module, package or document) and
// one per definition, in path order, and indexes them by qualified name.
func (g *graph) addEntities(files map[string]*fileRec) {
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		fr := files[p]
		fid := int32(len(g.ents))
		fe := entity{file: fr, parent: -1, start: 1, end: max(fr.Lines, 1)}
		switch fr.Lang {
		case "python":
			fe.qual, fe.kind = fr.Module, "module"
			if fr.Module != "" {
				if first, dup := g.pyMods[fr.Module]; dup {
					if g.pyModDups[fr.Module] == nil {
						g.pyModDups[fr.Module] = []string{first}
					}
					g.pyModDups[fr.Module] = append(g.pyModDups[fr.Module], p)
				} else {
					g.pyMods[fr.Module] = p
					last := fr.Module[strings.LastIndexByte(fr.Module, '.')+1:]
					g.pyModsByLast[last] = append(g.pyModsByLast[last], fr.Module)
				}
			}
		case "go":
			fe.qual, fe.kind = fr.Module, "package"
			g.goDirs[fr.Dir] = true
		case "rust", "c", "cpp":
			fe.qual, fe.kind = fr.Module, "module"
		case "javascript", "typescript":
			fe.qual, fe.kind = fr.Module, "module"
			stem := jsSubjectStem(p)
			if fr.Kind == "test" {
				g.jsTests[stem] = append(g.jsTests[stem], p)
			} else {
				g.jsSubjects[stem] = append(g.jsSubjects[stem], p)
			}
		default:
			fe.qual, fe.kind = fr.Path, "document"
		}
		g.ents = append(g.ents, fe)
		g.fileEnt[p] = fid
		if fe.qual != "" {
			g.byQual[fe.qual] = append(g.byQual[fe.qual], fid)
		}
		if fr.Lang != "go" && fe.qual != fr.Path {
			g.byQual[fr.Path] = append(g.byQual[fr.Path], fid)
		}
		if fr.Err != "" && len(fr.Defs) == 0 {
			continue
		}
		local := map[string]int32{}
		for i := range fr.Defs {
			d := &fr.Defs[i]
			id := int32(len(g.ents))
			e := entity{file: fr, d: d, kind: d.Kind, start: d.Start, end: d.End, parent: fid}
			e.qual = qualify(fr, d.Name)
			if d.Parent != "" {
				if pid, ok := local[d.Parent]; ok {
					e.parent = pid
				}
			}
			local[d.Name] = id // a later definition rebinds the name (overloads, if/else)
			g.ents = append(g.ents, e)
			g.fileDefs[p] = append(g.fileDefs[p], id)
			g.byQual[e.qual] = append(g.byQual[e.qual], id)
			if isNativeLang(fr.Lang) {
				g.nativeNames[d.Name] = append(g.nativeNames[d.Name], id)
				if i := strings.LastIndexByte(d.Name, '.'); i > 0 {
					g.nativeNames[d.Name[i:]] = append(g.nativeNames[d.Name[i:]], id)
				}
			}
			if fr.Lang == "go" {
				k := fr.Dir + "\x00" + d.Name
				if old, ok := g.goLocal[k]; !ok || (g.ents[old].file.Kind == "test" && fr.Kind != "test") {
					g.goLocal[k] = id
				}
			}
		}
	}
}

// linkContainment attaches Go methods declared in another file than their
// type, then fills every entity's children.
func (g *graph) linkContainment() {
	for id := range g.ents {
		e := &g.ents[id]
		if e.d != nil && e.file.Lang == "go" && e.d.Parent != "" && g.ents[e.parent].d == nil {
			if pid, ok := g.goLocal[e.file.Dir+"\x00"+e.d.Parent]; ok {
				e.parent = pid
			}
		}
	}
	for id := range g.ents {
		e := &g.ents[id]
		if e.parent >= 0 {
			g.ents[e.parent].children = append(g.ents[e.parent].children, int32(id))
		}
	}
}

// collectAttrs records the typed attributes of each class or struct
// (self.x = T(...), x: T, Go struct fields), for calls like self.x.method().
func (g *graph) collectAttrs() {
	g.classAttrs = map[int32]map[string]attrSrc{}
	for id := range g.ents {
		e := &g.ents[id]
		if e.d == nil || len(e.d.Attrs) == 0 {
			continue
		}
		cls := g.enclosingClass(int32(id))
		if cls < 0 {
			continue
		}
		m := g.classAttrs[cls]
		if m == nil {
			m = map[string]attrSrc{}
			g.classAttrs[cls] = m
		}
		for _, a := range e.d.Attrs {
			if _, dup := m[a.Name]; !dup {
				m[a.Name] = attrSrc{typ: a.Type, owner: int32(id)}
			}
		}
	}
}

// linkCalls resolves every entity's call sites in parallel (the graph is
// only read) and adds the edges in id order.
func (g *graph) linkCalls(files int) {
	targets := g.parallel(files, func(l *linker, id int32) []int32 {
		e := &g.ents[id]
		calls := e.file.Calls
		if e.d != nil {
			calls = e.d.Calls
		}
		var out []int32
		for _, c := range calls {
			if t := l.resolveCall(id, c); t >= 0 && t != id && !containsID(out, t) {
				out = append(out, t)
			}
		}
		return out
	})
	for id, ts := range targets {
		g.ents[id].out = ts
		for _, t := range ts {
			g.ents[t].in = append(g.ents[t].in, int32(id))
		}
	}
}

// qualify builds the qualified symbol of a local definition name.
func qualify(fr *fileRec, local string) string {
	switch fr.Lang {
	case "markdown":
		return fr.Path + "#" + local
	default:
		if fr.Module == "" {
			return local
		}
		return fr.Module + "." + local
	}
}

func containsID(xs []int32, x int32) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// enclosingClass walks up from id to the nearest class/type entity.
func (g *graph) enclosingClass(id int32) int32 {
	for id >= 0 {
		e := &g.ents[id]
		if e.d == nil {
			return -1
		}
		switch e.kind {
		case "class", "struct", "type", "interface":
			return id
		}
		id = e.parent
	}
	return -1
}

func isDotted(s string) bool {
	for i, r := range s {
		switch {
		case r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

// suffixes returns the dotted-suffix map, building it once. Lookups by a
// suffix ("DataFrame.merge") are the fallback of symbol resolution and of
// Markdown mentions, so repositories without docs never pay for it at Open.
func (g *graph) suffixes() map[string][]int32 {
	g.suffixOnce.Do(func() {
		m := make(map[string][]int32, 3*len(g.ents))
		for id := range g.ents {
			e := &g.ents[id]
			if e.file.Lang == "markdown" {
				continue
			}
			q := e.qual
			for i := strings.IndexAny(q, "./"); i >= 0; i = strings.IndexAny(q, "./") {
				q = q[i+1:]
				m[q] = append(m[q], int32(id))
			}
		}
		g.bySuffix = m
	})
	return g.bySuffix
}

// maxLinkWorkers bounds the linking workers (a variable for tests).
var maxLinkWorkers = 4

// linker resolves names while the graph is built. Each worker has its own
// memo of import resolutions; the graph itself is only read.
type linker struct {
	*graph
	memoQual   map[string]int32
	memoImport map[string]int32
}

func newLinker(g *graph, files int) *linker {
	return &linker{graph: g, memoQual: make(map[string]int32, 2*files), memoImport: make(map[string]int32, 8*files)}
}

// parallel runs fn(l, id) for every entity id on a few workers, each with
// its own linker, and returns the per-entity results in id order.
func (g *graph) parallel(files int, fn func(l *linker, id int32) []int32) [][]int32 {
	out := make([][]int32, len(g.ents))
	workers := min(runtime.GOMAXPROCS(0), maxLinkWorkers)
	if len(g.ents) < 2000 {
		workers = 1
	}
	var wg sync.WaitGroup
	chunk := (len(g.ents) + workers - 1) / workers
	for w := range workers {
		lo, hi := w*chunk, min((w+1)*chunk, len(g.ents))
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := newLinker(g, files/workers+1)
			for id := lo; id < hi; id++ {
				out[id] = fn(l, int32(id))
			}
		}()
	}
	wg.Wait()
	return out
}
