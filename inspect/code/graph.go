// graph.go links the per-file records into the in-memory code graph:
// entities (modules, definitions, doc sections) with containment, resolved
// calls (same module, imports and re-exports, self/receiver methods, typed
// parameters and locals), tests -> subjects (name conventions and calls from
// test files) and docs -> symbols (code mentions in Markdown).

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
	// pyModsByLast maps a module's last component to the modules, sorted.
	pyModsByLast map[string][]string
	goLocal      map[string]int32 // Go dir + "\x00" + local name -> entity
	goDirs       map[string]bool
	goMod        string

	// classAttrs maps a class/struct to its typed attributes / fields.
	classAttrs map[int32]map[string]attrSrc

	// pyNames holds the last component of every non-test Python
	// definition: test-name candidates not in it are skipped.
	pyNames map[string]bool
}

func buildGraph(files map[string]*fileRec, goMod string) *graph {
	g := &graph{
		byQual:  make(map[string][]int32, 4*len(files)),
		fileEnt: map[string]int32{}, fileDefs: map[string][]int32{},
		pyMods: map[string]string{}, pyModsByLast: map[string][]string{}, goLocal: map[string]int32{}, goDirs: map[string]bool{},
		goMod: goMod,
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	// Entities.
	for _, p := range paths {
		fr := files[p]
		fid := int32(len(g.ents))
		fe := entity{file: fr, parent: -1, start: 1, end: max(fr.Lines, 1)}
		switch fr.Lang {
		case "python":
			fe.qual, fe.kind = fr.Module, "module"
			if fr.Module != "" {
				if _, dup := g.pyMods[fr.Module]; !dup {
					g.pyMods[fr.Module] = p
					last := fr.Module[strings.LastIndexByte(fr.Module, '.')+1:]
					g.pyModsByLast[last] = append(g.pyModsByLast[last], fr.Module)
				}
			}
		case "go":
			fe.qual, fe.kind = fr.Module, "package"
			g.goDirs[fr.Dir] = true
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
			if fr.Lang == "go" {
				k := fr.Dir + "\x00" + d.Name
				if old, ok := g.goLocal[k]; !ok || (g.ents[old].file.Kind == "test" && fr.Kind != "test") {
					g.goLocal[k] = id
				}
			}
		}
	}
	// Go methods may live in another file than their type: attach them.
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
	// Typed attributes (self.x = T(...), x: T, Go struct fields), for calls
	// like self.x.method().
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
	// Calls: resolved in parallel (read-only), edges added in id order.
	g.pyNames = map[string]bool{}
	for id := range g.ents {
		if e := &g.ents[id]; e.d != nil && e.file.Lang == "python" && !e.isTest() {
			g.pyNames[e.d.Name[strings.LastIndexByte(e.d.Name, '.')+1:]] = true
		}
	}
	var byName [][]int32
	targets := g.parallel(len(files), func(l *linker, id int32) []int32 {
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
	// Tests -> subjects: names in parallel, then calls, in id order.
	byName = g.parallel(len(files), func(l *linker, id int32) []int32 {
		if g.ents[id].kind != "test" {
			return nil
		}
		return l.testsByName(id)
	})
	for id := range g.ents {
		e := &g.ents[id]
		if e.kind != "test" {
			continue
		}
		add := func(t int32) {
			if t < 0 || g.ents[t].isTest() || containsID(e.subjects, t) {
				return
			}
			e.subjects = append(e.subjects, t)
			g.ents[t].tests = append(g.ents[t].tests, int32(id))
		}
		for _, t := range byName[id] {
			add(t)
		}
		for _, t := range e.out {
			add(t)
			// One level through helpers defined in test files
			// (runCLI(t, ...) -> the command under test).
			if h := &g.ents[t]; h.isTest() && h.kind != "test" {
				for _, t2 := range h.out {
					add(t2)
				}
			}
		}
	}
	// Docs -> symbols.
	for id := range g.ents {
		e := &g.ents[id]
		if e.file.Lang != "markdown" {
			continue
		}
		var ms []string
		if e.d != nil {
			ms = e.d.Mentions
		} else {
			ms = e.file.Mentions
		}
		for _, m := range ms {
			for _, t := range g.mentionTargets(m) {
				if !containsID(e.mentions, t) {
					e.mentions = append(e.mentions, t)
					g.ents[t].docs = append(g.ents[t].docs, int32(id))
				}
			}
		}
	}
	return g
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

// resolveCall maps one call site of entity from to its target, or -1.
func (g *linker) resolveCall(from int32, c call) int32 {
	if c.Name == "" || strings.HasPrefix(c.Name, "?") {
		return -1
	}
	if g.ents[from].file.Lang == "go" {
		return g.resolveGoCall(from, c)
	}
	return g.resolvePyCall(from, c)
}

func (g *linker) resolvePyCall(from int32, c call) int32 {
	parts := strings.Split(c.Name, ".")
	switch {
	case c.Recv == "@self" || parts[0] == "super()":
		cls := g.enclosingClass(from)
		if cls < 0 || len(parts) < 2 {
			return -1
		}
		if parts[0] == "super()" {
			if len(parts) != 2 {
				return -1
			}
			for _, b := range g.ents[cls].d.Bases {
				if bc := g.resolvePyName(cls, strings.Split(b, "."), 0); bc >= 0 {
					if m := g.findMethod(bc, parts[1], 0); m >= 0 {
						return m
					}
				}
			}
			return -1
		}
		return g.memberCall(cls, parts[1:])
	case c.Recv != "":
		if len(parts) < 2 {
			return -1
		}
		cls := g.pyRecvClass(from, c.Recv)
		if cls < 0 || g.ents[cls].kind != "class" {
			return -1
		}
		return g.memberCall(cls, parts[1:])
	}
	return g.resolvePyName(from, parts, 0)
}

// resolvePyName resolves a dotted name as seen from entity from: enclosing
// function scopes, the module, then its imports (following re-exports).
func (g *linker) resolvePyName(from int32, parts []string, depth int) int32 {
	if depth > 6 || len(parts) == 0 {
		return -1
	}
	fr := g.ents[from].file
	// Enclosing function scopes (nested defs), innermost first.
	for p := from; p >= 0 && g.ents[p].d != nil; p = g.ents[p].parent {
		if g.ents[p].kind == "class" {
			continue // class bodies are not enclosing scopes for names
		}
		if id := g.pyLocal(fr.Module, g.ents[p].d.Name+"."+parts[0]); id >= 0 {
			return g.descend(id, parts[1:])
		}
	}
	if id := g.pyLocal(fr.Module, parts[0]); id >= 0 {
		return g.descend(id, parts[1:])
	}
	return g.resolveViaImports(fr, parts, depth)
}

func (g *linker) resolveViaImports(fr *fileRec, parts []string, depth int) int32 {
	k := fr.Path + "\x00" + strings.Join(parts, ".")
	if id, ok := g.memoImport[k]; ok {
		return id
	}
	id := g.resolveViaImportsSlow(fr, parts, depth)
	g.memoImport[k] = id
	return id
}

func (g *linker) resolveViaImportsSlow(fr *fileRec, parts []string, depth int) int32 {
	for i := len(fr.Imports) - 1; i >= 0; i-- {
		im := fr.Imports[i]
		if im.Name == parts[0] {
			target := im.Target
			if len(parts) > 1 {
				target += "." + strings.Join(parts[1:], ".")
			}
			return g.resolvePyQualified(target, depth+1)
		}
	}
	for _, im := range fr.Imports {
		if im.Name == "*" {
			if id := g.pyLocal(im.Target, parts[0]); id >= 0 {
				return g.descend(id, parts[1:])
			}
		}
	}
	return -1
}

// resolvePyQualified resolves "pkg.mod.Name.attr": the longest module
// prefix, then definitions inside it, then that module's own imports.
func (g *linker) resolvePyQualified(q string, depth int) int32 {
	if depth > 6 {
		return -1
	}
	if id, ok := g.memoQual[q]; ok {
		return id
	}
	id := g.resolvePyQualifiedSlow(q, depth)
	g.memoQual[q] = id
	return id
}

func (g *linker) resolvePyQualifiedSlow(q string, depth int) int32 {
	parts := strings.Split(q, ".")
	for i := len(parts); i >= 1; i-- {
		mod := strings.Join(parts[:i], ".")
		p, ok := g.pyMods[mod]
		if !ok {
			continue
		}
		rest := parts[i:]
		if len(rest) == 0 {
			return g.fileEnt[p]
		}
		if id := g.pyLocal(mod, rest[0]); id >= 0 {
			return g.descend(id, rest[1:])
		}
		// A submodule not imported explicitly: pkg.sub.f
		if _, ok := g.pyMods[mod+"."+rest[0]]; ok {
			continue
		}
		return g.resolveViaImports(g.ents[g.fileEnt[p]].file, rest, depth)
	}
	return -1
}

func (g *graph) pyLocal(module, local string) int32 {
	ids := g.byQual[qualifyPy(module, local)]
	for i := len(ids) - 1; i >= 0; i-- { // the last binding wins, as in Python
		id := ids[i]
		if g.ents[id].file.Lang == "python" && g.ents[id].file.Module == module && g.ents[id].d != nil {
			return id
		}
	}
	return -1
}

func qualifyPy(module, local string) string {
	if module == "" {
		return local
	}
	return module + "." + local
}

// descend follows attribute names into a class (methods, nested classes).
func (g *linker) descend(id int32, rest []string) int32 {
	for _, name := range rest {
		e := &g.ents[id]
		if e.d == nil { // a module entity reached through an import
			if e.file.Lang == "python" {
				n := g.pyLocal(e.file.Module, name)
				if n < 0 {
					return -1
				}
				id = n
				continue
			}
			return -1
		}
		if e.kind != "class" {
			return -1
		}
		m := g.findMethod(id, name, 0)
		if m < 0 {
			return -1
		}
		id = m
	}
	return id
}

// findMethod looks name up in class cls and then its bases (Python) or
// embedded types (Go).
func (g *linker) findMethod(cls int32, name string, depth int) int32 {
	if depth > 5 || cls < 0 {
		return -1
	}
	e := &g.ents[cls]
	if e.d == nil {
		return -1
	}
	if e.file.Lang == "go" {
		if id, ok := g.goLocal[e.file.Dir+"\x00"+e.d.Name+"."+name]; ok {
			return id
		}
		for _, b := range e.d.Bases {
			if bt := g.goType(e.file, b); bt >= 0 {
				if m := g.findMethod(bt, name, depth+1); m >= 0 {
					return m
				}
			}
		}
		return -1
	}
	ids := g.byQual[e.qual+"."+name]
	for i := len(ids) - 1; i >= 0; i-- { // the last binding wins
		if g.ents[ids[i]].parent == cls {
			return ids[i]
		}
	}
	for _, b := range e.d.Bases {
		if bc := g.resolvePyName(cls, strings.Split(b, "."), 0); bc >= 0 && bc != cls && g.ents[bc].kind == "class" {
			if m := g.findMethod(bc, name, depth+1); m >= 0 {
				return m
			}
		}
	}
	return -1
}

// Go.

func (g *graph) goImportDir(fr *fileRec, alias string) (string, bool) {
	for _, im := range fr.Imports {
		if im.Name == alias {
			if g.goDirs[im.Target] {
				return im.Target, true
			}
			for d := range g.goDirs {
				if d != "" && strings.HasSuffix(im.Target, "/"+d) {
					return d, true
				}
			}
			return "", false
		}
	}
	return "", false
}

// goType resolves a type name ("T" or "pkg.T") seen from file fr.
func (g *graph) goType(fr *fileRec, name string) int32 {
	dir := fr.Dir
	if a, t, ok := strings.Cut(name, "."); ok {
		d, ok := g.goImportDir(fr, a)
		if !ok {
			return -1
		}
		dir, name = d, t
	}
	if id, ok := g.goLocal[dir+"\x00"+name]; ok {
		return id
	}
	return -1
}

func (g *linker) resolveGoCall(from int32, c call) int32 {
	fr := g.ents[from].file
	parts := strings.Split(c.Name, ".")
	if c.Recv != "" && len(parts) >= 2 {
		var cls int32 = -1
		switch {
		case c.Recv == "@self":
			cls = g.enclosingClass(from)
		case strings.HasPrefix(c.Recv, "()"):
			cls = g.goResultType(from, c.Recv[2:])
		default:
			cls = g.goType(fr, c.Recv)
		}
		return g.memberCall(cls, parts[1:])
	}
	switch len(parts) {
	case 1:
		if id, ok := g.goLocal[fr.Dir+"\x00"+parts[0]]; ok {
			return id
		}
	case 2:
		if d, ok := g.goImportDir(fr, parts[0]); ok {
			if id, ok := g.goLocal[d+"\x00"+parts[1]]; ok {
				return id
			}
			return -1
		}
		// Method expression T.M or a call through a package-level variable.
		if id, ok := g.goLocal[fr.Dir+"\x00"+parts[0]+"."+parts[1]]; ok {
			return id
		}
	}
	return -1
}

// testsByName finds the subjects a test names: test_add / test_add_negative
// -> add; TestCalculator.test_total -> Calculator.total; Go TestAcc_Add ->
// Acc.Add, TestSum -> Sum. Only names visible from the test file (its own
// module, its imports, the module the test file is named after, or the same
// Go package) count.
func (g *linker) testsByName(id int32) []int32 {
	e := &g.ents[id]
	fr := e.file
	local := e.d.Name
	last := local[strings.LastIndexByte(local, '.')+1:]
	var out []int32
	if fr.Lang == "go" {
		base := last
		for _, p := range []string{"Test", "Benchmark", "Fuzz", "Example"} {
			if b, ok := strings.CutPrefix(last, p); ok {
				base = strings.TrimPrefix(b, "_")
				break
			}
		}
		if base == "" {
			return nil
		}
		segs := strings.Split(base, "_")
		for n := len(segs); n >= 1; n-- {
			if id, ok := g.goLocal[fr.Dir+"\x00"+strings.Join(segs[:n], ".")]; ok && !g.ents[id].isTest() {
				return []int32{id}
			}
		}
		return nil
	}
	base := strings.TrimPrefix(strings.TrimPrefix(last, "test"), "_")
	var cls string
	if p := e.parent; p >= 0 && g.ents[p].d != nil && g.ents[p].kind == "class" {
		cls = strings.TrimPrefix(g.ents[p].d.Name[strings.LastIndexByte(g.ents[p].d.Name, '.')+1:], "Test")
	}
	// Modules named after the test file: tests/test_core.py -> *.core.
	_, fbase := splitPath(fr.Path)
	subjMod := strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(fbase, ".py"), "test_"), "_test")
	lookup := func(name string) int32 {
		if !g.pyNames[name[strings.LastIndexByte(name, '.')+1:]] {
			return -1
		}
		parts := strings.Split(name, ".")
		if t := g.resolvePyName(id, parts, 0); t >= 0 && !g.ents[t].isTest() {
			return t
		}
		for _, mod := range g.pyModsByLast[subjMod] {
			if t := g.pyLocal(mod, parts[0]); t >= 0 {
				if t = g.descend(t, parts[1:]); t >= 0 && !g.ents[t].isTest() {
					return t
				}
			}
		}
		return -1
	}
	segs := strings.Split(base, "_")
	for n := len(segs); n >= 1; n-- {
		name := strings.Join(segs[:n], "_")
		if name == "" {
			continue
		}
		if cls != "" {
			if t := lookup(cls + "." + name); t >= 0 {
				return append(out, t)
			}
		}
		if t := lookup(name); t >= 0 {
			return append(out, t)
		}
	}
	if cls != "" {
		if t := lookup(cls); t >= 0 {
			out = append(out, t)
		}
	}
	return out
}

// mentionTargets maps a Markdown mention to at most three code entities.
func (g *graph) mentionTargets(m string) []int32 {
	m = strings.TrimSuffix(m, "()")
	if len(m) < 3 {
		return nil
	}
	pick := func(ids []int32) []int32 {
		var out []int32
		for _, id := range ids {
			e := &g.ents[id]
			if e.file.Lang == "markdown" || e.isTest() {
				continue
			}
			out = append(out, id)
		}
		if len(out) == 0 || len(out) > 3 {
			return nil
		}
		return out
	}
	if ids := pick(g.byQual[m]); ids != nil {
		return ids
	}
	return pick(g.suffixes()[m])
}

// pyRecvClass resolves the class of a receiver: a type name, or "()f" for a
// value returned by f (a class called as a constructor, or a function whose
// return annotation names a class).
func (g *linker) pyRecvClass(from int32, recv string) int32 {
	fn, ok := strings.CutPrefix(recv, "()")
	if !ok {
		return g.resolvePyName(from, strings.Split(recv, "."), 0)
	}
	t := g.resolvePyCall(from, call{Name: fn})
	if t < 0 || g.ents[t].d == nil {
		return -1
	}
	if g.ents[t].kind == "class" {
		return t
	}
	ret := strings.Trim(g.ents[t].d.Returns, `"' `)
	if ret == "" || !isDotted(ret) {
		return -1
	}
	return g.resolvePyName(t, strings.Split(ret, "."), 0)
}

// goResultType resolves the type of the first result of calling fn.
func (g *linker) goResultType(from int32, fn string) int32 {
	t := g.resolveGoCall(from, call{Name: fn})
	if t < 0 || g.ents[t].d == nil {
		return -1
	}
	d := g.ents[t].d
	switch d.Kind {
	case "struct", "type", "interface":
		return t
	}
	ret := strings.TrimPrefix(d.Returns, "(")
	ret, _, _ = strings.Cut(ret, ",")
	ret = strings.TrimLeft(strings.TrimSpace(strings.TrimSuffix(ret, ")")), "*")
	if ret == "" || !isDotted(ret) {
		return -1
	}
	return g.goType(g.ents[t].file, ret)
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
			for i := strings.IndexByte(q, '.'); i >= 0; i = strings.IndexByte(q, '.') {
				q = q[i+1:]
				m[q] = append(m[q], int32(id))
			}
		}
		g.bySuffix = m
	})
	return g.bySuffix
}

