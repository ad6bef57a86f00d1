// link_javascript.go resolves JavaScript and TypeScript calls for the code
// graph: names in enclosing functions and the file, ES imports and
// CommonJS require() through the exporting file (export lists, default
// exports, module.exports, re-exports and `export *`), relative module
// specifiers (./x, ./x.js naming x.ts, ./dir/index), methods through
// this/super and typed locals (`new C()`), class attributes
// (this.x = new C()) and extends chains; and links describe/it/test
// blocks to the subjects their titles name. The file name avoids a _js
// suffix, which would build for GOOS=js only.

package code

import (
	"path"
	"strings"
	"unicode"
)

func isJSLang(lang string) bool { return lang == "javascript" || lang == "typescript" }

func (g *linker) resolveJSCall(from int32, c call) int32 {
	parts := strings.Split(c.Name, ".")
	switch {
	case parts[0] == "super":
		base := g.jsBaseClass(g.enclosingClass(from))
		if len(parts) == 1 { // super(...): the base constructor
			if m := g.findMethod(base, "constructor", 0); m >= 0 {
				return m
			}
			return base
		}
		return g.memberCall(base, parts[1:])
	case c.Recv == "@self":
		return g.memberCall(g.enclosingClass(from), parts[1:])
	case c.Recv != "":
		return g.memberCall(g.jsRecvClass(from, c.Recv), parts[1:])
	}
	t := g.resolveJSName(from, parts, 0)
	if t >= 0 && g.ents[t].d == nil {
		// const C = require('./c'); C(): the module's default export.
		t = g.jsExport(t, "default", 0)
	}
	return t
}

// resolveJSName resolves a dotted name as seen from entity from: enclosing
// function scopes, the file's own definitions, then its imports.
func (g *linker) resolveJSName(from int32, parts []string, depth int) int32 {
	if depth > 8 || len(parts) == 0 || from < 0 {
		return -1
	}
	fr := g.ents[from].file
	for p := from; p >= 0 && g.ents[p].d != nil; p = g.ents[p].parent {
		if k := g.ents[p].kind; k == "class" || k == "test" {
			continue
		}
		if id := g.fileLocal(fr, g.ents[p].d.Name+"."+parts[0]); id >= 0 {
			return g.descend(id, parts[1:], depth)
		}
	}
	if id := g.fileLocal(fr, parts[0]); id >= 0 {
		return g.descend(id, parts[1:], depth)
	}
	for i := len(fr.Imports) - 1; i >= 0; i-- {
		im := fr.Imports[i]
		if im.Name != parts[0] {
			continue
		}
		spec, name, ok := splitJSTarget(im.Target)
		if !ok {
			return -1
		}
		f, ok := g.jsResolveSpec(fr, spec)
		if !ok {
			return -1
		}
		t := g.jsExport(g.fileEnt[f], name, depth+1)
		if t < 0 {
			return -1
		}
		return g.descend(t, parts[1:], depth+1)
	}
	return -1
}

// jsExport resolves what file entity fid exports as name ("*": the module
// itself): its export list, re-exports, `export *`, and for files without
// an export list (CommonJS written in other forms) their own definitions.
func (g *linker) jsExport(fid int32, name string, depth int) int32 {
	if depth > 8 || fid < 0 {
		return -1
	}
	if name == "*" {
		return fid
	}
	fr := g.ents[fid].file
	for _, ex := range fr.Exports {
		if ex.Name != name {
			continue
		}
		if spec, n2, ok := splitJSTarget(ex.Target); ok {
			f, ok := g.jsResolveSpec(fr, spec)
			if !ok {
				return -1
			}
			return g.jsExport(g.fileEnt[f], n2, depth+1)
		}
		if id := g.fileLocal(fr, ex.Target); id >= 0 {
			return id
		}
		return g.resolveJSName(fid, []string{ex.Target}, depth+1) // an imported name exported again
	}
	for _, ex := range fr.Exports {
		if ex.Name != "*" {
			continue
		}
		if spec, _, ok := splitJSTarget(ex.Target); ok {
			if f, ok := g.jsResolveSpec(fr, spec); ok {
				if t := g.jsExport(g.fileEnt[f], name, depth+1); t >= 0 {
					return t
				}
			}
		}
	}
	if len(fr.Exports) == 0 && name != "default" {
		return g.fileLocal(fr, name)
	}
	return -1
}

// jsExts are the extensions a relative specifier may leave out, in
// Node's and TypeScript's order.
var jsExts = []string{".js", ".mjs", ".cjs", ".ts", ".mts", ".cts"}

