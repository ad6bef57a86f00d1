// This file parses inspection expressions: a name followed by attribute
// accesses and subscripts with int or string literals (df, self.cache,
// data['train'], arr[0], obj.items[-1]). Anything else (calls, operators,
// slices) is rejected, so the inspector never evaluates arbitrary user text
// in the debuggee. Names follow the session's language: Python's (and Go's)
// by default, JavaScript's for Node sessions ($ in names, reserved words
// allowed as property names after a dot: records[0].city, opts.class).

package inspect

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
)

// Step is one element of a path: Kind is "name", "attr" or "item"; Value is
// a string (names, attributes, string keys) or an int64 (indexes).
type Step struct {
	Kind  string
	Value any
}

// MarshalJSON encodes a step as the probe expects: [kind, value].
func (s Step) MarshalJSON() ([]byte, error) { return json.Marshal([]any{s.Kind, s.Value}) }

// Path is a parsed expression.
type Path []Step

var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// jsReserved are JavaScript's reserved words (strict mode, ES2023) and the
// literals that cannot name a variable; "this" is allowed as a root.
var jsReserved = map[string]bool{
	"await": true, "break": true, "case": true, "catch": true, "class": true, "const": true, "continue": true,
	"debugger": true, "default": true, "delete": true, "do": true, "else": true, "enum": true, "export": true,
	"extends": true, "false": true, "finally": true, "for": true, "function": true, "if": true, "implements": true,
	"import": true, "in": true, "instanceof": true, "interface": true, "let": true, "new": true, "null": true,
	"package": true, "private": true, "protected": true, "public": true, "return": true, "static": true,
	"super": true, "switch": true, "throw": true, "true": true, "try": true, "typeof": true, "var": true,
	"void": true, "while": true, "with": true, "yield": true,
}

// ParsePath parses expr in Python's grammar (also used for Go); the error
// is an *errcode.Error with code INVALID_EXPRESSION.
func ParsePath(expr string) (Path, error) { return parsePath(expr, false) }

// ParsePathFor parses expr in the grammar of the language: JavaScript's, or
// Python's (also used for Go).
// Native paths (lldb) may end in @N: a pointer read as N elements
// (ints@1000), gdb's notation.
func ParsePathFor(lang Language, expr string) (Path, error) {
	if lang == Native {
		if i := strings.LastIndexByte(expr, '@'); i > 0 {
			n, err := strconv.ParseInt(strings.TrimSpace(expr[i+1:]), 10, 64)
			if err != nil || n < 0 {
				return nil, errorf(errcode.InvalidExpression, expressionHint, "@ takes an element count: ptr@1000")
			}
			p, err := parsePath(expr[:i], false)
			if err != nil {
				return nil, err
			}
			return append(p, Step{Kind: "len", Value: n}), nil
		}
	}
	return parsePath(expr, lang == JavaScript)
}

func parsePath(expr string, js bool) (Path, error) {
	p := &pathParser{s: strings.TrimSpace(expr), js: js}
	if p.s == "" {
		return nil, errorf(errcode.InvalidExpression, expressionHint, "empty expression")
	}
	if !utf8.ValidString(p.s) {
		return nil, errorf(errcode.InvalidExpression, expressionHint, "expression is not valid UTF-8")
	}
	if len(p.s) > 1000 {
		return nil, errorf(errcode.InvalidExpression, expressionHint, "expression longer than 1000 characters")
	}
	name, err := p.ident(true)
	if err != nil {
		return nil, err
	}
	path := Path{{Kind: "name", Value: name}}
	for p.i < len(p.s) {
		p.space()
		if p.i >= len(p.s) {
			break
		}
		switch p.s[p.i] {
		case '.':
			p.i++
			p.space()
			a, err := p.ident(false)
			if err != nil {
				return nil, err
			}
			path = append(path, Step{Kind: "attr", Value: a})
		case '[':
			p.i++
			p.space()
			v, err := p.literal()
			if err != nil {
				return nil, err
			}
			p.space()
			if p.i >= len(p.s) || p.s[p.i] != ']' {
				return nil, p.fail("expected ] after the subscript")
			}
			p.i++
			path = append(path, Step{Kind: "item", Value: v})
		default:
			return nil, p.fail("unexpected %q", p.s[p.i:p.i+1])
		}
		if len(path) > 32 {
			return nil, errorf(errcode.InvalidExpression, expressionHint, "path deeper than 32 steps")
		}
	}
	return path, nil
}

// String renders the path in Python syntax (the normalized name).
func (p Path) String() string {
	out, _ := p.render(func(v any) (string, error) { return pyLiteral(v), nil })
	return out
}

// In renders the path in the language's syntax (Go: "" when it has no Go
// form).
func (p Path) In(lang Language) string {
	switch lang {
	case JavaScript:
		return p.JSExpr()
	case Go:
		s, _ := p.GoExpr()
		return s
	}
	return p.String()
}

