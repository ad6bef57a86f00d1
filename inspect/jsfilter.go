// jsfilter.go: the grammar of a JavaScript browse filter, checked here
// before anything is sent to the debuggee (the Python probe's filter.py is
// the model: parsed, then an allow-list). A filter is names (the row's
// fields, $row, $i, the frame's variables), field access (a.b, a?.b,
// a["b"], a[0]), literals (numbers, strings, template strings without
// substitutions, true/false/null/undefined/NaN/Infinity, a regex without
// nested quantifiers or back-references), comparisons, boolean logic (&&
// || ?? ! ?:), arithmetic and bitwise operators, typeof, instanceof a
// built-in class, and calls of a named list of methods (jsFilterMethods)
// and functions (jsFilterFuncs). Everything else is refused with
// INVALID_EXPRESSION naming the construct and its column: new, any other
// call, array and object literals, spread, functions and arrows,
// assignments, ++/--, delete, the comma operator, template substitutions
// and tagged templates, bigint exponents, names the probe keeps for itself
// ($$…) and property names that reach the prototypes (constructor,
// __proto__, prototype). V8's side-effect check stays the second layer.
//
// What it buys: a filter allocates nothing that grows with its text (no
// new Array(2**30), no 'x'.repeat(1e9), no [...] of a spread) and calls no
// function but the listed built-ins, so a filter cannot exhaust the heap
// or spin in a backtracking regex. What it cannot promise: a listed method
// is looked up on the value at run time, so a row's own object with a
// method of that name, a getter read by field access on a value that is
// not a row, or an operand's valueOf in a comparison is the program's code;
// it runs under the side-effect check, which refuses any that writes.

package inspect

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
)

// jsFilterMethods are the methods a filter may call (pure string, date,
// number and regex methods, bounded by the value's own size).
var jsFilterMethods = map[string]bool{
	"startsWith": true, "endsWith": true, "includes": true, "indexOf": true, "lastIndexOf": true,
	"toLowerCase": true, "toUpperCase": true, "trim": true, "trimStart": true, "trimEnd": true,
	"at": true, "charAt": true, "charCodeAt": true, "codePointAt": true, "slice": true, "substring": true,
	"getTime": true, "getFullYear": true, "getMonth": true, "getDate": true, "getDay": true, "getHours": true,
	"getMinutes": true, "getSeconds": true, "getMilliseconds": true, "getUTCFullYear": true, "getUTCMonth": true,
	"getUTCDate": true, "getUTCDay": true, "getUTCHours": true, "getUTCMinutes": true, "getUTCSeconds": true,
	"test": true, "isInteger": true,
}

// jsFilterFuncs are the functions a filter may call by name.
var jsFilterFuncs = map[string]bool{
	"isNaN": true, "isFinite": true,
	"Math.abs": true, "Math.min": true, "Math.max": true, "Math.floor": true, "Math.ceil": true, "Math.round": true,
	"Math.trunc": true, "Math.sign": true, "Math.sqrt": true, "Math.cbrt": true, "Math.log": true, "Math.log10": true,
	"Math.log2": true, "Math.exp": true, "Math.pow": true, "Math.hypot": true,
	"Number.isNaN": true, "Number.isFinite": true, "Number.isInteger": true, "Number.isSafeInteger": true,
}

// jsFilterClasses may be the right side of instanceof.
var jsFilterClasses = map[string]bool{"Date": true, "Array": true, "Map": true, "Set": true, "RegExp": true, "Error": true}

// jsFilterHint says what a filter may be.
const jsFilterHint = `a JavaScript expression over the row's fields, e.g. qty > 5 && city === "Nice" ($row is the row, $i its position): ` +
	"fields and variables, literals, comparisons, && || ?? !, arithmetic, typeof, instanceof Date, and the methods startsWith, endsWith, " +
	"includes, indexOf, toLowerCase, toUpperCase, trim, slice, getTime…, Math.abs/min/max/floor/round…, isNaN, Number.isFinite"

const jsFilterMaxArgs = 4

// jsTok is a token of a filter.
type jsTok struct {
	kind string // name, num, str, tmpl, regex, punct, eof
	text string
	at   int // byte offset
}

type jsFilterParser struct {
	src   string
	toks  []jsTok
	i     int
	nodes int
}

// jsFilterError is a refusal: what the construct is and where.
type jsFilterError struct {
	what string
	at   int
}

func (e *jsFilterError) Error() string { return e.what }

// ValidateJSFilter checks a JavaScript browse filter against the filter
// grammar: nil, or INVALID_EXPRESSION naming what is not allowed.
func ValidateJSFilter(filter string) error {
	if err := checkJSFilter(filter); err != nil {
		col := utf8.RuneCountInString(filter[:min(err.at, len(filter))]) + 1
		return &errcode.Error{Code: errcode.InvalidExpression,
			Message: fmt.Sprintf("filter %s was refused: %s (column %d)", pyQuote(clipFilter(filter)), err.what, col),
			Hint:    jsFilterHint}
	}
	return nil
}

