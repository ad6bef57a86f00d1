// parse_js_module.go walks JavaScript statements and expressions for the
// code index: names bound to functions and classes (imports, exports and
// require() are read by parse_js_imports.go), module.exports / exports.x,
// describe/it/test blocks of test files (kind "test"), and the calls,
// throws, returns and global writes of each definition.

package code

import (
	"strings"

	"github.com/grafana/sobek/ast"
	"github.com/grafana/sobek/file"
	"github.com/grafana/sobek/token"
)

// jsTarget encodes an import or re-export: module specifier and the name
// taken from it ("*" for the whole module, "default").
func jsTarget(spec, name string) string { return spec + "\x00" + name }

func splitJSTarget(t string) (spec, name string, ok bool) { return strings.Cut(t, "\x00") }

// visit walks one node in scope sc.
func (p *jsParser) visit(n ast.Node, sc *jsScope) {
	if n == nil {
		return
	}
	switch n := n.(type) {
	case *ast.FunctionDeclaration:
		if n.Function.Name != nil {
			sc.locals[n.Function.Name.Name.String()] = true
			p.function(sc, n.Function.Name.Name.String(), "function", n.Function.Idx0(), n.Function)
			return
		}
	case *ast.ClassDeclaration:
		if n.Class.Name != nil {
			sc.locals[n.Class.Name.Name.String()] = true
			p.class(sc, n.Class.Name.Name.String(), n.Class.Idx0(), n.Class)
			return
		}
	case *ast.LexicalDeclaration:
		p.bindings(sc, n.List, n.Idx)
		return
	case *ast.VariableStatement:
		p.bindings(sc, n.List, n.Var)
		return
	case *ast.VariableDeclaration:
		p.bindings(sc, n.List, n.Var)
		return
	case *ast.ImportDeclaration:
		p.importDecl(n)
		return
	case *ast.ExportDeclaration:
		p.exportDecl(sc, n)
		return
	case *ast.FunctionLiteral:
		p.anon(sc, n)
		return
	case *ast.ArrowFunctionLiteral:
		p.anon(sc, n)
		return
	case *ast.CallExpression:
		if p.callExpr(sc, n) {
			return
		}
	case *ast.NewExpression:
		p.addCall(sc, n.Callee, p.line(n.Idx0()))
	case *ast.AssignExpression:
		if p.assign(sc, n) {
			return
		}
	case *ast.UnaryExpression:
		if n.Operator == token.INCREMENT || n.Operator == token.DECREMENT {
			p.writes(sc, n.Operand)
		}
	case *ast.ReturnStatement:
		if d := p.def(sc); d != nil && !sc.anon && n.Argument != nil && len(d.RetExprs) < 3 {
			if s := p.text(n.Argument); s != "" && !contains(d.RetExprs, s) {
				d.RetExprs = append(d.RetExprs, s)
			}
		}
	case *ast.YieldExpression:
		if d := p.def(sc); d != nil && !sc.anon {
			d.Yields = true
		}
	case *ast.ThrowStatement:
		p.throw(sc, n.Argument)
	case *ast.CatchStatement:
		cs := &jsScope{parent: sc, di: sc.di, anon: sc.anon, types: map[string]string{}, locals: map[string]bool{}, catch: map[string]bool{}}
		if id, ok := n.Parameter.(*ast.Identifier); ok {
			cs.catch[id.Name.String()] = true
			cs.locals[id.Name.String()] = true
		}
		p.visit(n.Body, cs)
		return
	}
	forChildren(n, func(c ast.Node) { p.visit(c, sc) })
}

// anon walks an unnamed function: its calls belong to the enclosing
// definition, its returns and parameters do not.
func (p *jsParser) anon(sc *jsScope, fn ast.Node) {
	as := &jsScope{parent: sc, di: sc.di, anon: true, types: map[string]string{}, locals: map[string]bool{}}
	var pl *ast.ParameterList
	switch f := fn.(type) {
	case *ast.FunctionLiteral:
		pl = f.ParameterList
	case *ast.ArrowFunctionLiteral:
		pl = f.ParameterList
	}
	if pl != nil {
		p.declarePattern(as, pl)
	}
	forChildren(fn, func(c ast.Node) {
		if c != ast.Node(pl) {
			p.visit(c, as)
		}
	})
}

// bindings handles const/let/var: functions and classes bound to a name
// become definitions; require() becomes imports; `new C()` types a local.
func (p *jsParser) bindings(sc *jsScope, list []*ast.Binding, start file.Idx) {
	for _, b := range list {
		id, isID := b.Target.(*ast.Identifier)
		if !isID {
			p.declarePattern(sc, b.Target)
			if spec, member, ok := requireOf(b.Initializer); ok && member == "" {
				p.requirePattern(spec, b.Target)
				continue
			}
			p.visit(b.Initializer, sc)
			continue
		}
		name := id.Name.String()
		sc.locals[name] = true
		if len(list) > 1 {
			start = b.Target.Idx0()
		}
		switch init := b.Initializer.(type) {
		case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
			p.function(sc, name, "function", start, init)
			continue
		case *ast.ClassLiteral:
			p.class(sc, name, start, init)
			continue
		}
		if spec, member, ok := requireOf(b.Initializer); ok {
			if member == "" {
				member = "*"
			}
			p.fr.Imports = append(p.fr.Imports, imp{Name: name, Target: jsTarget(spec, member)})
			continue
		}
		if t := valueType(b.Initializer); t != "" {
			sc.types[name] = t
		}
		p.visit(b.Initializer, sc)
	}
}

