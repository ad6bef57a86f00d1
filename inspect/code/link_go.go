// link_go.go resolves Go calls for the code graph: package-qualified
// calls through imports, methods on named types, and result types of
// functions used as receivers.

package code

import (
	"strings"
)

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
