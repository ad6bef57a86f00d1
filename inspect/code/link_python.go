// link_python.go resolves Python calls for the code graph: names in the
// same module (including module-level code such as `if __name__ ==
// "__main__"` blocks), imports and re-exports, qualified names, methods
// through self/cls and receivers, and attribute types of classes.

package code

import (
	"strings"
)

// resolveCall maps one call site of entity from to its target, or -1.
func (g *linker) resolveCall(from int32, c call) int32 {
	if c.Name == "" || strings.HasPrefix(c.Name, "?") {
		return -1
	}
	switch g.ents[from].file.Lang {
	case "go":
		return g.resolveGoCall(from, c)
	case "javascript", "typescript":
		return g.resolveJSCall(from, c)
	case "rust", "c", "cpp":
		return g.resolveNativeCall(from, c)
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
		if id := g.fileLocal(fr, g.ents[p].d.Name+"."+parts[0]); id >= 0 {
			return g.descend(id, parts[1:], depth)
		}
	}
	if id := g.fileLocal(fr, parts[0]); id >= 0 {
		return g.descend(id, parts[1:], depth)
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
			return g.resolvePyQualified(target, fr, depth+1)
		}
	}
	for _, im := range fr.Imports {
		if im.Name == "*" {
			if p, ok := g.pyModFile(im.Target, fr); ok {
				if id := g.fileLocal(g.ents[g.fileEnt[p]].file, parts[0]); id >= 0 {
					return g.descend(id, parts[1:], depth)
				}
			}
		}
	}
	return -1
}

// resolvePyQualified resolves "pkg.mod.Name.attr", imported by file from:
// the longest module prefix, then definitions inside it, then that module's
// own imports.
func (g *linker) resolvePyQualified(q string, from *fileRec, depth int) int32 {
	if depth > 6 {
		return -1
	}
	k := q
	if g.sharedModulePrefix(q) {
		// Which file a shared module name means depends on the
		// importer's folder (see pyModFile).
		dir, _ := splitPath(from.Path)
		k = q + "\x00" + dir
	}
	if id, ok := g.memoQual[k]; ok {
		return id
	}
	id := g.resolvePyQualifiedSlow(q, from, depth)
	g.memoQual[k] = id
	return id
}

func (g *linker) resolvePyQualifiedSlow(q string, from *fileRec, depth int) int32 {
	parts := strings.Split(q, ".")
	for i := len(parts); i >= 1; i-- {
		mod := strings.Join(parts[:i], ".")
		p, ok := g.pyModFile(mod, from)
		if !ok {
			continue
		}
		rest := parts[i:]
		if len(rest) == 0 {
			return g.fileEnt[p]
		}
		if id := g.fileLocal(g.ents[g.fileEnt[p]].file, rest[0]); id >= 0 {
			return g.descend(id, rest[1:], depth)
		}
		// A submodule not imported explicitly: pkg.sub.f
		if _, ok := g.pyMods[mod+"."+rest[0]]; ok {
			continue
		}
		return g.resolveViaImports(g.ents[g.fileEnt[p]].file, rest, depth)
	}
	return -1
}

// pyModFile is the path of module mod as imported from file from. When
// several files share the module name (scripts in sibling folders outside
// any package, each run with its own folder as sys.path[0]), the one in
// from's folder wins, else the first by path.
func (g *graph) pyModFile(mod string, from *fileRec) (string, bool) {
	if dups := g.pyModDups[mod]; dups != nil && from != nil {
		dir, _ := splitPath(from.Path)
		for _, p := range dups {
			if d, _ := splitPath(p); d == dir {
				return p, true
			}
		}
	}
	p, ok := g.pyMods[mod]
	return p, ok
}

// sharedModulePrefix reports whether a module prefix of q is a module name
// several files share.
func (g *graph) sharedModulePrefix(q string) bool {
	if len(g.pyModDups) == 0 {
		return false
	}
	for i := 0; i <= len(q); i++ {
		if (i == len(q) || q[i] == '.') && g.pyModDups[q[:i]] != nil {
			return true
		}
	}
	return false
}

// pyLocal is the definition bound to local in any file of module (for
// test-name lookups that know only a module name), or -1.
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