// assign handles module.exports = …, exports.x = …, this.x = new C()
// and writes to module-level variables. It reports whether value was
// fully handled.
func (p *jsParser) assign(sc *jsScope, n *ast.AssignExpression) bool {
	left := jsDotted(n.Left)
	switch {
	case left == "module.exports" && sc.di < 0:
		if ol, ok := n.Right.(*ast.ObjectLiteral); ok {
			p.exportObject(sc, ol)
			return true
		}
		p.defineValue(sc, "default", n.Left.Idx0(), n.Right)
		return true
	case sc.di < 0 && (strings.HasPrefix(left, "exports.") && strings.Count(left, ".") == 1 ||
		strings.HasPrefix(left, "module.exports.") && strings.Count(left, ".") == 2):
		name := left[strings.LastIndexByte(left, '.')+1:]
		p.defineValue(sc, name, n.Left.Idx0(), n.Right)
		return true
	case strings.HasPrefix(left, "this.") && strings.Count(left, ".") == 1:
		if t := valueType(n.Right); t != "" {
			if d := p.def(sc); d != nil && !strings.HasPrefix(t, "()") {
				d.Attrs = append(d.Attrs, attr{Name: left[5:], Type: t})
			}
		}
	}
	p.writes(sc, n.Left)
	return false
}

// writes records a write to a module-level variable from a function.
func (p *jsParser) writes(sc *jsScope, target ast.Expression) {
	id, ok := target.(*ast.Identifier)
	d := p.def(sc)
	if !ok || d == nil {
		return
	}
	n := id.Name.String()
	if p.topVars[n] && !sc.isLocal(n) && !contains(d.Globals, n) {
		d.Globals = append(d.Globals, n)
	}
}

func (p *jsParser) throw(sc *jsScope, arg ast.Expression) {
	d := p.def(sc)
	if d == nil {
		return
	}
	name := ""
	switch a := arg.(type) {
	case *ast.NewExpression:
		name = jsDotted(a.Callee)
	case *ast.CallExpression:
		name = jsDotted(a.Callee)
	case *ast.Identifier:
		if sc.isCatch(a.Name.String()) {
			name = "(re-raise)"
		}
	}
	if name != "" && !contains(d.Raises, name) {
		d.Raises = append(d.Raises, name)
	}
}

// testFuncs are the test-block functions of Jest, Mocha, Vitest, node:test.
var testFuncs = map[string]bool{"describe": true, "it": true, "test": true, "suite": true, "context": true, "specify": true}

// callExpr records a call; in a test file a describe/it/test block with a
// title and a function becomes a test definition. It reports whether the
// node was fully handled.
func (p *jsParser) callExpr(sc *jsScope, n *ast.CallExpression) bool {
	if _, _, ok := requireOf(n); ok {
		return true
	}
	p.addCall(sc, n.Callee, p.line(n.Idx0()))
	if p.fr.Kind != "test" || len(n.ArgumentList) < 2 {
		return false
	}
	fname := jsDotted(n.Callee)
	base, mod, _ := strings.Cut(fname, ".")
	if !testFuncs[base] || (mod != "" && mod != "only" && mod != "skip" && mod != "todo" && mod != "concurrent") {
		return false
	}
	title := ""
	switch t := n.ArgumentList[0].(type) {
	case *ast.StringLiteral:
		title = t.Value.String()
	case *ast.TemplateLiteral:
		if len(t.Expressions) == 0 && len(t.Elements) == 1 {
			title = t.Elements[0].Parsed.String()
		}
	}
	fn := n.ArgumentList[len(n.ArgumentList)-1]
	switch fn.(type) {
	case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
	default:
		return false
	}
	title = testTitle(title)
	if title == "" {
		return false
	}
	ns := p.newDef(sc, title, "test", n.Idx0(), n.Idx1())
	for _, a := range n.ArgumentList[1:] {
		if a == fn {
			forChildren(fn, func(c ast.Node) { p.visit(c, ns) })
		} else {
			p.visit(a, ns)
		}
	}
	return true
}

// testTitle makes a test title a definition name: one line, no dots (they
// separate nesting levels), at most 80 characters.
func testTitle(s string) string {
	s = strings.Join(strings.Fields(strings.ReplaceAll(s, ".", " ")), " ")
	r := []rune(s)
	if len(r) > 80 {
		s = string(r[:80])
	}
	return s
}
