// parse_native.go reads Rust, C and C++ sources for the code graph with a
// small scanner instead of a grammar: comments, strings, character
// literals and preprocessor lines are blanked (lines kept), braces are
// matched, and the words before each `{` say what it opens: a function
// (Rust `fn f`, C/C++ `T f(...)`, C++ `A::f(...)`), a type (struct,
// class, union, enum, Rust trait), a Rust `impl X` or a C++ class body
// whose functions are X's methods, or a namespace/mod. Inside a function,
// `f(`, `A::f(`, `x.f(`, `p->f(` and `self.f(` are its calls. This names
// the function at a line, its file and its callers, which is what a stop
// report needs; it is no type checker (no overloads, no templates, no
// macros expanded). A tree-sitter grammar would parse more, but its Go
// bindings need cgo, which the five release targets are built without.

package code

import (
	"strings"
)

type ntok struct {
	s    string // a word (identifier or number) or one punctuation byte; "::" and "->" are one token
	line int
}

// nativeKeywords are words before `(` that are no call.
var nativeKeywords = map[string]bool{
	"if": true, "for": true, "while": true, "switch": true, "return": true, "sizeof": true, "match": true,
	"catch": true, "alignof": true, "decltype": true, "typeof": true, "defined": true, "static_assert": true,
	"else": true, "do": true, "case": true, "new": true, "delete": true, "throw": true, "loop": true,
	"in": true, "as": true, "fn": true, "let": true, "mut": true, "ref": true, "move": true, "Some": true,
	"Ok": true, "Err": true, "None": true, "static_cast": true, "dynamic_cast": true, "reinterpret_cast": true,
	"const_cast": true, "noexcept": true, "operator": true, "unsafe": true,
}

// parseNative fills fr from src (fr.Lang is rust, c or cpp).
func parseNative(fr *fileRec, src []byte) {
	clean, comments := blankNative(src, fr.Lang == "rust")
	toks := tokenizeNative(clean)
	p := nativeParser{fr: fr, toks: toks, comments: comments, rust: fr.Lang == "rust"}
	p.blockIn(0, "", -1)
}

type nativeParser struct {
	fr       *fileRec
	toks     []ntok
	i        int
	comments map[int]string // line -> the text of a // or /* comment on it
	rust     bool
}

// blockIn reads tokens up to the `}` closing the block (or the end).
// owner is the type whose methods the block defines ("" none); fn is the
// index of the def whose body this is (-1 none): its calls are collected.
func (p *nativeParser) blockIn(depth int, owner string, fn int) {
	head := p.i // the first token of the current statement
	for p.i < len(p.toks) {
		t := p.toks[p.i]
		switch t.s {
		case "}":
			p.i++
			return
		case ";":
			p.i++
			head = p.i
			continue
		case "{":
			h := p.toks[head:p.i]
			p.i++
			if fn >= 0 {
				p.blockIn(depth+1, owner, fn) // a nested block of the function
			} else {
				p.open(h, depth, owner)
			}
			head = p.i
			continue
		case "(":
			if fn >= 0 && p.i > 0 {
				p.call(fn)
			}
		}
		p.i++
	}
}

// call records the call whose `(` is at p.i, in def fn.
func (p *nativeParser) call(fn int) {
	j := p.i - 1
	name := p.toks[j].s
	if !isWord(name) || nativeKeywords[name] || (name[0] >= '0' && name[0] <= '9') {
		return
	}
	parts := []string{name}
	recv := ""
	for j >= 2 && p.toks[j-1].s == "::" && isWord(p.toks[j-2].s) {
		parts = append([]string{p.toks[j-2].s}, parts...)
		j -= 2
	}
	if j >= 1 && (p.toks[j-1].s == "." || p.toks[j-1].s == "->") {
		if j >= 2 && (p.toks[j-2].s == "self" || p.toks[j-2].s == "this") {
			recv = "@self"
		} else {
			recv = "@member"
		}
	}
	if len(parts) > 1 && (parts[0] == "Self" || parts[0] == "self") {
		parts, recv = parts[1:], "@self"
	}
	d := &p.fr.Defs[fn]
	if len(d.Calls) < 500 {
		d.Calls = append(d.Calls, call{Name: strings.Join(parts, "."), Recv: recv, Line: p.toks[p.i].line})
	}
}

