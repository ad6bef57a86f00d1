// This file holds the expression under the cursor for hovers: a name followed
// by attribute and subscript accesses (self.cache, data['train'],
// obj.items[-1]), cut at the segment the cursor is on — the same rules as the
// extension's src/expression.ts. Positions are LSP UTF-16 offsets.

package editor

import (
	"strings"
	"unicode"
	"unicode/utf16"
)

var keywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true, "await": true,
	"break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true, "else": true, "except": true,
	"finally": true, "for": true, "from": true, "global": true, "if": true, "import": true, "in": true, "is": true,
	"lambda": true, "nonlocal": true, "not": true, "or": true, "pass": true, "raise": true, "return": true, "try": true,
	"while": true, "with": true, "yield": true,
	"func": true, "package": true, "var": true, "const": true, "type": true, "struct": true, "interface": true,
	"map": true, "chan": true, "go": true, "defer": true, "range": true, "select": true, "switch": true, "case": true,
	"default": true, "fallthrough": true, "goto": true,
}

func identStart(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func identPart(r rune) bool  { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

type segment struct{ start, end int } // rune offsets; start includes '.' or '['

// codeRunes returns the line's runes with a trailing '#' comment (outside
// string literals) removed, and the rune offset where the comment began (-1).
func codeRunes(line []rune) ([]rune, int) {
	var quote rune
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0:
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '#':
			return line[:i], i
		}
	}
	return line, -1
}

func inString(line []rune, at int) bool {
	var quote rune
	for i := 0; i < at && i < len(line); i++ {
		c := line[i]
		if quote != 0 {
			if c == '\\' {
				i++
			} else if c == quote {
				quote = 0
			}
		} else if c == '"' || c == '\'' || c == '`' {
			quote = c
		}
	}
	return quote != 0
}

func readIdent(line []rune, i int) int {
	if i >= len(line) || !identStart(line[i]) {
		return -1
	}
	j := i + 1
	for j < len(line) && identPart(line[j]) {
		j++
	}
	return j
}

func readSubscript(line []rune, i int) int {
	if i >= len(line) || line[i] != '[' {
		return -1
	}
	j := i + 1
	if j < len(line) && (line[j] == '"' || line[j] == '\'') {
		q := line[j]
		j++
		for j < len(line) && line[j] != q {
			if line[j] == '\\' {
				return -1
			}
			j++
		}
		if j >= len(line) {
			return -1
		}
		j++
	} else {
		if j < len(line) && line[j] == '-' {
			j++
		}
		d := j
		for j < len(line) && line[j] >= '0' && line[j] <= '9' {
			j++
		}
		if j == d {
			return -1
		}
	}
	if j < len(line) && line[j] == ']' {
		return j + 1
	}
	return -1
}

func readChain(line []rune, start int) []segment {
	end := readIdent(line, start)
	if end < 0 {
		return nil
	}
	segs := []segment{{start, end}}
	for end < len(line) {
		var e int
		switch line[end] {
		case '.':
			if e = readIdent(line, end+1); e < 0 {
				return segs
			}
		case '[':
			if e = readSubscript(line, end); e < 0 {
				return segs
			}
		default:
			return segs
		}
		segs = append(segs, segment{end, e})
		end = e
	}
	return segs
}

// ExpressionAt returns the inspectable expression at rune offset col in
// line, its rune range [start, end), and ok=false when the cursor is not on
// a name (keywords, comments, strings, numbers, blanks).
func ExpressionAt(line string, col int) (expr string, start, end int, ok bool) {
	all := []rune(line)
	if col < 0 || col > len(all) {
		return "", 0, 0, false
	}
	text, cs := codeRunes(all)
	if cs >= 0 && col >= cs {
		return "", 0, 0, false
	}
	for i := 0; i < len(text); {
		startsChain := identStart(text[i]) && (i == 0 || !(identPart(text[i-1]) || text[i-1] == '.'))
		if !startsChain || inString(text, i) {
			i++
			continue
		}
		segs := readChain(text, i)
		chainEnd := segs[len(segs)-1].end
		if col >= i && col <= chainEnd {
			content := func(s segment) int {
				if text[s.start] == '.' {
					return s.start + 1
				}
				return s.start
			}
			k := -1
			for j, s := range segs {
				if col >= content(s) && col < s.end {
					k = j
					break
				}
			}
			if k < 0 {
				for j, s := range segs {
					if col == s.end {
						k = j
						break
					}
				}
			}
			if k < 0 || keywords[string(text[segs[0].start:segs[0].end])] {
				return "", 0, 0, false
			}
			return string(text[segs[0].start:segs[k].end]), segs[0].start, segs[k].end, true
		}
		i = chainEnd
	}
	return "", 0, 0, false
}

// utf16ToRune converts an LSP UTF-16 character offset in line to a rune offset.
func utf16ToRune(line string, u16 int) int {
	n := 0
	for i, r := range []rune(line) {
		if n >= u16 {
			return i
		}
		n += len(utf16.Encode([]rune{r}))
	}
	return len([]rune(line))
}

// runeToUTF16 converts a rune offset in line to an LSP UTF-16 offset.
func runeToUTF16(line string, ro int) int {
	rs := []rune(line)
	if ro > len(rs) {
		ro = len(rs)
	}
	return len(utf16.Encode(rs[:ro]))
}

// lineOf returns line n (0-based) of text, without its line ending.
func lineOf(text string, n int) (string, bool) {
	for i := 0; i < n; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := strings.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimSuffix(text, "\r"), true
}
