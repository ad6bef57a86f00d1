// jsfilter_lex.go: the tokens of a JavaScript browse filter (jsfilter.go
// parses them) and the check of its regex literals.

package inspect

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// refuse names the construct that starts at t.
func (p *jsFilterParser) refuse(t jsTok) *jsFilterError {
	what := ""
	switch {
	case t.kind == "eof":
		what = "SyntaxError: the filter ends too soon"
	case t.kind == "name" && t.text == "new":
		what = "it could change the program: `new` is not allowed in a filter"
	case t.kind == "name" && (t.text == "function" || t.text == "class"):
		what = "a " + t.text + " is not allowed in a filter"
	case t.kind == "name" && t.text == "delete":
		what = "it could change the program: `delete` is not allowed in a filter"
	case t.kind == "name" && jsFilterReserved[t.text]:
		what = "`" + t.text + "` is not allowed in a filter"
	case t.text == "=>":
		what = "an arrow function is not allowed in a filter"
	case t.text == "...":
		what = "spread (...) is not allowed in a filter"
	case t.text == "[":
		what = "an array literal is not allowed in a filter"
	case t.text == "{":
		what = "an object literal is not allowed in a filter"
	case t.text == ",":
		what = "the comma operator is not allowed in a filter"
	case t.text == "++" || t.text == "--":
		what = "it could change the program: " + t.text + " is not allowed in a filter"
	case t.kind == "punct" && strings.HasSuffix(t.text, "=") && t.text != "==" && t.text != "===" && t.text != "!=" && t.text != "!==" && t.text != "<=" && t.text != ">=":
		what = "it could change the program: an assignment (" + t.text + ") is not allowed in a filter"
	case t.kind == "tmpl":
		what = "a tagged template is not allowed in a filter"
	default:
		what = "SyntaxError: unexpected " + strings.TrimSpace(t.text)
	}
	return &jsFilterError{what: what, at: t.at}
}

var jsFilterReserved = map[string]bool{}

func init() {
	for _, w := range strings.Fields("break case catch class const continue debugger default delete do else enum export extends finally for " +
		"function if import new return super switch this throw try var void while with yield let static implements interface package " +
		"private protected public await eval arguments async") {
		jsFilterReserved[w] = true
	}
}

// jsRegexRisk says why a regex literal could backtrack for ever: a
// quantified group that holds a quantifier ((a+)+, (a|aa)*), or a
// back-reference; "" when it has neither.
func jsRegexRisk(re string) string {
	end := strings.LastIndexByte(re, '/')
	body := re[1:end]
	type group struct{ quantified, alt bool }
	var stack []group
	inClass := false
	isQuant := func(i int) bool {
		return i < len(body) && (body[i] == '*' || body[i] == '+' || body[i] == '?' || body[i] == '{')
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 < len(body) && (body[i+1] >= '1' && body[i+1] <= '9' || body[i+1] == 'k') {
				return "has a back-reference, which is not allowed in a filter"
			}
			i++
			if isQuant(i+1) && len(stack) > 0 {
				stack[len(stack)-1].quantified = true
			}
		case inClass:
			if c == ']' {
				inClass = false
				if isQuant(i+1) && len(stack) > 0 {
					stack[len(stack)-1].quantified = true
				}
			}
		case c == '[':
			inClass = true
		case c == '(':
			stack = append(stack, group{})
		case c == '|':
			if len(stack) > 0 {
				stack[len(stack)-1].alt = true
			}
		case c == ')':
			if len(stack) == 0 {
				continue
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if isQuant(i + 1) {
				if g.quantified || g.alt {
					return "has nested quantifiers, which can backtrack for ever: not allowed in a filter"
				}
				if len(stack) > 0 {
					stack[len(stack)-1].quantified = true
				}
			} else if g.quantified && len(stack) > 0 {
				stack[len(stack)-1].quantified = true
			}
		case c == '*' || c == '+' || c == '?' || c == '{':
			// a quantifier: its atom was marked when read
		default:
			if isQuant(i+1) && len(stack) > 0 {
				stack[len(stack)-1].quantified = true
			}
		}
	}
	return ""
}

