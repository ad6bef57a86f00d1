// link_members.go resolves names inside a file, a module or a class for the
// code graph, the same way for every language: a file's own bindings,
// dotted names descending into modules and classes, a class's methods along
// its bases, and attribute hops through typed attributes (self.x.m(),
// this.x.m(), s.x.M()). Each language gives only its own pieces: what a
// class inherits from (bases), what a module makes visible (moduleMember)
// and how an attribute's declared type resolves (attrType).

package code

import "strings"

// fileLocal is the definition bound to local (a dotted name inside the
// file: "f", "C.m", "outer.inner") in file fr itself, or -1; the last
// binding wins. A module's names are its own file's, even when another file
// has the same module name. JavaScript test blocks (describe/it) are not
// bindings; Python test functions are.
func (g *graph) fileLocal(fr *fileRec, local string) int32 {
	ids := g.byQual[qualify(fr, local)]
	for i := len(ids) - 1; i >= 0; i-- {
		e := &g.ents[ids[i]]
		if e.file == fr && e.d != nil && !(e.kind == "test" && isJSLang(fr.Lang)) {
			return ids[i]
		}
	}
	return -1
}

// descend follows names into a module (what it makes visible) or a class
// (its methods and nested classes, along its bases).
func (g *linker) descend(id int32, rest []string, depth int) int32 {
	for _, name := range rest {
		if id < 0 {
			return -1
		}
		switch e := &g.ents[id]; {
		case e.d == nil:
			id = g.moduleMember(id, name, depth+1)
		case e.kind == "class":
			id = g.findMethod(id, name, 0)
		default:
			return -1
		}
	}
	return id
}

// moduleMember is what the module of file entity mod makes visible as name:
// a Python module's own definition, a JavaScript/TypeScript module's export.
// Go resolves package members by directory (resolveGoCall), not here.
func (g *linker) moduleMember(mod int32, name string, depth int) int32 {
	switch fr := g.ents[mod].file; {
	case fr.Lang == "python":
		return g.fileLocal(fr, name)
	case isJSLang(fr.Lang):
		return g.jsExport(mod, name, depth)
	}
	return -1
}

// findMethod looks name up in class cls, then along its bases.
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
	} else {
		ids := g.byQual[e.qual+"."+name]
		for i := len(ids) - 1; i >= 0; i-- { // the last binding wins
			if g.ents[ids[i]].parent == cls {
				return ids[i]
			}
		}
	}
	for _, b := range g.bases(cls) {
		if m := g.findMethod(b, name, depth+1); m >= 0 {
			return m
		}
	}
	return -1
}

// bases are what class cls inherits from, in lookup order: a Python class's
// bases, the class a JavaScript/TypeScript class extends, the types a Go
// struct embeds.
func (g *linker) bases(cls int32) []int32 {
	e := &g.ents[cls]
	if isJSLang(e.file.Lang) {
		if b := g.jsBaseClass(cls); b >= 0 {
			return []int32{b}
		}
		return nil
	}
	var out []int32
	for _, b := range e.d.Bases {
		if e.file.Lang == "go" {
			if bt := g.goType(e.file, b); bt >= 0 && bt != cls {
				out = append(out, bt)
			}
		} else if bc := g.resolvePyName(cls, strings.Split(b, "."), 0); bc >= 0 && bc != cls && g.ents[bc].kind == "class" {
			out = append(out, bc)
		}
	}
	return out
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
	if a, ok := g.classAttrs[cls][name]; ok {
		t := g.attrType(cls, a)
		if t >= 0 && g.ents[t].d != nil {
			switch g.ents[t].kind {
			case "class", "struct", "type", "interface":
				return t
			}
		}
		return -1
	}
	for _, b := range g.bases(cls) {
		if t := g.attrClass(b, name, depth+1); t >= 0 {
			return t
		}
	}
	return -1
}

// attrType resolves the declared type of an attribute of class cls (a type
// name, or "()f" for what f returns) in the class's language.
func (g *linker) attrType(cls int32, a attrSrc) int32 {
	switch lang := g.ents[cls].file.Lang; {
	case lang == "go":
		if fn, ok := strings.CutPrefix(a.typ, "()"); ok {
			return g.goResultType(a.owner, fn)
		}
		return g.goType(g.ents[a.owner].file, a.typ)
	case isJSLang(lang):
		return g.jsRecvClass(a.owner, a.typ)
	}
	return g.pyRecvClass(a.owner, a.typ)
}
