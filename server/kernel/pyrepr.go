// pyrepr.go: decodes the Python literal of a str (what repr() gives, and
// what a kernel's text/plain of a str value is) back to the string.

package kernel

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// decodePyStr decodes one Python str literal: single or double quotes
// (also triple), an optional u/r prefix, and every escape Python accepts
// (\\ \' \" \a \b \f \n \r \t \v, octal, \xhh, \uhhhh, \Uhhhhhhhh; a
// backslash-newline continues the line; \N{NAME} is refused: repr never
// writes it). A str can hold surrogates, UTF-8 cannot: an escaped pair is
// joined (as JSON does) and a lone one becomes U+FFFD.
func decodePyStr(lit string) (string, error) {
	s := lit
	raw := false
	for len(s) > 0 && strings.ContainsRune("uUrR", rune(s[0])) {
		if s[0] == 'r' || s[0] == 'R' {
			raw = true
		}
		s = s[1:]
	}
	var quote string
	switch {
	case strings.HasPrefix(s, `'''`) || strings.HasPrefix(s, `"""`):
		quote = s[:3]
	case strings.HasPrefix(s, `'`) || strings.HasPrefix(s, `"`):
		quote = s[:1]
	default:
		return "", fmt.Errorf("not a Python string literal: %s", clipText(lit, 80))
	}
	if len(s) < 2*len(quote) || !strings.HasSuffix(s, quote) {
		return "", fmt.Errorf("unterminated Python string literal: %s", clipText(lit, 80))
	}
	body := s[len(quote) : len(s)-len(quote)]
	if raw {
		return body, nil
	}
	var b strings.Builder
	b.Grow(len(body))
	var pendingHigh rune = -1 // a \ud800-\udbff escape waiting for its pair
	flushHigh := func() {
		if pendingHigh >= 0 {
			b.WriteRune(utf8.RuneError)
			pendingHigh = -1
		}
	}
	for i := 0; i < len(body); {
		c := body[i]
		if c != '\\' {
			if len(quote) == 1 && (c == '\n' || string(c) == quote) {
				return "", fmt.Errorf("bad Python string literal (unescaped %q at %d): %s", c, i, clipText(lit, 80))
			}
			flushHigh()
			r, n := utf8.DecodeRuneInString(body[i:])
			b.WriteRune(r)
			i += n
			continue
		}
		if i+1 >= len(body) {
			return "", fmt.Errorf("bad Python string literal (trailing backslash): %s", clipText(lit, 80))
		}
		e := body[i+1]
		i += 2
		var r rune = -1
		switch e {
		case '\n':
			continue
		case '\\', '\'', '"':
			r = rune(e)
		case 'a':
			r = '\a'
		case 'b':
			r = '\b'
		case 'f':
			r = '\f'
		case 'n':
			r = '\n'
		case 'r':
			r = '\r'
		case 't':
			r = '\t'
		case 'v':
			r = '\v'
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+n > len(body) {
				return "", fmt.Errorf("bad \\%c escape in Python string literal: %s", e, clipText(lit, 80))
			}
			v, err := strconv.ParseUint(body[i:i+n], 16, 32)
			if err != nil || v > utf8.MaxRune {
				return "", fmt.Errorf("bad \\%c escape in Python string literal: %s", e, clipText(lit, 80))
			}
			i += n
			r = rune(v)
		case 'N':
			return "", fmt.Errorf("\\N{...} escapes are not supported: %s", clipText(lit, 80))
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i - 1
			for j < len(body) && j < i+2 && body[j] >= '0' && body[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(body[i-1:j], 8, 32)
			i = j
			r = rune(v)
		default: // Python keeps an unknown escape as it is
			flushHigh()
			b.WriteByte('\\')
			b.WriteByte(e)
			continue
		}
		switch {
		case r >= 0xD800 && r <= 0xDBFF:
			flushHigh()
			pendingHigh = r
		case r >= 0xDC00 && r <= 0xDFFF:
			if pendingHigh >= 0 {
				b.WriteRune(0x10000 + (pendingHigh-0xD800)<<10 + (r - 0xDC00))
				pendingHigh = -1
			} else {
				b.WriteRune(utf8.RuneError)
			}
		default:
			flushHigh()
			b.WriteRune(r)
		}
	}
	flushHigh()
	return b.String(), nil
}

// clipText shortens s for an error message.
func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