// GoExpr renders the path in Go syntax for Delve; a negative index is not
// valid Go and is an INVALID_EXPRESSION.
func (p Path) GoExpr() (string, error) {
	return p.render(func(v any) (string, error) {
		switch v := v.(type) {
		case int64:
			if v < 0 {
				return "", errorf(errcode.InvalidExpression, "Go indexes are 0..len-1", "negative index %d is not valid in Go", v)
			}
			return strconv.FormatInt(v, 10), nil
		case string:
			return strconv.Quote(v), nil
		}
		return "", errorf(errcode.InvalidExpression, expressionHint, "unsupported subscript %v", v)
	})
}

// render writes names and attributes as they are and each subscript's key
// through key.
func (p Path) render(key func(v any) (string, error)) (string, error) {
	var b strings.Builder
	for _, s := range p {
		switch s.Kind {
		case "name":
			b.WriteString(s.Value.(string))
		case "attr":
			b.WriteString("." + s.Value.(string))
		case "len":
			b.WriteString("@" + strconv.FormatInt(s.Value.(int64), 10))
		default:
			k, err := key(s.Value)
			if err != nil {
				return "", err
			}
			b.WriteString("[" + k + "]")
		}
	}
	return b.String(), nil
}

func pyLiteral(v any) string {
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case string:
		q := strconv.QuoteToASCII(v)
		// Python's repr prefers single quotes.
		if !strings.Contains(v, "'") {
			q = "'" + strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`) + "'"
		}
		return q
	}
	return fmt.Sprint(v)
}

type pathParser struct {
	s  string
	i  int
	js bool // JavaScript names
}

func (p *pathParser) fail(format string, args ...any) *errcode.Error {
	return errorf(errcode.InvalidExpression, expressionHint, "invalid expression %q at offset %d: %s", p.s, p.i, fmt.Sprintf(format, args...))
}

func (p *pathParser) space() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t') {
		p.i++
	}
}

// identRune reports whether r may stand in a name (first: at its start).
// JavaScript: ID_Start, $ and _; then ID_Continue, ZWNJ and ZWJ. Python:
// letters and _; then digits.
func (p *pathParser) identRune(r rune, first bool) bool {
	if r == '_' || unicode.IsLetter(r) {
		return true
	}
	if p.js {
		if r == '$' || unicode.Is(unicode.Nl, r) {
			return true
		}
		return !first && (unicode.IsDigit(r) || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Pc) || r == '\u200c' || r == '\u200d')
	}
	return !first && unicode.IsDigit(r)
}

// ident reads a name: a variable at the root of the path, else a property
// (where JavaScript allows its reserved words: obj.class, opts.default).
func (p *pathParser) ident(root bool) (string, error) {
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !p.identRune(r, p.i == start) {
			break
		}
		p.i += n
	}
	if p.i == start {
		if p.i < len(p.s) {
			return "", p.fail("expected a name, found %q", p.s[p.i:p.i+1])
		}
		return "", p.fail("expected a name")
	}
	id := p.s[start:p.i]
	switch {
	case p.js && root && jsReserved[id]:
		return "", p.fail("%q is a reserved word, not a variable", id)
	case !p.js && pyKeywords[id]:
		return "", p.fail("%q is a keyword, not a variable", id)
	}
	return id, nil
}

func (p *pathParser) literal() (any, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("expected an int or string literal")
	}
	c := p.s[p.i]
	if c == '\'' || c == '"' {
		return p.str(c)
	}
	start := p.i
	if c == '-' || c == '+' {
		p.i++
	}
	for p.i < len(p.s) && (p.s[p.i] >= '0' && p.s[p.i] <= '9' || p.s[p.i] == '_') {
		p.i++
	}
	text := strings.ReplaceAll(p.s[start:p.i], "_", "")
	if text == "" || text == "-" || text == "+" {
		p.i = start
		return nil, p.fail("subscripts take an int or string literal (no slices, calls or names)")
	}
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil {
		p.i = start
		return nil, p.fail("index %s out of range", text)
	}
	return n, nil
}

func (p *pathParser) str(q byte) (any, error) {
	p.i++
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return nil, p.fail("unterminated string")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '\\', '\'', '"':
				b.WriteByte(e)
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			case 'a':
				b.WriteByte('\a')
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'v':
				b.WriteByte('\v')
			case '0':
				if p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '7' {
					return nil, p.fail("octal escapes are not supported (use \\x)")
				}
				b.WriteByte(0)
			case 'x', 'u', 'U':
				n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
				if p.i+n > len(p.s) {
					return nil, p.fail("short \\%c escape", e)
				}
				v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
				if err != nil || v > unicode.MaxRune {
					return nil, p.fail("bad \\%c escape", e)
				}
				b.WriteRune(rune(v))
				p.i += n
			default:
				return nil, p.fail("unsupported escape \\%c", e)
			}
		case c == '\n':
			return nil, p.fail("newline in string")
		default:
			b.WriteByte(c)
			p.i++
		}
	}
	return nil, p.fail("unterminated string")
}