// jsTokens splits a filter into tokens; a regex literal is read where an
// operand is expected (after an operator or an opening bracket).
func jsTokens(s string) ([]jsTok, *jsFilterError) {
	var out []jsTok
	puncts := []string{">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
		"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
		"+", "-", "*", "/", "%", "<", ">", "=", "!", "~", "&", "|", "^", "?", ":", "(", ")", "[", "]", "{", "}", ".", ",", ";", "@", "#"}
	operandNext := func() bool {
		if len(out) == 0 {
			return true
		}
		l := out[len(out)-1]
		switch l.kind {
		case "num", "str", "tmpl", "regex":
			return false
		case "name":
			return jsFilterReserved[l.text] || l.text == "typeof" || l.text == "instanceof" || l.text == "in" || l.text == "new"
		}
		return l.text != ")" && l.text != "]" && l.text != "}"
	}
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'):
			return nil, &jsFilterError{what: "comments are not allowed in a filter", at: i}
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9':
			j := i
			for j < len(s) && (isIdentByte(s[j]) || s[j] == '.' || (s[j] == '+' || s[j] == '-') && j > i && (s[j-1] == 'e' || s[j-1] == 'E') && !strings.HasPrefix(strings.ToLower(s[i:j]), "0x")) {
				j++
			}
			out = append(out, jsTok{"num", s[i:j], i})
			i = j
		case c == '"' || c == '\'' || c == '`':
			j := i + 1
			for j < len(s) && s[j] != c {
				if s[j] == '\\' {
					j++
				}
				if c != '`' && j < len(s) && (s[j] == '\n' || s[j] == '\r') {
					return nil, &jsFilterError{what: "SyntaxError: a string literal is not closed", at: i}
				}
				j++
			}
			if j >= len(s) {
				return nil, &jsFilterError{what: "SyntaxError: a string literal is not closed", at: i}
			}
			kind := "str"
			if c == '`' {
				kind = "tmpl"
			}
			out = append(out, jsTok{kind, s[i : j+1], i})
			i = j + 1
		case c == '/' && operandNext():
			j, inClass := i+1, false
			for ; j < len(s); j++ {
				if s[j] == '\\' {
					j++
					continue
				}
				if s[j] == '\n' {
					break
				}
				if s[j] == '[' {
					inClass = true
				} else if s[j] == ']' {
					inClass = false
				} else if s[j] == '/' && !inClass {
					break
				}
			}
			if j >= len(s) || s[j] != '/' {
				return nil, &jsFilterError{what: "SyntaxError: a regex literal is not closed", at: i}
			}
			j++
			for j < len(s) && isIdentByte(s[j]) {
				j++
			}
			out = append(out, jsTok{"regex", s[i:j], i})
			i = j
		case isIdentStart(s[i:]):
			j := i
			for j < len(s) {
				r, n := utf8.DecodeRuneInString(s[j:])
				if !(r == '$' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\u200c' || r == '\u200d' || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)) {
					break
				}
				j += n
			}
			out = append(out, jsTok{"name", s[i:j], i})
			i = j
		case c == '\\':
			return nil, &jsFilterError{what: "escapes in names are not allowed in a filter", at: i}
		default:
			p := ""
			for _, q := range puncts {
				if strings.HasPrefix(s[i:], q) {
					p = q
					break
				}
			}
			if p == "" {
				r, _ := utf8.DecodeRuneInString(s[i:])
				return nil, &jsFilterError{what: fmt.Sprintf("SyntaxError: unexpected character %q", r), at: i}
			}
			if p == "?." && i+2 < len(s) && s[i+2] >= '0' && s[i+2] <= '9' {
				p = "?" // a ? .5 : b
			}
			if p == ";" || p == "@" || p == "#" {
				return nil, &jsFilterError{what: "SyntaxError: unexpected " + p, at: i}
			}
			out = append(out, jsTok{"punct", p, i})
			i += len(p)
		}
	}
	return append(out, jsTok{kind: "eof", at: len(s)}), nil
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r == '$' || r == '_' || unicode.IsLetter(r)
}
