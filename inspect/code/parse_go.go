// parse_go.go parses Go sources with go/parser: definitions (functions,
// methods, types) with spans and doc comments, imports, calls (with the
// receiver or parameter type when it is knowable), panics, I/O-relevant
// calls and writes to package-level variables.

package code

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// parseGo fills fr from src. A syntax error leaves fr.Err set; whatever
// go/parser recovered is still recorded.
func parseGo(fr *fileRec, src []byte) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, fr.Path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		fr.Err = firstLine(err.Error())
		if f == nil {
			return
		}
	}
	line := func(p token.Pos) int { return fset.Position(p).Line }
	fr.Module = f.Name.Name
	if f.Doc != nil {
		fr.Doc = f.Doc.Text()
	}
	for _, is := range f.Imports {
		path, _ := strconv.Unquote(is.Path.Value)
		name := path[strings.LastIndexByte(path, '/')+1:]
		if is.Name != nil {
			name = is.Name.Name
		}
		fr.Imports = append(fr.Imports, imp{Name: name, Target: path})
	}
	pkgVars := map[string]bool{}
	for _, d := range f.Decls {
		if gd, ok := d.(*ast.GenDecl); ok && gd.Tok == token.VAR {
			for _, s := range gd.Specs {
				for _, n := range s.(*ast.ValueSpec).Names {
					pkgVars[n.Name] = true
				}
			}
		}
	}
	imported := map[string]bool{}
	for _, im := range fr.Imports {
		imported[im.Name] = true
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			nd := def{Name: d.Name.Name, Kind: "function", Start: line(d.Pos()), End: line(d.End())}
			if d.Doc != nil {
				nd.Start = line(d.Doc.Pos())
				nd.Doc = d.Doc.Text()
			}
			types := map[string]string{}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				rt := baseTypeName(d.Recv.List[0].Type)
				nd.Name = rt + "." + d.Name.Name
				nd.Parent = rt
				nd.Kind = "method"
				for _, n := range d.Recv.List[0].Names {
					types[n.Name] = "@self"
				}
			}
			if fr.Kind == "test" && isGoTestName(d.Name.Name) && d.Recv == nil {
				nd.Kind = "test"
			}
			if d.Type.Params != nil {
				for _, fl := range d.Type.Params.List {
					ts := exprString(fl.Type)
					tn := baseTypeName(fl.Type)
					for _, n := range fl.Names {
						nd.Params = append(nd.Params, param{Name: n.Name, Type: ts})
						if tn != "" {
							types[n.Name] = tn
						}
					}
					if len(fl.Names) == 0 {
						nd.Params = append(nd.Params, param{Name: "_", Type: ts})
					}
				}
			}
			if d.Type.Results != nil {
				var rs []string
				for _, fl := range d.Type.Results.List {
					ts := exprString(fl.Type)
					k := max(1, len(fl.Names))
					for range k {
						rs = append(rs, ts)
					}
				}
				nd.Returns = strings.Join(rs, ", ")
				if len(rs) > 1 {
					nd.Returns = "(" + nd.Returns + ")"
				}
			}
			if d.Body != nil {
				scanGoBody(d.Body, &nd, types, pkgVars, imported, line)
			}
			fr.Defs = append(fr.Defs, nd)
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				nd := def{Name: ts.Name.Name, Kind: "type", Start: line(ts.Pos()), End: line(ts.End())}
				if len(d.Specs) == 1 {
					nd.Start, nd.End = line(d.Pos()), line(d.End())
				}
				doc := ts.Doc
				if doc == nil && len(d.Specs) == 1 {
					doc = d.Doc
				}
				if doc != nil {
					nd.Doc = doc.Text()
					nd.Start = min(nd.Start, line(doc.Pos()))
				}
				switch t := ts.Type.(type) {
				case *ast.StructType:
					nd.Kind = "struct"
					for _, fl := range t.Fields.List {
						tn := baseTypeName(fl.Type)
						if len(fl.Names) == 0 {
							nd.Bases = append(nd.Bases, tn)
							continue
						}
						if tn == "" {
							continue
						}
						for _, n := range fl.Names {
							nd.Attrs = append(nd.Attrs, attr{Name: n.Name, Type: tn})
						}
					}
				case *ast.InterfaceType:
					nd.Kind = "interface"
				}
				fr.Defs = append(fr.Defs, nd)
			}
		}
	}
}

