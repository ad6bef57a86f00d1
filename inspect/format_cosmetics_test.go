// format_cosmetics_test.go: the markdown a CLI user reads raw: "<0.1%"
// stays as written (it came out as "&lt;0.1%"), what markdown would take
// for a tag or a quote is escaped with a backslash; and a column's most
// frequent value is shown with its count ("top: C00028" had none).

package inspect

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestMarkdownEscapesWithoutEntities(t *testing.T) {
	for in, want := range map[string]string{
		"1 duplicate row (<0.1%)":  "1 duplicate row (<0.1%)",
		"a < b and c > d":          "a < b and c > d",
		`{"deep":"<dict len=1>"}`:  `{"deep":"\<dict len=1>"}`,
		"</script> <!-- x --> <?":  `\</script> \<!-- x --> \<?`,
		"> not a quote":            `\> not a quote`,
		"Dictionary<Int32, Utf8>":  `Dictionary\<Int32, Utf8>`,
		"snake_case *bold* `code`": "snake\\_case \\*bold\\* \\`code\\`",
	} {
		if got := mdEscape(in); got != want {
			t.Errorf("mdEscape(%q) = %q, want %q", in, got, want)
		}
		if strings.Contains(mdEscape(in), "&lt;") || strings.Contains(mdEscape(in), "&gt;") {
			t.Errorf("mdEscape(%q) writes an HTML entity", in)
		}
	}
}

func TestTopValueShowsItsCount(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "golden", "dataframe.json"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := DecodeProbeResult(strings.ReplaceAll(string(b), `"REF"`, "1"))
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, c := range r.Statistics.Columns {
		if len(c.TopValues) > 0 && c.Min == nil && c.Max == nil && c.Mean == nil {
			want = append(want, "top: "+r.cell(c.TopValues[0].Value)+" ×"+commas(c.TopValues[0].Count))
		}
	}
	if len(want) == 0 {
		t.Fatal("the golden has no column whose top value the table shows")
	}
	for _, f := range []string{"markdown", "tui"} {
		out, err := Format(r, f, 120)
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range want {
			if !strings.Contains(out, mdUnescape(w, f)) {
				t.Errorf("%s: no %q in\n%s", f, w, out)
			}
		}
		if regexp.MustCompile(`top: [^|×\n]*\|`).MatchString(out) {
			t.Errorf("%s: a top value without its count:\n%s", f, out)
		}
	}
}

func mdUnescape(s, format string) string {
	if format == "markdown" {
		return mdEscape(s)
	}
	return s
}
