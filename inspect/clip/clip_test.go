// Tests of the truncation helper: tables of multi-byte text in every unit
// (CJK, astral emoji, combining marks, joiners, invalid UTF-8, limits 0, 1
// and the exact length), a fuzz test of its invariants, and a check that the
// package stays a leaf.

package clip

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

const (
	cjk      = "日本語テキスト"           // 7 runes, 3 bytes each
	emoji    = "a😀b🎉c"             // 😀 and 🎉: 4 bytes, 1 rune, 2 UTF-16 units
	combined = "cafe\u0301s"       // "cafés" with é as e + U+0301 (combining acute)
	family   = "x👨\u200d👩\u200d👧y" // one joined emoji between x and y
	invalid  = "ab\xffcd\xe6\x97"  // a stray byte, then a truncated 3-byte sequence
)

func TestLen(t *testing.T) {
	for _, tc := range []struct {
		s                   string
		bytes, runes, units int
	}{
		{"", 0, 0, 0},
		{"hello", 5, 5, 5},
		{cjk, 21, 7, 7},
		{emoji, 11, 5, 7},
		{combined, 7, 6, 6},
		{invalid, 7, 7, 7},
		{Marker, 3, 1, 1},
	} {
		if got := Bytes.Len(tc.s); got != tc.bytes {
			t.Errorf("Bytes.Len(%q) = %d, want %d", tc.s, got, tc.bytes)
		}
		if got := Runes.Len(tc.s); got != tc.runes {
			t.Errorf("Runes.Len(%q) = %d, want %d", tc.s, got, tc.runes)
		}
		if got := UTF16.Len(tc.s); got != tc.units {
			t.Errorf("UTF16.Len(%q) = %d, want %d", tc.s, got, tc.units)
		}
		if utf8.ValidString(tc.s) {
			if js := len(utf16.Encode([]rune(tc.s))); js != tc.units {
				t.Errorf("UTF16.Len(%q) = %d, but its UTF-16 encoding has %d units", tc.s, tc.units, js)
			}
		}
	}
}