func isGoTestName(n string) bool {
	for _, p := range []string{"Test", "Benchmark", "Example", "Fuzz"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// scanGoBody records calls, panics, package-variable writes and return
// expressions of one function body (function literals included: they run
// on behalf of the function).
func scanGoBody(body *ast.BlockStmt, nd *def, types map[string]string, pkgVars, imported map[string]bool, line func(token.Pos) int) {
	locals := map[string]bool{}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			name := dottedGo(n.Fun)
			if name == "" {
				if se, ok := n.Fun.(*ast.SelectorExpr); ok {
					name = "?." + se.Sel.Name
				}
			}
			if name == "panic" {
				if !contains(nd.Raises, "panic") {
					nd.Raises = append(nd.Raises, "panic")
				}
			}
			if name != "" && len(nd.Calls) < 400 {
				head, _, _ := strings.Cut(name, ".")
				recv := ""
				if !imported[head] || locals[head] {
					recv = types[head]
				}
				nd.Calls = append(nd.Calls, call{Name: name, Recv: recv, Line: line(n.Pos())})
			}
		case *ast.AssignStmt:
			for i, l := range n.Lhs {
				id, ok := l.(*ast.Ident)
				if !ok {
					continue
				}
				if n.Tok == token.DEFINE {
					locals[id.Name] = true
					if i < len(n.Rhs) && len(n.Lhs) == len(n.Rhs) {
						if tn := compositeType(n.Rhs[i]); tn != "" {
							types[id.Name] = tn
						}
					}
					if i == 0 && len(n.Rhs) == 1 {
						if ce, ok := n.Rhs[0].(*ast.CallExpr); ok {
							if fn := dottedGo(ce.Fun); fn != "" {
								// resolved by the indexer: the callee's first result type
								types[id.Name] = "()" + fn
							}
						}
					}
					continue
				}
				if pkgVars[id.Name] && !locals[id.Name] && !contains(nd.Globals, id.Name) {
					nd.Globals = append(nd.Globals, id.Name)
				}
			}
		case *ast.IncDecStmt:
			if id, ok := n.X.(*ast.Ident); ok && pkgVars[id.Name] && !locals[id.Name] && !contains(nd.Globals, id.Name) {
				nd.Globals = append(nd.Globals, id.Name)
			}
		case *ast.ValueSpec:
			for _, id := range n.Names {
				locals[id.Name] = true
				if n.Type != nil {
					if tn := baseTypeName(n.Type); tn != "" {
						types[id.Name] = tn
					}
				}
			}
		case *ast.ReturnStmt:
			if len(n.Results) > 0 && len(nd.RetExprs) < 3 {
				parts := make([]string, 0, len(n.Results))
				for _, r := range n.Results {
					parts = append(parts, exprString(r))
				}
				s := clip.Runes.Fit(strings.Join(parts, ", "), 80)
				if !contains(nd.RetExprs, s) {
					nd.RetExprs = append(nd.RetExprs, s)
				}
			}
		}
		return true
	})
}

// compositeType returns T for T{...}, &T{...}, pkg.T{...}.
func compositeType(e ast.Expr) string {
	if u, ok := e.(*ast.UnaryExpr); ok && u.Op == token.AND {
		e = u.X
	}
	if cl, ok := e.(*ast.CompositeLit); ok && cl.Type != nil {
		return baseTypeName(cl.Type)
	}
	return ""
}

// baseTypeName strips pointers, generics and slices' absence: *pkg.T[X] -> pkg.T.
func baseTypeName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		case *ast.SelectorExpr:
			if x, ok := t.X.(*ast.Ident); ok {
				return x.Name + "." + t.Sel.Name
			}
			return ""
		default:
			return ""
		}
	}
}

func dottedGo(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.Ident:
		return t.Name
	case *ast.SelectorExpr:
		x := dottedGo(t.X)
		if x == "" {
			return ""
		}
		return x + "." + t.Sel.Name
	case *ast.IndexExpr: // generic instantiation f[T](...)
		return dottedGo(t.X)
	case *ast.IndexListExpr:
		return dottedGo(t.X)
	case *ast.ParenExpr:
		return dottedGo(t.X)
	}
	return ""
}

func exprString(e ast.Expr) string { return clip.Runes.Fit(types.ExprString(e), 80) }

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
