// Package clip bounds strings for display without breaking characters: the
// one truncation helper of the project. It is a leaf (standard library only),
// so every layer may import it (server/dap for logs, server/session and
// server/mcp for messages and values, inspect and inspect/code for previews).
//
// A limit is counted in a Unit: UTF-8 bytes, runes (code points) or UTF-16
// code units (the length of a JavaScript string). Whatever the unit, a cut
// falls on a character boundary: never inside a UTF-8 sequence, never between
// the two halves of a surrogate pair. Invalid UTF-8 bytes count as one
// character each (as U+FFFD would), so a cut never fails, and the result of a
// valid UTF-8 string is always valid UTF-8. A cut also keeps a combining
// mark (Unicode category M, variation selectors included) with the character
// before it, and never falls next to a zero-width joiner, so "é" written as
// e + U+0301 or a joined emoji is kept or dropped whole; other grapheme
// clusters (flags, skin tones, Hangul jamo) may still be cut between code
// points.
//
// Three ways to cut, each a method of Unit:
//   - Prefix: the longest prefix that fits, unmarked (logs, raw bytes).
//   - Head:   the first n units, then Marker when something was cut; the
//     marker is not counted in n.
//   - Fit:    the whole result, marker included, fits in n units (table
//     cells, box lines).
package clip

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Marker marks a cut: U+2026 HORIZONTAL ELLIPSIS (3 bytes, 1 rune, 1 UTF-16
// code unit).
const Marker = "…"

// Unit is what a limit counts.
type Unit int

const (
	// Bytes counts UTF-8 bytes; a character that does not fit whole is left
	// out.
	Bytes Unit = iota
	// Runes counts Unicode code points (Go runes).
	Runes
	// UTF16 counts UTF-16 code units, as JavaScript's String.length does: a
	// character above U+FFFF (emoji, astral CJK) counts 2 and is kept or
	// dropped whole. A Go string holds a surrogate pair as one 4-byte rune, so
	// a pair is never split; lone surrogates are not valid UTF-8
	// (encoding/json turns "\ud800" into U+FFFD) and count as invalid bytes.
	UTF16
)

// String names the unit.
func (u Unit) String() string {
	switch u {
	case Bytes:
		return "bytes"
	case Runes:
		return "runes"
	case UTF16:
		return "utf16"
	}
	return "Unit(?)"
}

// width is the size in u of one decoded character (r, size from
// utf8.DecodeRuneInString; an invalid byte is (RuneError, 1)).
func (u Unit) width(r rune, size int) int {
	switch u {
	case Runes:
		return 1
	case UTF16:
		return utf16.RuneLen(r) // 2 above U+FFFF (a surrogate pair), else 1

	}
	return size
}

// Len returns the length of s in u.
func (u Unit) Len(s string) int {
	switch u {
	case Bytes:
		return len(s)
	case Runes:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		n += u.width(r, size)
		i += size
	}
	return n
}

// Prefix returns the longest prefix of s that is at most n units long and
// cuts no character (see the package comment), and whether it is shorter
// than s. A negative n counts as 0.
func (u Unit) Prefix(s string, n int) (string, bool) {
	if len(s) <= n { // no character counts more units than it has bytes
		return s, false
	}
	if n <= 0 {
		return "", s != ""
	}
	used := 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		w := u.width(r, size)
		if used+w > n {
			return s[:keepJoined(s, i)], true
		}
		used += w
		i += size
	}
	return s, false
}

// zwj is U+200D ZERO WIDTH JOINER.
const zwj = '\u200d'

// keepJoined moves a cut at byte i of s back until it no longer separates a
// character from a following combining mark, nor falls next to a joiner.
func keepJoined(s string, i int) int {
	for i > 0 {
		next, _ := utf8.DecodeRuneInString(s[i:])
		prev, size := utf8.DecodeLastRuneInString(s[:i])
		if !joined(prev, next) {
			break
		}
		i -= size
	}
	return i
}

// joined reports whether a cut between prev and next would split what the
// reader sees as one character.
func joined(prev, next rune) bool {
	return prev == zwj || next == zwj || unicode.Is(unicode.M, next)
}

// Head returns s when it is at most n units long; otherwise its longest
// prefix of at most n units followed by Marker (so the result may be longer
// than n by the marker).
func (u Unit) Head(s string, n int) string {
	p, cut := u.Prefix(s, n)
	if cut {
		return p + Marker
	}
	return s
}

// Fit returns s when it is at most n units long; otherwise a prefix followed
// by Marker, the whole at most n units long. When n is smaller than the
// marker itself, it returns the longest prefix that fits, unmarked.
func (u Unit) Fit(s string, n int) string {
	if _, cut := u.Prefix(s, n); !cut {
		return s
	}
	m := u.Len(Marker)
	if n < m {
		p, _ := u.Prefix(s, n)
		return p
	}
	p, _ := u.Prefix(s, n-m)
	return p + Marker
}
