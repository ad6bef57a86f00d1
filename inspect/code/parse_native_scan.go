// parse_native_scan.go: the scanner under parse_native.go: blanks the
// comments (kept per line, for doc comments), strings, character
// literals and preprocessor lines of a Rust, C or C++ source, and splits
// what is left into words and punctuation with their lines.

package code

import "strings"

// blankNative returns src with comments, string and char literals and
// (C/C++) preprocessor lines replaced by spaces, newlines kept, and the
// text of the comment on each line.
func blankNative(src []byte, rust bool) ([]byte, map[int]string) {
	out := make([]byte, len(src))
	copy(out, src)
	comments := map[int]string{}
	line := 1
	blank := func(from, to int) {
		for k := from; k < to && k < len(out); k++ {
			if out[k] != '\n' {
				out[k] = ' '
			}
		}
	}
	note := func(l int, text string) {
		text = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(text), "/*!"))
		if prev, ok := comments[l]; ok {
			text = strings.TrimSpace(prev + " " + text)
		}
		comments[l] = text
	}
	lineStart := true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			lineStart = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r':
			i++
			continue
		case c == '#' && lineStart && !rust:
			j := i
			for j < len(src) && !(src[j] == '\n' && src[j-1] != '\\') {
				if src[j] == '\n' {
					line++
				}
				j++
			}
			blank(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '/':
			j := i
			for j < len(src) && src[j] != '\n' {
				j++
			}
			note(line, string(src[i:j]))
			blank(i, j)
			i = j
			continue
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			j := i + 2
			for j+1 < len(src) && !(src[j] == '*' && src[j+1] == '/') {
				j++
			}
			j = min(j+2, len(src))
			for _, l := range strings.Split(string(src[i:j]), "\n") {
				note(line, strings.TrimSuffix(strings.TrimSpace(l), "*/"))
				line++
			}
			line--
			blank(i, j)
			i = j
			lineStart = false
			continue
		case c == '"' || (rust && c == 'r' && i+1 < len(src) && (src[i+1] == '"' || src[i+1] == '#') && (i == 0 || !isWordByte(src[i-1]))):
			j := skipString(src, i, rust)
			for k := i; k < j; k++ {
				if src[k] == '\n' {
					line++
				}
			}
			blank(i+1, j-1)
			i = j
		case c == '\'':
			j := skipChar(src, i)
			blank(i, j)
			i = j
		default:
			i++
		}
		lineStart = false
	}
	return out, comments
}

func isWordByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b > 127
}

// skipString returns the index after the string literal at i: "…" with
// escapes, or Rust's r"…" / r#"…"#.
func skipString(src []byte, i int, rust bool) int {
	if src[i] == 'r' {
		j := i + 1
		hashes := 0
		for j < len(src) && src[j] == '#' {
			hashes++
			j++
		}
		if j >= len(src) || src[j] != '"' {
			return i + 1
		}
		end := "\"" + strings.Repeat("#", hashes)
		k := strings.Index(string(src[j+1:]), end)
		if k < 0 {
			return len(src)
		}
		return j + 1 + k + len(end)
	}
	j := i + 1
	for j < len(src) && src[j] != '"' {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	return min(j+1, len(src))
}

// skipChar returns the index after the character literal at i; a Rust
// lifetime ('a) is left alone (i+1).
func skipChar(src []byte, i int) int {
	j := i + 1
	if j < len(src) && src[j] == '\\' {
		j += 2
		for j < len(src) && src[j] != '\'' && src[j] != '\n' {
			j++
		}
		return min(j+1, len(src))
	}
	// one (UTF-8) character then a quote
	k := j + 1
	for k < len(src) && src[k]&0xC0 == 0x80 {
		k++
	}
	if k < len(src) && src[k] == '\'' {
		return k + 1
	}
	return i + 1 // a Rust lifetime, or a stray quote
}

// tokenizeNative splits blanked source into words and punctuation.
func tokenizeNative(src []byte) []ntok {
	var toks []ntok
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r' || c == '\'' || c == '"':
			i++
		case isWordByte(c):
			j := i
			for j < len(src) && isWordByte(src[j]) {
				j++
			}
			toks = append(toks, ntok{s: string(src[i:j]), line: line})
			i = j
		case c == ':' && i+1 < len(src) && src[i+1] == ':':
			toks = append(toks, ntok{s: "::", line: line})
			i += 2
		case c == '-' && i+1 < len(src) && src[i+1] == '>':
			toks = append(toks, ntok{s: "->", line: line})
			i += 2
		default:
			toks = append(toks, ntok{s: string(c), line: line})
			i++
		}
	}
	return toks
}