func TestPrefixHeadFit(t *testing.T) {
	for _, tc := range []struct {
		u       Unit
		s       string
		n       int
		prefix  string // Prefix; cut is prefix != s
		head    string
		fit     string
		comment string
	}{
		// ASCII and the limits 0, 1, exact length, one under, above.
		{Bytes, "hello", 0, "", "…", "", "limit 0"},
		{Runes, "hello", 1, "h", "h…", "…", "limit 1: Fit has room for the marker only"},
		{UTF16, "hello", 5, "hello", "hello", "hello", "exact length: nothing cut"},
		{Runes, "hello", 4, "hell", "hell…", "hel…", "one under"},
		{Bytes, "hello", 99, "hello", "hello", "hello", "above"},
		{Runes, "hello", -3, "", "…", "", "negative limit counts as 0"},
		{Runes, "", 0, "", "", "", "empty string"},
		// CJK: 3 bytes a character.
		{Bytes, cjk, 4, "日", "日…", "…", "bytes: never half a character"},
		{Bytes, cjk, 6, "日本", "日本…", "日…", "bytes: Fit counts the marker's 3 bytes"},
		{Bytes, cjk, 2, "", "…", "", "bytes: less than one character, no room for the marker"},
		{Bytes, cjk, 21, cjk, cjk, cjk, "bytes: exact length"},
		{Runes, cjk, 2, "日本", "日本…", "日…", "runes"},
		{Runes, cjk, 7, cjk, cjk, cjk, "runes: exact length"},
		{UTF16, cjk, 3, "日本語", "日本語…", "日本…", "BMP characters are one UTF-16 unit"},
		// Astral characters: 4 bytes, 1 rune, a surrogate pair in UTF-16.
		{UTF16, emoji, 2, "a", "a…", "a…", "utf16: never half a surrogate pair"},
		{UTF16, emoji, 3, "a😀", "a😀…", "a…", "utf16: the pair whole"},
		{UTF16, emoji, 7, emoji, emoji, emoji, "utf16: exact length"},
		{UTF16, emoji, 6, "a😀b🎉", "a😀b🎉…", "a😀b…", "utf16: one under"},
		{UTF16, emoji, 5, "a😀b", "a😀b…", "a😀b…", "utf16: the last pair does not fit"},
		{Runes, emoji, 2, "a😀", "a😀…", "a…", "runes: an astral character is one rune"},
		{Bytes, emoji, 4, "a", "a…", "a…", "bytes: never inside the 4-byte sequence"},
		{Bytes, emoji, 5, "a😀", "a😀…", "a…", "bytes: the sequence whole"},
		{UTF16, "😀", 1, "", "…", "…", "utf16: a pair under limit 1"},
		// Combining marks stay with their base; joiners hold emoji together.
		{Runes, combined, 4, "caf", "caf…", "caf…", "e + U+0301 is kept or dropped whole"},
		{Runes, combined, 5, "cafe\u0301", "cafe\u0301…", "caf…", "the mark fits with its base"},
		{Bytes, combined, 5, "caf", "caf…", "ca…", "bytes: the mark's base is not left bare"},
		{UTF16, family, 3, "x", "x…", "x…", "a joined emoji is not split at a joiner"},
		{Runes, family, 6, "x👨\u200d👩\u200d👧", "x👨\u200d👩\u200d👧…", "x…", "the joined emoji fits whole"},
		{Runes, "\u0301\u0301\u0301abc", 2, "", "…", "…", "leading marks: nothing to keep them with"},
		// Invalid UTF-8: each bad byte is one character.
		{Bytes, invalid, 3, "ab\xff", "ab\xff…", "…", "a stray byte counts as one"},
		{Bytes, invalid, 2, "ab", "ab…", "ab", "no room for the marker: the prefix, unmarked"},
		{Runes, invalid, 6, "ab\xffcd\xe6", "ab\xffcd\xe6…", "ab\xffcd…", "a truncated sequence is bytes"},
		{UTF16, invalid, 7, invalid, invalid, invalid, "utf16: bad bytes count one unit"},
	} {
		name := tc.u.String() + "/" + strconv.Itoa(tc.n) + "/" + tc.comment
		p, cut := tc.u.Prefix(tc.s, tc.n)
		if p != tc.prefix || cut != (tc.prefix != tc.s) {
			t.Errorf("%s: Prefix(%q) = %q, %v; want %q, %v", name, tc.s, p, cut, tc.prefix, tc.prefix != tc.s)
		}
		if got := tc.u.Head(tc.s, tc.n); got != tc.head {
			t.Errorf("%s: Head(%q) = %q, want %q", name, tc.s, got, tc.head)
		}
		if got := tc.u.Fit(tc.s, tc.n); got != tc.fit {
			t.Errorf("%s: Fit(%q) = %q, want %q", name, tc.s, got, tc.fit)
		}
	}
}

// A byte cut of valid text is valid text: the bug of the byte-slicing
// helpers this package replaced (s[:n] + "…").
func TestByteCutNeverSplitsACharacter(t *testing.T) {
	s := strings.Repeat("x", 299) + "é" + strings.Repeat("名", 10)
	for n := 295; n < len(s); n++ {
		if got := Bytes.Head(s, n); !utf8.ValidString(got) {
			t.Fatalf("Bytes.Head(…, %d) = %q: invalid UTF-8", n, got[len(got)-8:])
		}
	}
	if old := s[:300] + Marker; utf8.ValidString(old) {
		t.Fatal("the old byte slice was expected to split é")
	}
}

type char struct {
	start, size int
	r           rune
}

// chars splits s as a range loop does (an invalid byte is one RuneError).
func chars(s string) []char {
	var out []char
	for i, r := range s {
		if len(out) > 0 {
			out[len(out)-1].size = i - out[len(out)-1].start
		}
		out = append(out, char{start: i, r: r})
	}
	if len(out) > 0 {
		out[len(out)-1].size = len(s) - out[len(out)-1].start
	}
	return out
}

