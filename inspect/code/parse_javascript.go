// parse_javascript.go parses JavaScript (and TypeScript once its types
// are stripped, see parse_ts.go; the name is not parse_js.go because a _js
// suffix builds for GOOS=js only) with the ECMAScript parser of
// github.com/grafana/sobek (pure Go, k6's maintained goja fork, ES modules
// and ES2022 classes): definitions (functions, classes, methods, functions
// bound to names) with spans and JSDoc, calls with the receiver type when
// it is knowable (this, `new C()` locals), throws, returns, yields and
// writes to module-level variables. Imports, exports, require() and the
// describe/it/test blocks of test files are in parse_js_module.go.

package code

import (
	"reflect"
	"sort"
	"strings"

	"github.com/grafana/sobek/ast"
	"github.com/grafana/sobek/file"
	"github.com/grafana/sobek/parser"

	"github.com/dapscope/dapscope/inspect/clip"
)

// jsMaxCalls bounds the calls recorded per definition (as for Go).
const jsMaxCalls = 400

type jsParser struct {
	fr      *fileRec
	src     string
	nl      []int           // byte offsets of line starts
	topVars map[string]bool // module-level bindings (written from functions = globals)
}

// jsScope is a function (or class, test, module) scope while walking.
type jsScope struct {
	parent *jsScope
	di     int               // index into fr.Defs; -1 for module level
	anon   bool              // an unnamed function inside di: returns are not di's
	types  map[string]string // local -> class name or "()f"
	locals map[string]bool
	catch  map[string]bool // catch parameters (throw of one is a re-raise)
}

func (s *jsScope) isLocal(n string) bool {
	for ; s != nil && s.di >= 0; s = s.parent {
		if s.locals[n] {
			return true
		}
	}
	return false
}

func (s *jsScope) typeOf(n string) string {
	for ; s != nil; s = s.parent {
		if t, ok := s.types[n]; ok {
			return t
		}
	}
	return ""
}

func (s *jsScope) isCatch(n string) bool {
	for ; s != nil; s = s.parent {
		if s.catch[n] {
			return true
		}
	}
	return false
}

