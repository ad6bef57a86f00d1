//go:build linux

// pyrepr_test.go: the str literal decoder against real Python: reprs of
// hand-picked and random strings made by /usr/bin/python3 decode to the
// exact string, and the literal forms repr never writes decode as Python
// reads them.

package kernel

import (
	"encoding/json"
	"math/rand/v2"
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// pythonReprs asks Python for repr() of each string (given as JSON).
func pythonReprs(t *testing.T, ss []string) []string {
	t.Helper()
	in, _ := json.Marshal(ss)
	cmd := exec.Command(python, "-c", "import json,sys; print(json.dumps([repr(s) for s in json.load(sys.stdin)]))")
	cmd.Stdin = strings.NewReader(string(in))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	var reprs []string
	if err := json.Unmarshal(out, &reprs); err != nil {
		t.Fatal(err)
	}
	return reprs
}

func TestDecodePyStrAgainstPython(t *testing.T) {
	ss := []string{"", "a", "'", `"`, `'"`, `\`, "\\'", "\n\r\t\v\f\a\b", "\x00\x01\x1f\x7f\u0080\u009f\u00a0\u00ad",
		"é", "中文", "😀", "\u2028\u2029\u0085", "\ufeff", "\U0010ffff", "\U000e0001", "\u200b", "a\\nb",
		"\\x41", strings.Repeat("x'y\"z\\", 500), `{"json": "yes", "n": [1, 2]}`}
	r := rand.New(rand.NewPCG(1, 2))
	for range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			switch r.IntN(4) {
			case 0:
				b.WriteByte(byte(r.IntN(128)))
			case 1:
				b.WriteRune(rune(0x80 + r.IntN(0x780)))
			case 2:
				c := rune(r.IntN(0x10ffff))
				if utf8.ValidRune(c) {
					b.WriteRune(c)
				}
			default:
				b.WriteString([]string{"'", `"`, `\`, "\n", "\\u", "\\x"}[r.IntN(6)])
			}
		}
		ss = append(ss, b.String())
	}
	reprs := pythonReprs(t, ss)
	for i, s := range ss {
		got, err := decodePyStr(reprs[i])
		if err != nil || got != s {
			t.Errorf("decode(%s) = %q, %v; want %q", clipText(reprs[i], 60), clipText(got, 60), err, clipText(s, 60))
		}
	}
}

func TestDecodePyStrLiteralForms(t *testing.T) {
	cases := map[string]string{
		`'\101\0\x41\u0041\U00000041'`: "A\x00AAA",
		`"""a"b"""`:                    `a"b`,
		`r'\n'`:                        `\n`,
		`u'x'`:                         "x",
		`'\q'`:                         `\q`,
		`'\ud83d\ude00'`:               "😀",
		`'\ud800x'`:                    "\ufffdx",
		"'a\\\nb'":                     "ab",
	}
	for lit, want := range cases {
		if got, err := decodePyStr(lit); err != nil || got != want {
			t.Errorf("decode(%s) = %q, %v; want %q", lit, got, err, want)
		}
	}
	for _, bad := range []string{``, `42`, `'open`, `'a'b'`, `'\x4'`, `'\N{DASH}'`, `'\'`, "'a\nb'"} {
		if got, err := decodePyStr(bad); err == nil {
			t.Errorf("decode(%s) = %q, want an error", bad, got)
		}
	}
}
