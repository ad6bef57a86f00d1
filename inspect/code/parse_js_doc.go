// parse_js_doc.go reads JavaScript doc comments for the code index: the
// JSDoc block (or the // lines) right above a definition, the file's
// leading comment, and the JSDoc tags (@param {T} name, @returns, @throws,
// @yields) turned into the field form docstring.go already parses.

package code

import (
	"strings"

	"github.com/grafana/sobek/ast"
)

// docBefore returns the doc comment attached to code starting at byte
// offset off (a /** */ block or // lines, no blank line in between) and
// the offset where the comment starts.
func (p *jsParser) docBefore(off int) (string, int) {
	src := p.src
	i := off
	newlines := 0
	for i > 0 && strings.IndexByte(" \t\r\n", src[i-1]) >= 0 {
		if src[i-1] == '\n' {
			newlines++
		}
		i--
	}
	if newlines > 1 || i < 2 {
		return "", off
	}
	if src[i-2:i] == "*/" {
		start := strings.LastIndex(src[:i-2], "/*")
		if start < 0 || !strings.HasPrefix(src[start:], "/**") || strings.HasPrefix(src[start:], "/**/") {
			return "", off
		}
		return cleanBlockComment(src[start:i]), start
	}
	// Consecutive // lines ending right above.
	var lines []string
	start := off
	end := i
	for end > 0 {
		ls := strings.LastIndexByte(src[:end], '\n') + 1
		t := strings.TrimSpace(src[ls:end])
		if !strings.HasPrefix(t, "//") {
			break
		}
		lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(t, "//"), " "))
		start = ls
		if ls == 0 {
			break
		}
		end = ls - 1
	}
	if len(lines) == 0 {
		return "", off
	}
	for a, b := 0, len(lines)-1; a < b; a, b = a+1, b-1 {
		lines[a], lines[b] = lines[b], lines[a]
	}
	for start < len(src) && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	return strings.Join(lines, "\n"), start
}

// cleanBlockComment strips /** */ and the leading " * " of each line.
func cleanBlockComment(c string) string {
	c = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(c, "/**"), "/*"), "*/")
	lines := strings.Split(c, "\n")
	for i, l := range lines {
		l = strings.TrimSpace(l)
		l = strings.TrimPrefix(l, "*")
		lines[i] = strings.TrimPrefix(l, " ")
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// fileDoc is the file's leading comment (after a #! line) when a blank
// line separates it from the code; otherwise it documents the first
// definition.
func (p *jsParser) fileDoc(prog *ast.Program) string {
	src := p.src
	i := 0
	if strings.HasPrefix(src, "#!") {
		i = strings.IndexByte(src, '\n') + 1
		if i == 0 {
			return ""
		}
	}
	for i < len(src) && strings.IndexByte(" \t\r\n", src[i]) >= 0 {
		i++
	}
	end := -1
	switch {
	case strings.HasPrefix(src[i:], "/*"):
		if e := strings.Index(src[i:], "*/"); e >= 0 {
			end = i + e + 2
		}
	case strings.HasPrefix(src[i:], "//"):
		end = i
		for strings.HasPrefix(src[end:], "//") {
			nl := strings.IndexByte(src[end:], '\n')
			if nl < 0 {
				end = len(src)
				break
			}
			end += nl + 1
			for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
				end++
			}
		}
	}
	if end < 0 {
		return ""
	}
	if len(prog.Body) > 0 {
		first := int(prog.Body[0].Idx0()) - 1
		if first >= end && strings.Count(src[end:first], "\n") < 2 && !strings.HasPrefix(src[end:], "\n\n") {
			return "" // attached to the first statement
		}
	}
	text := src[i:end]
	if strings.HasPrefix(text, "/*") {
		return cleanBlockComment(text)
	}
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l != "" {
			lines = append(lines, strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		}
	}
	return strings.Join(lines, "\n")
}

// jsDocToFields rewrites JSDoc tags into the :param:/:returns:/:raises:
// fields of docstring.go, records @param types as d.Params (the walker
// completes them from the signature) and returns the @returns type.
func jsDocToFields(doc string, d *def) (string, string) {
	if !strings.Contains(doc, "@") {
		return doc, ""
	}
	var out []string
	ret := ""
	inTag := false
	for _, l := range strings.Split(doc, "\n") {
		t := strings.TrimSpace(l)
		if !strings.HasPrefix(t, "@") {
			if !inTag {
				out = append(out, l)
			} else if t != "" && len(out) > 0 && strings.HasPrefix(out[len(out)-1], ":") {
				out[len(out)-1] += " " + t // a tag's description goes on
			}
			continue
		}
		inTag = true
		tag, rest, _ := strings.Cut(t[1:], " ")
		typ, rest := jsDocType(strings.TrimSpace(rest))
		switch tag {
		case "param", "arg", "argument":
			name, desc, _ := strings.Cut(rest, " ")
			name = strings.Trim(name, "[]")
			name, _, _ = strings.Cut(name, "=")
			desc = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(desc), "- "))
			if name == "" || strings.Contains(name, ".") {
				continue
			}
			d.Params = append(d.Params, param{Name: name, Type: typ})
			out = append(out, ":param "+name+": "+desc)
		case "returns", "return":
			ret = typ
			out = append(out, ":returns: "+strings.TrimPrefix(rest, "- "))
		case "throws", "exception":
			name := typ
			if name == "" {
				name = "Error"
			}
			out = append(out, ":raises "+name+": "+strings.TrimPrefix(rest, "- "))
		case "yields", "yield":
			out = append(out, ":yields: "+strings.TrimPrefix(rest, "- "))
		default:
			out = append(out, "") // @example, @see…: not a field, ends the summary
		}
	}
	return strings.TrimSpace(strings.Join(out, "\n")), ret
}

// jsDocType splits "{T} rest" into T and rest (braces may nest).
func jsDocType(s string) (string, string) {
	if !strings.HasPrefix(s, "{") {
		return "", s
	}
	depth := 0
	for i, r := range s {
		switch r {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return s[1:i], strings.TrimSpace(s[i+1:])
			}
		}
	}
	return "", s
}