// open reads the block a `{` opens, h being the words before it.
func (p *nativeParser) open(h []ntok, depth int, owner string) {
	kind, name, newOwner := p.classify(h)
	if kind == "" {
		p.blockIn(depth+1, newOwner, -1)
		return
	}
	start := h[0].line
	d := def{Name: name, Kind: kind, Start: start}
	if owner != "" && kind != "struct" && kind != "class" && kind != "type" && kind != "interface" {
		d.Name, d.Parent, d.Kind = owner+"."+name, owner, "method"
	} else if i := strings.LastIndexByte(name, '.'); i > 0 && kind == "function" {
		d.Parent, d.Kind = name[:i], "method"
	}
	if p.rust && kind == "function" && hasTestAttr(h) {
		d.Kind = "test"
	}
	d.Doc = p.docAbove(start)
	idx := len(p.fr.Defs)
	p.fr.Defs = append(p.fr.Defs, d)
	if kind == "function" {
		p.blockIn(depth+1, owner, idx)
	} else {
		p.blockIn(depth+1, newOwner, -1)
	}
	end := start
	if p.i > 0 {
		end = p.toks[p.i-1].line
	}
	p.fr.Defs[idx].End = end
}

// classify says what a block opened after the words h is: ("function",
// name, _), (a type kind, name, name: its body holds methods), or ("",
// "", owner) for a block that defines nothing itself (impl X: owner X;
// namespace, mod, extern "C": no owner; an initializer).
func (p *nativeParser) classify(h []ntok) (kind, name, owner string) {
	words := make([]string, len(h))
	for i, t := range h {
		words[i] = t.s
	}
	if len(words) == 0 {
		return "", "", ""
	}
	if p.rust {
		for i, w := range words {
			switch w {
			case "fn":
				if i+1 < len(words) && isWord(words[i+1]) {
					return "function", words[i+1], ""
				}
			case "struct", "union", "enum", "trait":
				if i+1 < len(words) && isWord(words[i+1]) && depthAt(words, i) == 0 {
					return map[string]string{"struct": "struct", "union": "struct", "enum": "type", "trait": "interface"}[w], words[i+1], words[i+1]
				}
			case "impl":
				if depthAt(words, i) == 0 {
					return "", "", implTarget(words[i+1:])
				}
			}
		}
		return "", "", ""
	}
	for i, w := range words {
		switch w {
		case "class", "struct", "union":
			if i+1 < len(words) && isWord(words[i+1]) && depthAt(words, i) == 0 && !hasWord(words, "(") && !hasWord(words, "=") {
				return map[string]string{"class": "class", "struct": "struct", "union": "struct"}[w], words[i+1], words[i+1]
			}
		case "enum", "namespace", "extern", "=":
			return "", "", ""
		}
	}
	// A function: NAME ( ... ) [qualifiers | : initializers | -> T] {
	open := -1
	for i, w := range words {
		if w == "(" {
			open = i
			break
		}
	}
	if open < 1 {
		return "", "", ""
	}
	j := open - 1
	n := words[j]
	for k := 0; k < open; k++ { // operator<<, operator==, operator()
		if words[k] == "operator" {
			j, n = k, "operator"+strings.Join(words[k+1:open], "")
			if n == "operator" && open+2 < len(words) && words[open+1] == ")" {
				n = "operator()"
			}
			break
		}
	}
	if j >= 1 && words[j-1] == "~" {
		n = "~" + n
		j--
	}
	if !strings.HasPrefix(n, "operator") && (!isWord(strings.TrimPrefix(n, "~")) || nativeKeywords[n]) {
		return "", "", ""
	}
	parts := []string{n}
	for j >= 2 && words[j-1] == "::" && isWord(words[j-2]) {
		parts = append([]string{words[j-2]}, parts...)
		j -= 2
	}
	return "function", strings.Join(parts, "."), ""
}

// implTarget is the type an `impl<..> [Trait for] Type<..>` block is for.
func implTarget(words []string) string {
	d, last := 0, ""
	for _, w := range words {
		switch {
		case w == "<":
			d++
		case w == ">":
			d--
		case w == "for" && d == 0:
			last = ""
		case w == "where" && d == 0:
			return last
		case d == 0 && isWord(w) && w != "dyn" && w != "mut":
			last = w
		}
	}
	return last
}

// depthAt is how many < are open before words[i].
func depthAt(words []string, i int) int {
	d := 0
	for _, w := range words[:i] {
		if w == "<" {
			d++
		} else if w == ">" {
			d--
		}
	}
	return d
}

func hasTestAttr(h []ntok) bool {
	for i := 0; i+3 < len(h); i++ {
		if h[i].s == "#" && h[i+1].s == "[" && h[i+2].s == "test" && h[i+3].s == "]" {
			return true
		}
	}
	return false
}

func hasWord(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// docAbove is the comment on the lines right above line (a /// or /**
// doc comment, or plain comments), joined.
func (p *nativeParser) docAbove(line int) string {
	var lines []string
	for l := line - 1; l > 0; l-- {
		c, ok := p.comments[l]
		if !ok {
			break
		}
		lines = append([]string{c}, lines...)
	}
	return strings.Join(lines, "\n")
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r > 127) {
			return false
		}
	}
	return true
}
