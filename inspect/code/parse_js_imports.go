// parse_js_imports.go reads the module structure of JavaScript files for
// the code index: ES import and export declarations (named, default,
// namespace, re-exports, export *), CommonJS require() bindings and
// module.exports objects. Targets are jsTarget(specifier, name); the
// linker resolves them in link_javascript.go.

package code

import (
	"github.com/grafana/sobek/ast"
	"github.com/grafana/sobek/file"
)

// requireOf recognises require('spec') and require('spec').member.
func requireOf(e ast.Expression) (spec, member string, ok bool) {
	if de, isDot := e.(*ast.DotExpression); isDot {
		spec, _, ok = requireOf(de.Left)
		return spec, de.Identifier.Name.String(), ok
	}
	ce, isCall := e.(*ast.CallExpression)
	if !isCall || len(ce.ArgumentList) != 1 {
		return "", "", false
	}
	if id, isID := ce.Callee.(*ast.Identifier); !isID || id.Name != "require" {
		return "", "", false
	}
	s, isStr := ce.ArgumentList[0].(*ast.StringLiteral)
	if !isStr {
		return "", "", false
	}
	return s.Value.String(), "", true
}

// requirePattern: const {a, b: c} = require('spec').
func (p *jsParser) requirePattern(spec string, target ast.Node) {
	op, ok := target.(*ast.ObjectPattern)
	if !ok {
		return
	}
	for _, prop := range op.Properties {
		switch pr := prop.(type) {
		case *ast.PropertyShort:
			n := pr.Name.Name.String()
			p.fr.Imports = append(p.fr.Imports, imp{Name: n, Target: jsTarget(spec, n)})
		case *ast.PropertyKeyed:
			k := jsKey(pr.Key, pr.Computed)
			if v, ok := pr.Value.(*ast.Identifier); ok && k != "" {
				p.fr.Imports = append(p.fr.Imports, imp{Name: v.Name.String(), Target: jsTarget(spec, k)})
			}
		}
	}
}

func (p *jsParser) importDecl(n *ast.ImportDeclaration) {
	spec := n.ModuleSpecifier.String()
	if n.FromClause != nil {
		spec = n.FromClause.ModuleSpecifier.String()
	}
	ic := n.ImportClause
	if ic == nil {
		return
	}
	if ic.ImportedDefaultBinding != nil {
		p.fr.Imports = append(p.fr.Imports, imp{Name: ic.ImportedDefaultBinding.Name.String(), Target: jsTarget(spec, "default")})
	}
	if ic.NameSpaceImport != nil {
		p.fr.Imports = append(p.fr.Imports, imp{Name: ic.NameSpaceImport.ImportedBinding.String(), Target: jsTarget(spec, "*")})
	}
	if ic.NamedImports != nil {
		for _, s := range ic.NamedImports.ImportsList {
			local := s.Alias.String()
			if local == "" {
				local = s.IdentifierName.String()
			}
			p.fr.Imports = append(p.fr.Imports, imp{Name: local, Target: jsTarget(spec, s.IdentifierName.String())})
		}
	}
}

func (p *jsParser) export(name, local string) {
	p.fr.Exports = append(p.fr.Exports, imp{Name: name, Target: local})
}

func (p *jsParser) exportDecl(sc *jsScope, n *ast.ExportDeclaration) {
	exportName := func(local string) string {
		if n.IsDefault {
			return "default"
		}
		return local
	}
	switch {
	case n.HoistableDeclaration != nil && n.HoistableDeclaration.FunctionDeclaration != nil:
		fn := n.HoistableDeclaration.FunctionDeclaration.Function
		name := "default"
		if fn.Name != nil {
			name = fn.Name.Name.String()
		}
		p.function(sc, name, "function", n.Idx, fn)
		p.export(exportName(name), name)
	case n.ClassDeclaration != nil:
		cl := n.ClassDeclaration.Class
		name := "default"
		if cl.Name != nil {
			name = cl.Name.Name.String()
		}
		p.class(sc, name, n.Idx, cl)
		p.export(exportName(name), name)
	case n.LexicalDeclaration != nil || n.Variable != nil:
		list := []*ast.Binding(nil)
		if n.LexicalDeclaration != nil {
			list = n.LexicalDeclaration.List
		} else {
			list = n.Variable.List
		}
		p.bindings(sc, list, n.Idx)
		for _, b := range list {
			walkNodes(b.Target, func(c ast.Node) bool {
				if id, ok := c.(*ast.Identifier); ok {
					p.export(id.Name.String(), id.Name.String())
				}
				return true
			})
		}
	case n.AssignExpression != nil: // export default <expression>
		p.defineValue(sc, "default", n.Idx, n.AssignExpression)
	case n.FromClause != nil && n.ExportFromClause != nil:
		spec := n.FromClause.ModuleSpecifier.String()
		ef := n.ExportFromClause
		switch {
		case ef.IsWildcard && ef.Alias != "":
			p.export(ef.Alias.String(), jsTarget(spec, "*"))
		case ef.IsWildcard:
			p.export("*", jsTarget(spec, "*"))
		case ef.NamedExports != nil:
			for _, s := range ef.NamedExports.ExportsList {
				name := s.Alias.String()
				if name == "" {
					name = s.IdentifierName.String()
				}
				p.export(name, jsTarget(spec, s.IdentifierName.String()))
			}
		}
	case n.NamedExports != nil:
		for _, s := range n.NamedExports.ExportsList {
			name := s.Alias.String()
			if name == "" {
				name = s.IdentifierName.String()
			}
			p.export(name, s.IdentifierName.String())
		}
	}
}

// defineValue exports value under name: a function or class literal
// becomes a definition (named after itself, else name), an identifier is
// exported as it is, anything else is walked.
func (p *jsParser) defineValue(sc *jsScope, name string, start file.Idx, value ast.Expression) {
	switch v := value.(type) {
	case *ast.FunctionLiteral:
		local := name
		if v.Name != nil {
			local = v.Name.Name.String()
		}
		p.function(sc, local, "function", start, v)
		p.export(name, local)
	case *ast.ArrowFunctionLiteral:
		p.function(sc, name, "function", start, v)
		p.export(name, name)
	case *ast.ClassLiteral:
		local := name
		if v.Name != nil {
			local = v.Name.Name.String()
		}
		p.class(sc, local, start, v)
		p.export(name, local)
	case *ast.Identifier:
		p.export(name, v.Name.String())
	default:
		p.visit(value, sc)
	}
}

// exportObject: module.exports = { a, b: c, d() {}, e: () => {} }.
func (p *jsParser) exportObject(sc *jsScope, ol *ast.ObjectLiteral) {
	for _, prop := range ol.Value {
		switch pr := prop.(type) {
		case *ast.PropertyShort:
			n := pr.Name.Name.String()
			p.export(n, n)
		case *ast.PropertyKeyed:
			k := jsKey(pr.Key, pr.Computed)
			if k == "" {
				p.visit(pr.Value, sc)
				continue
			}
			p.defineValue(sc, k, pr.Key.Idx0(), pr.Value)
		default:
			p.visit(prop, sc)
		}
	}
}