func clipFilter(s string) string {
	if utf8.RuneCountInString(s) <= 200 {
		return s
	}
	r := []rune(s)
	return string(r[:200]) + "…"
}

func checkJSFilter(filter string) *jsFilterError {
	toks, err := jsTokens(filter)
	if err != nil {
		return err
	}
	p := &jsFilterParser{src: filter, toks: toks}
	if p.peek().kind == "eof" {
		return &jsFilterError{what: "SyntaxError: an empty filter", at: 0}
	}
	if err := p.cond(); err != nil {
		return err
	}
	if t := p.peek(); t.kind != "eof" {
		return p.refuse(t)
	}
	return nil
}

func (p *jsFilterParser) peek() jsTok { return p.toks[p.i] }

func (p *jsFilterParser) next() jsTok {
	t := p.toks[p.i]
	if t.kind != "eof" {
		p.i++
	}
	return t
}

func (p *jsFilterParser) is(text string) bool {
	t := p.peek()
	return (t.kind == "punct" || t.kind == "name") && t.text == text
}

func (p *jsFilterParser) node(at int) *jsFilterError {
	p.nodes++
	if p.nodes > ProbeLimits.FilterNodes {
		return &jsFilterError{what: fmt.Sprintf("more than %d syntax nodes", ProbeLimits.FilterNodes), at: at}
	}
	return nil
}

// The binary operators by precedence, lowest first.
var jsBinary = [][]string{
	{"??"}, {"||"}, {"&&"}, {"|"}, {"^"}, {"&"},
	{"==", "!=", "===", "!=="},
	{"<", ">", "<=", ">=", "instanceof", "in"},
	{"<<", ">>", ">>>"},
	{"+", "-"},
	{"*", "/", "%"},
}

func (p *jsFilterParser) cond() *jsFilterError {
	if err := p.binary(0); err != nil {
		return err
	}
	if p.is("?") {
		if err := p.node(p.next().at); err != nil {
			return err
		}
		if err := p.cond(); err != nil {
			return err
		}
		if !p.is(":") {
			return p.refuse(p.peek())
		}
		p.next()
		return p.cond()
	}
	return nil
}

func (p *jsFilterParser) binary(level int) *jsFilterError {
	if level == len(jsBinary) {
		return p.exponent()
	}
	if err := p.binary(level + 1); err != nil {
		return err
	}
	for {
		t := p.peek()
		op := ""
		for _, o := range jsBinary[level] {
			if (t.kind == "punct" || t.kind == "name") && t.text == o {
				op = o
			}
		}
		if op == "" {
			return nil
		}
		p.next()
		if err := p.node(t.at); err != nil {
			return err
		}
		if op == "instanceof" {
			r := p.peek()
			if r.kind != "name" || !jsFilterClasses[r.text] {
				return &jsFilterError{what: "instanceof takes a built-in class (Date, Array, Map, Set, RegExp, Error)", at: r.at}
			}
			p.next()
			continue
		}
		if err := p.binary(level + 1); err != nil {
			return err
		}
	}
}

func (p *jsFilterParser) exponent() *jsFilterError {
	if err := p.unary(); err != nil {
		return err
	}
	if p.is("**") {
		t := p.next()
		if err := p.node(t.at); err != nil {
			return err
		}
		if r := p.peek(); r.kind == "num" && strings.HasSuffix(r.text, "n") {
			return &jsFilterError{what: "a bigint exponent is not allowed in a filter (its result can fill the heap)", at: r.at}
		}
		return p.exponent()
	}
	return nil
}

func (p *jsFilterParser) unary() *jsFilterError {
	t := p.peek()
	if (t.kind == "punct" && (t.text == "!" || t.text == "-" || t.text == "+" || t.text == "~")) || (t.kind == "name" && t.text == "typeof") {
		p.next()
		if err := p.node(t.at); err != nil {
			return err
		}
		return p.unary()
	}
	return p.postfix()
}