// check asserts the invariants of Prefix, Head and Fit for one input.
func check(t *testing.T, u Unit, s string, n int) {
	t.Helper()
	limit := max(n, 0)
	valid := utf8.ValidString(s)
	p, cut := u.Prefix(s, n)
	if !strings.HasPrefix(s, p) {
		t.Fatalf("%v.Prefix(%q, %d) = %q: not a prefix", u, s, n, p)
	}
	if u.Len(p) > limit {
		t.Fatalf("%v.Prefix(%q, %d) = %q: %d units", u, s, n, p, u.Len(p))
	}
	if cut != (u.Len(s) > limit) || cut != (p != s) {
		t.Fatalf("%v.Prefix(%q, %d) = %q, cut %v; the string has %d units", u, s, n, p, cut, u.Len(s))
	}
	if valid && !utf8.ValidString(p) {
		t.Fatalf("%v.Prefix(%q, %d) = %q: invalid UTF-8", u, s, n, p)
	}
	if cut { // the cut is as late as it may be: back from the last character that fits only over joined pairs
		last, used := 0, 0
		for _, c := range chars(s) {
			switch {
			case u == Bytes:
				used += c.size
			case u == UTF16 && c.r > 0xFFFF:
				used += 2
			default:
				used++
			}
			if used > limit {
				last = c.start
				break
			}
		}
		for b := last; b > len(p); {
			prev, size := utf8.DecodeLastRuneInString(s[:b])
			if next, _ := utf8.DecodeRuneInString(s[b:]); !joined(prev, next) {
				t.Fatalf("%v.Prefix(%q, %d) = %q: could have kept %q", u, s, n, p, s[len(p):b])
			}
			b -= size
		}
		if len(p) > last {
			t.Fatalf("%v.Prefix(%q, %d) = %q: longer than the limit allows", u, s, n, p)
		}
	}
	h := u.Head(s, n)
	if want := p + map[bool]string{true: Marker}[cut]; h != want {
		t.Fatalf("%v.Head(%q, %d) = %q, want %q", u, s, n, h, want)
	}
	f := u.Fit(s, n)
	if !cut && f != s {
		t.Fatalf("%v.Fit(%q, %d) = %q: it fitted", u, s, n, f)
	}
	if u.Len(f) > limit {
		t.Fatalf("%v.Fit(%q, %d) = %q: %d units", u, s, n, f, u.Len(f))
	}
	if body, marked := strings.CutSuffix(f, Marker); !strings.HasPrefix(s, body) || cut && !marked && limit >= u.Len(Marker) {
		t.Fatalf("%v.Fit(%q, %d) = %q: not a prefix plus the marker", u, s, n, f)
	}
	if valid && !utf8.ValidString(f) || valid && !utf8.ValidString(h) {
		t.Fatalf("%v.Fit/Head(%q, %d) = %q, %q: invalid UTF-8", u, s, n, f, h)
	}
}

func FuzzClip(f *testing.F) {
	for _, s := range []string{"", "hello", cjk, emoji, combined, family, invalid, "e\u0301\u0301", "\u200d\u200d", "\xed\xa0\x80\xed\xb0\x80"} {
		for _, n := range []int{-1, 0, 1, 2, 3, 4, 5, 7, 100} {
			f.Add(s, n)
		}
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n %= 1 << 16
		for _, u := range []Unit{Bytes, Runes, UTF16} {
			check(t, u, s, n)
		}
	})
}

// The package is a leaf: every layer imports it, so it imports no project
// package (or it would risk an import cycle).
func TestLeafPackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources: %v", err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); strings.Contains(path, ".") {
				t.Errorf("%s imports %s: the clip package may use the standard library only", name, path)
			}
		}
	}
}