// jsResolveSpec maps a relative module specifier of file fr to an indexed
// file. Bare specifiers (packages, node: builtins) are outside the graph.
func (g *graph) jsResolveSpec(fr *fileRec, spec string) (string, bool) {
	if !strings.HasPrefix(spec, "./") && !strings.HasPrefix(spec, "../") {
		return "", false
	}
	dir, _ := splitPath(fr.Path)
	p := path.Join(dir, spec)
	if p == ".." || strings.HasPrefix(p, "../") || p == "." {
		return "", false
	}
	cands := []string{p}
	stem := p[:len(p)-len(jsExt(p))]
	switch jsExt(p) { // TypeScript sources import their own .js output names
	case ".js":
		cands = append(cands, stem+".ts")
	case ".mjs":
		cands = append(cands, stem+".mts")
	case ".cjs":
		cands = append(cands, stem+".cts")
	}
	for _, e := range jsExts {
		cands = append(cands, p+e)
	}
	for _, e := range jsExts {
		cands = append(cands, p+"/index"+e)
	}
	for _, c := range cands {
		if id, ok := g.fileEnt[c]; ok && isJSLang(g.ents[id].file.Lang) {
			return c, true
		}
	}
	return "", false
}

// jsBaseClass is the class cls extends, or -1.
func (g *linker) jsBaseClass(cls int32) int32 {
	if cls < 0 || g.ents[cls].d == nil || len(g.ents[cls].d.Bases) == 0 {
		return -1
	}
	b := g.resolveJSName(cls, strings.Split(g.ents[cls].d.Bases[0], "."), 0)
	if b >= 0 && g.ents[b].d == nil {
		b = g.jsExport(b, "default", 0)
	}
	if b == cls || b < 0 || g.ents[b].kind != "class" {
		return -1
	}
	return b
}

// jsRecvClass resolves a receiver type: a class name, or "()f" for what f
// returns when f is a class.
func (g *linker) jsRecvClass(from int32, recv string) int32 {
	var t int32
	if fn, ok := strings.CutPrefix(recv, "()"); ok {
		t = g.resolveJSCall(from, call{Name: fn})
	} else {
		t = g.resolveJSName(from, strings.Split(recv, "."), 0)
		if t >= 0 && g.ents[t].d == nil {
			t = g.jsExport(t, "default", 0)
		}
	}
	if t < 0 || g.ents[t].kind != "class" {
		return -1
	}
	return t
}

// jsTestsByName links a describe/it/test block to the subject its title
// names: "Calculator.push …" or describe('Calculator') > it('push …') ->
// Calculator.push; describe('add') -> add. Only names the test file can
// see count (its imports and definitions, and the module it is named
// after: calc.test.js -> calc.js).
func (g *linker) jsTestsByName(id int32) []int32 {
	e := &g.ents[id]
	visible := func(name string) int32 {
		if t := g.resolveJSName(id, []string{name}, 0); t >= 0 && g.ents[t].d != nil && !g.ents[t].isTest() {
			return t
		}
		for _, p := range g.jsSubjects[jsSubjectStem(e.file.Path)] {
			if t := g.fileLocal(g.ents[g.fileEnt[p]].file, name); t >= 0 {
				return t
			}
		}
		return -1
	}
	own := titleWords(e)
	var classes []int32
	for a := e.parent; a >= 0 && g.ents[a].kind == "test"; a = g.ents[a].parent {
		for _, w := range titleWords(&g.ents[a]) {
			if t := visible(w); t >= 0 && g.ents[t].kind == "class" {
				classes = append(classes, t)
			}
		}
	}
	for i, w := range own {
		if t := visible(w); t >= 0 && g.ents[t].kind == "class" && i+1 < len(own) {
			if m := g.findMethod(t, own[i+1], 0); m >= 0 {
				return []int32{m}
			}
		}
	}
	for _, c := range classes {
		for _, w := range own {
			if m := g.findMethod(c, w, 0); m >= 0 {
				return []int32{m}
			}
		}
	}
	for _, w := range own {
		if t := visible(w); t >= 0 {
			return []int32{t}
		}
	}
	return nil
}

// titleWords are the identifier-like words of a test block's own title.
func titleWords(e *entity) []string {
	title := e.d.Name
	if e.d.Parent != "" {
		title = strings.TrimPrefix(title, e.d.Parent+".")
	}
	return strings.FieldsFunc(title, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '$' || r == '#')
	})
}

// jsSubjectStem is what a JS/TS file is about: web/test/calc.test.js ->
// calc, src/calc.js -> calc.
func jsSubjectStem(p string) string {
	_, base := splitPath(p)
	stem := base[:len(base)-len(jsExt(base))]
	return strings.TrimSuffix(strings.TrimSuffix(stem, ".test"), ".spec")
}