type attrSrc struct {
	typ   string
	owner int32 // the definition whose scope resolves typ
}

// memberCall resolves rest (["x", "y", "method"]) on class cls: attribute
// hops through typed attributes, then the method.
func (g *linker) memberCall(cls int32, rest []string) int32 {
	for len(rest) > 1 && cls >= 0 {
		if len(rest) > 4 {
			return -1
		}
		cls = g.attrClass(cls, rest[0], 0)
		rest = rest[1:]
	}
	if cls < 0 || len(rest) != 1 {
		return -1
	}
	return g.findMethod(cls, rest[0], 0)
}

// attrClass is the class of attribute name on cls (or its bases).
func (g *linker) attrClass(cls int32, name string, depth int) int32 {
	if cls < 0 || depth > 3 || g.ents[cls].d == nil {
		return -1
	}
	e := &g.ents[cls]
	if a, ok := g.classAttrs[cls][name]; ok {
		var t int32
		if e.file.Lang == "go" {
			if fn, ok := strings.CutPrefix(a.typ, "()"); ok {
				t = g.goResultType(a.owner, fn)
			} else {
				t = g.goType(g.ents[a.owner].file, a.typ)
			}
		} else {
			t = g.pyRecvClass(a.owner, a.typ)
		}
		if t >= 0 && g.ents[t].d != nil {
			switch g.ents[t].kind {
			case "class", "struct", "type", "interface":
				return t
			}
		}
		return -1
	}
	for _, b := range e.d.Bases {
		var bc int32
		if e.file.Lang == "go" {
			bc = g.goType(e.file, b)
		} else {
			bc = g.resolvePyName(cls, strings.Split(b, "."), 0)
		}
		if bc >= 0 && bc != cls {
			if t := g.attrClass(bc, name, depth+1); t >= 0 {
				return t
			}
		}
	}
	return -1
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