// parseJS fills fr from JavaScript source. module selects ES module
// (strict) parsing; .js files are tried as a module, then as a script.
// A syntax error leaves fr.Err set and no definitions.
func parseJS(fr *fileRec, src string) {
	ext := jsExt(fr.Path)
	modes := []bool{true, false}
	if ext == ".cjs" || ext == ".cts" {
		modes = []bool{false, true}
	}
	var prog *ast.Program
	var firstErr error
	for _, module := range modes {
		// Source maps are never followed: the parser would read the file
		// a sourceMappingURL names, anywhere on disk.
		opts := []parser.Option{parser.WithDisableSourceMaps}
		if module {
			opts = append(opts, parser.IsModule)
		}
		p, err := parser.ParseFile(nil, fr.Path, src, parser.IgnoreRegExpErrors, opts...)
		if err == nil {
			prog, firstErr = p, nil
			break
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	if firstErr != nil {
		fr.Err = firstLine(firstErr.Error())
		return
	}
	p := &jsParser{fr: fr, src: src, topVars: map[string]bool{}}
	p.nl = append(p.nl, 0)
	for i := 0; i < len(src); i++ {
		if src[i] == '\n' {
			p.nl = append(p.nl, i+1)
		}
	}
	fr.Doc = p.fileDoc(prog)
	top := &jsScope{di: -1, types: map[string]string{}, locals: p.topVars}
	for _, st := range prog.Body {
		p.visit(st, top)
	}
}

func jsExt(path string) string {
	i := strings.LastIndexByte(path, '.')
	if i < 0 {
		return ""
	}
	return strings.ToLower(path[i:])
}

// line is the 1-based line of a parser index (a 1-based byte offset).
func (p *jsParser) line(idx file.Idx) int {
	off := int(idx) - 1
	return sort.Search(len(p.nl), func(i int) bool { return p.nl[i] > off })
}

// endLine is the line of the last character of a node ending at idx1.
func (p *jsParser) endLine(idx1 file.Idx) int { return p.line(idx1 - 1) }

// text is the source of a node, whitespace collapsed and clipped.
func (p *jsParser) text(n ast.Node) string {
	a, b := int(n.Idx0())-1, int(n.Idx1())-1
	if a < 0 || b > len(p.src) || a >= b {
		return ""
	}
	return clip.Runes.Fit(strings.Join(strings.Fields(p.src[a:b]), " "), 80)
}

// newDef appends a definition and returns its scope. start is where the
// declaration begins (an `export` keyword included); its JSDoc, when there
// is one, moves the start up like a Go doc comment.
func (p *jsParser) newDef(sc *jsScope, name, kind string, start, end file.Idx) *jsScope {
	parent := ""
	if sc.di >= 0 {
		pd := &p.fr.Defs[sc.di]
		parent = pd.Name
		name = pd.Name + "." + name
		if kind == "function" && pd.Kind == "class" {
			kind = "method"
		}
	}
	d := def{Name: name, Kind: kind, Start: p.line(start), End: p.endLine(end), Parent: parent}
	if doc, at := p.docBefore(int(start) - 1); doc != "" {
		d.Start = p.line(file.Idx(at + 1))
		d.Doc, d.Returns = jsDocToFields(doc, &d)
	}
	p.fr.Defs = append(p.fr.Defs, d)
	return &jsScope{parent: sc, di: len(p.fr.Defs) - 1, types: map[string]string{}, locals: map[string]bool{}}
}

func (p *jsParser) def(sc *jsScope) *def {
	if sc.di < 0 {
		return nil
	}
	return &p.fr.Defs[sc.di]
}

// function records a named function (declaration, expression bound to a
// name, method, arrow) and walks its body.
func (p *jsParser) function(sc *jsScope, name, kind string, start file.Idx, fn ast.Node) {
	ns := p.newDef(sc, name, kind, start, fn.Idx1())
	d := p.def(ns)
	var params *ast.ParameterList
	var body ast.Node
	switch f := fn.(type) {
	case *ast.FunctionLiteral:
		params, body = f.ParameterList, f.Body
		if f.Generator {
			d.Yields = true
		}
	case *ast.ArrowFunctionLiteral:
		params, body = f.ParameterList, f.Body
		if eb, ok := f.Body.(*ast.ExpressionBody); ok {
			if s := p.text(eb.Expression); s != "" {
				d.RetExprs = append(d.RetExprs, s)
			}
		}
	}
	p.params(ns, params)
	p.visit(body, ns)
}

// params records parameter names, defaults and the JSDoc types.
func (p *jsParser) params(sc *jsScope, pl *ast.ParameterList) {
	if pl == nil {
		return
	}
	d := p.def(sc)
	docTypes := map[string]string{}
	for _, pr := range d.Params { // from JSDoc, see jsDocToFields
		docTypes[pr.Name] = pr.Type
	}
	d.Params = d.Params[:0]
	add := func(target ast.Node, init ast.Expression, rest bool) {
		var pr param
		if id, ok := target.(*ast.Identifier); ok {
			pr.Name = id.Name.String()
			sc.locals[pr.Name] = true
		} else {
			pr.Name = p.text(target)
			p.declarePattern(sc, target)
		}
		pr.Type = docTypes[pr.Name]
		if init != nil {
			pr.Default, pr.HasDef = p.text(init), true
			p.visit(init, sc)
		}
		if rest {
			pr.Name = "..." + pr.Name
		}
		d = p.def(sc)
		d.Params = append(d.Params, pr)
	}
	for _, b := range pl.List {
		add(b.Target, b.Initializer, false)
	}
	if pl.Rest != nil {
		add(pl.Rest, nil, true)
	}
}

// declarePattern marks the names a destructuring pattern binds as locals.
func (p *jsParser) declarePattern(sc *jsScope, n ast.Node) {
	walkNodes(n, func(c ast.Node) bool {
		if id, ok := c.(*ast.Identifier); ok {
			sc.locals[id.Name.String()] = true
		}
		return true
	})
}

// class records a class, its methods, fields and static blocks.
func (p *jsParser) class(sc *jsScope, name string, start file.Idx, cl *ast.ClassLiteral) {
	ns := p.newDef(sc, name, "class", start, cl.Idx1())
	if cl.SuperClass != nil {
		if b := jsDotted(cl.SuperClass); b != "" {
			d := p.def(ns)
			d.Bases = append(d.Bases, b)
		}
		p.visit(cl.SuperClass, sc)
	}
	for _, el := range cl.Body {
		switch m := el.(type) {
		case *ast.MethodDefinition:
			key := jsKey(m.Key, m.Computed)
			if key == "" {
				p.visit(m.Body, ns)
				continue
			}
			p.function(ns, key, "method", m.Idx, m.Body)
		case *ast.FieldDefinition:
			key := jsKey(m.Key, m.Computed)
			switch init := m.Initializer.(type) {
			case *ast.FunctionLiteral, *ast.ArrowFunctionLiteral:
				if key != "" {
					p.function(ns, key, "method", m.Idx, init)
					continue
				}
			case *ast.NewExpression:
				if t := jsDotted(init.Callee); t != "" && key != "" {
					d := p.def(ns)
					d.Attrs = append(d.Attrs, attr{Name: key, Type: t})
				}
			}
			if m.Initializer != nil {
				p.visit(m.Initializer, ns)
			}
		case *ast.ClassStaticBlock:
			p.visit(m.Block, ns)
		}
	}
}

// jsKey is the name of a property or class member key ("" when computed).
func jsKey(k ast.Expression, computed bool) string {
	if computed {
		return ""
	}
	switch k := k.(type) {
	case *ast.PrivateIdentifier:
		return "#" + k.Name.String()
	case *ast.Identifier:
		return k.Name.String()
	case *ast.StringLiteral:
		return k.Value.String()
	}
	return ""
}

// jsDotted renders a callee or type expression as a dotted name: f,
// this.push, obj.a.b, this.#priv; "" when it is not a plain chain.
func jsDotted(e ast.Expression) string {
	switch e := e.(type) {
	case *ast.Identifier:
		return e.Name.String()
	case *ast.ThisExpression:
		return "this"
	case *ast.SuperExpression:
		return "super"
	case *ast.DotExpression:
		if l := jsDotted(e.Left); l != "" {
			return l + "." + e.Identifier.Name.String()
		}
	case *ast.PrivateDotExpression:
		if l := jsDotted(e.Left); l != "" {
			return l + ".#" + e.Identifier.Name.String()
		}
	case *ast.OptionalChain:
		return jsDotted(e.Expression)
	case *ast.Optional:
		return jsDotted(e.Expression)
	}
	return ""
}

// addCall records one call site in the current definition (or the file).
func (p *jsParser) addCall(sc *jsScope, callee ast.Expression, line int) {
	name := jsDotted(callee)
	recv := ""
	if name == "" {
		de, ok := callee.(*ast.DotExpression)
		if !ok {
			return
		}
		name = "?." + de.Identifier.Name.String()
		if ne, ok := de.Left.(*ast.NewExpression); ok { // new C().m()
			if t := jsDotted(ne.Callee); t != "" {
				name, recv = "new."+de.Identifier.Name.String(), t
			}
		}
	}
	head, _, dotted := strings.Cut(name, ".")
	switch {
	case head == "new":
	case head == "this" && dotted:
		recv = "@self"
	case dotted:
		recv = sc.typeOf(head)
	}
	c := call{Name: name, Recv: recv, Line: line}
	if d := p.def(sc); d != nil {
		if len(d.Calls) < jsMaxCalls {
			d.Calls = append(d.Calls, c)
		}
	} else if len(p.fr.Calls) < jsMaxCalls {
		p.fr.Calls = append(p.fr.Calls, c)
	}
}

// valueType is what a binding's initializer says about its class:
// `new C()` -> C, `f()` / `await f()` -> "()f".
func valueType(e ast.Expression) string {
	if a, ok := e.(*ast.AwaitExpression); ok {
		e = a.Argument
	}
	switch e := e.(type) {
	case *ast.NewExpression:
		return jsDotted(e.Callee)
	case *ast.CallExpression:
		if f := jsDotted(e.Callee); f != "" && !strings.HasPrefix(f, "this.") {
			return "()" + f
		}
	}
	return ""
}

// walkNodes calls fn on n and, while fn returns true, on every descendant
// (by reflection over the AST's exported fields, so no node kind is
// missed). Hoisting lists (DeclarationList) repeat nodes and are skipped.
func walkNodes(n ast.Node, fn func(ast.Node) bool) {
	if n == nil || reflect.ValueOf(n).IsNil() {
		return
	}
	if !fn(n) {
		return
	}
	forChildren(n, func(c ast.Node) { walkNodes(c, fn) })
}

var nodeType = reflect.TypeOf((*ast.Node)(nil)).Elem()

// forChildren calls fn on the direct child nodes of n.
func forChildren(n ast.Node, fn func(ast.Node)) {
	v := reflect.ValueOf(n)
	if v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return
	}
	t := v.Type()
	for i := 0; i < v.NumField(); i++ {
		if !t.Field(i).IsExported() || t.Field(i).Name == "DeclarationList" {
			continue
		}
		childValues(v.Field(i), fn)
	}
}

func childValues(f reflect.Value, fn func(ast.Node)) {
	switch f.Kind() {
	case reflect.Interface, reflect.Pointer:
		if f.IsNil() {
			return
		}
		if f.Type().Implements(nodeType) {
			fn(f.Interface().(ast.Node))
		} else if f.Kind() == reflect.Pointer && f.Elem().Kind() == reflect.Struct {
			forStruct(f.Elem(), fn) // ImportClause and other non-node holders
		}
	case reflect.Slice:
		for i := 0; i < f.Len(); i++ {
			childValues(f.Index(i), fn)
		}
	case reflect.Struct:
		if f.CanAddr() && f.Addr().Type().Implements(nodeType) {
			fn(f.Addr().Interface().(ast.Node))
		}
	}
}

func forStruct(v reflect.Value, fn func(ast.Node)) {
	t := v.Type()
	for i := 0; i < v.NumField(); i++ {
		if t.Field(i).IsExported() {
			childValues(v.Field(i), fn)
		}
	}
}