// postfix: a primary, then field access and calls of listed methods.
func (p *jsFilterParser) postfix() *jsFilterError {
	start := p.peek()
	callee, err := p.primary()
	if err != nil {
		return err
	}
	for {
		t := p.peek()
		switch {
		case t.kind == "punct" && (t.text == "." || t.text == "?."):
			p.next()
			if err := p.node(t.at); err != nil {
				return err
			}
			n := p.peek()
			if n.kind == "punct" && (n.text == "[" || n.text == "(") && t.text == "?." {
				continue // a?.[x], a?.(…): handled by the next round
			}
			if n.kind != "name" {
				return p.refuse(n)
			}
			p.next()
			if n.text == "constructor" || n.text == "__proto__" || n.text == "prototype" || strings.HasPrefix(n.text, "__") {
				return &jsFilterError{what: "the property " + n.text + " is not allowed in a filter", at: n.at}
			}
			if strings.HasPrefix(n.text, "$$") {
				return &jsFilterError{what: "names starting with $$ are the probe's own", at: n.at}
			}
			if p.is("(") || (p.is("?.") && p.toks[p.i+1].text == "(") {
				name := n.text
				if callee == "Math" || callee == "Number" || callee == "Object" || callee == "JSON" || callee == "Array" || callee == "String" || callee == "Reflect" {
					name = callee + "." + n.text
				}
				if !jsFilterMethods[n.text] && !(strings.Contains(name, ".") && jsFilterFuncs[name]) {
					return &jsFilterError{what: "it could change the program: a call of " + name + " is not allowed in a filter (methods: " + jsMethodList() + "; Math.*, isNaN, isFinite, Number.isNaN…)", at: n.at}
				}
				if p.is("?.") {
					p.next()
				}
				if err := p.args(); err != nil {
					return err
				}
				callee = ""
				continue
			}
			if callee != "" {
				callee += "." + n.text
			}
		case t.kind == "punct" && t.text == "[":
			p.next()
			if err := p.node(t.at); err != nil {
				return err
			}
			if err := p.cond(); err != nil {
				return err
			}
			if !p.is("]") {
				return p.refuse(p.peek())
			}
			p.next()
			callee = ""
		case t.kind == "punct" && t.text == "(":
			if callee == "" || !jsFilterFuncs[callee] {
				name := callee
				if name == "" {
					name = strings.TrimSpace(p.src[start.at:t.at])
				}
				return &jsFilterError{what: "it could change the program: a call of " + clip40(name) + " is not allowed in a filter (methods: " + jsMethodList() + "; Math.*, isNaN, isFinite, Number.isNaN…)", at: start.at}
			}
			if err := p.args(); err != nil {
				return err
			}
			callee = ""
		case t.kind == "tmpl":
			return p.refuse(t)
		case t.kind == "punct" && (t.text == "++" || t.text == "--"):
			return p.refuse(t)
		default:
			return nil
		}
	}
}

func clip40(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

func jsMethodList() string {
	return "startsWith, endsWith, includes, indexOf, toLowerCase, toUpperCase, trim, slice, at, getTime, getFullYear…, test"
}

func (p *jsFilterParser) args() *jsFilterError {
	p.next() // (
	if p.is(")") {
		p.next()
		return nil
	}
	for n := 1; ; n++ {
		if n > jsFilterMaxArgs {
			return &jsFilterError{what: fmt.Sprintf("more than %d arguments", jsFilterMaxArgs), at: p.peek().at}
		}
		if p.is("...") {
			return p.refuse(p.peek())
		}
		if err := p.cond(); err != nil {
			return err
		}
		if p.is(")") {
			p.next()
			return nil
		}
		if !p.is(",") {
			return p.refuse(p.peek())
		}
		p.next()
	}
}

// primary returns the dotted name it read ("Math", "Number") for a call's
// callee, "" otherwise.
func (p *jsFilterParser) primary() (string, *jsFilterError) {
	t := p.peek()
	if err := p.node(t.at); err != nil {
		return "", err
	}
	switch t.kind {
	case "num", "str":
		p.next()
		return "", nil
	case "tmpl":
		p.next()
		if strings.Contains(t.text, "${") {
			return "", &jsFilterError{what: "a template literal with ${…} is not allowed in a filter", at: t.at}
		}
		return "", nil
	case "regex":
		p.next()
		if why := jsRegexRisk(t.text); why != "" {
			return "", &jsFilterError{what: "the regex " + clip40(t.text) + " " + why, at: t.at}
		}
		return "", nil
	case "name":
		if jsFilterReserved[t.text] || t.text == "new" || t.text == "in" || t.text == "instanceof" || t.text == "typeof" {
			return "", p.refuse(t)
		}
		if strings.HasPrefix(t.text, "$$") {
			return "", &jsFilterError{what: "names starting with $$ are the probe's own", at: t.at}
		}
		p.next()
		if p.is("=>") {
			return "", p.refuse(p.peek())
		}
		return t.text, nil
	case "punct":
		if t.text == "(" {
			p.next()
			if err := p.cond(); err != nil {
				return "", err
			}
			if p.is(",") || p.is("=>") || !p.is(")") {
				return "", p.refuse(p.peek())
			}
			p.next()
			if p.is("=>") {
				return "", p.refuse(p.peek())
			}
			return "", nil
		}
	}
	return "", p.refuse(t)
}
