// Tests of the tui and markdown renderings (goldens from the harness) and of
// the tui's width bound.

package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/golden"
)

// checkTextGolden compares a text rendering with testdata/golden/<name>.
func checkTextGolden(t *testing.T, name, got string) {
	t.Helper()
	if !goldenPython() && !strings.HasPrefix(name, "js") {
		return // the renderings of Debian's facts; the facts are checked by checkGolden
	}
	got = strings.ReplaceAll(addrRe.ReplaceAllString(got, "0xADDR"), checkoutRoot, "$ROOT") + "\n"
	golden.Check(t, filepath.Join("testdata", "golden", name), []byte(got))
}

func TestFormats(t *testing.T) {
	h := startHarness(t, fixture)
	ctx := context.Background()
	for _, expr := range []string{"df", "mixed", "series", "arr3d", "arr1m", "data", "items", "point", "text", "func", "wide", "nope"} {
		res, err := Inspect(ctx, h, 0, expr, full())
		for _, width := range []int{60, 100} {
			for _, f := range []string{"tui", "markdown"} {
				var out string
				if err != nil {
					var ie *errcode.Error
					if !errors.As(err, &ie) {
						t.Fatal(err)
					}
					out = FormatError(expr, ie, f, width)
				} else {
					out, err = Format(res, f, width)
					if err != nil {
						t.Fatal(err)
					}
				}
				if f == "tui" {
					for i, l := range strings.Split(out, "\n") {
						if n := utf8.RuneCountInString(l); n != width {
							t.Fatalf("%s width %d: line %d is %d wide: %q", expr, width, i, n, l)
						}
					}
				}
				if width == 100 || f == "tui" {
					ext := map[string]string{"tui": "tui.txt", "markdown": "md"}[f]
					checkTextGolden(t, strings.NewReplacer("'", "", "[", "_", "]", "").Replace(expr)+"_"+itoa(int64(width))+"."+ext, out)
				}
			}
		}
	}
	if _, err := Format(&Result{}, "yaml", 80); err == nil {
		t.Fatal("unknown format must fail")
	}
}

// TestFormatEveryGolden renders every golden result (Python, Go, errors) in
// every format and width: nothing panics, tui lines have the exact width.
func TestFormatEveryGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	if err != nil || len(files) < 50 {
		t.Fatalf("goldens: %d files, %v", len(files), err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		r, err := DecodeProbeResult(strings.ReplaceAll(string(b), `"REF"`, "1"))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, width := range []int{40, 80, 200} {
			for _, format := range []string{"json", "tui", "markdown"} {
				out, err := Format(r, format, width)
				if err != nil || out == "" {
					t.Fatalf("%s %s: %v", f, format, err)
				}
				if format != "tui" {
					continue
				}
				for _, l := range strings.Split(out, "\n") {
					if utf8.RuneCountInString(l) != width {
						t.Fatalf("%s width %d: line %q", f, width, l)
					}
				}
			}
		}
	}
}

// TestGoStructMarkdown: a Go struct is laid out as fields, one per row, the
// values without Delve's repeated type prefix (issue 13.13).
func TestGoStructMarkdown(t *testing.T) {
	b, err := os.ReadFile("testdata/golden/go_struct_nested.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Result
	// The golden masks the reference as "REF".
	if err := json.Unmarshal([]byte(strings.Replace(string(b), `"REF"`, "0", 1)), &r); err != nil {
		t.Fatal(err)
	}
	md := formatMarkdown(&r)
	for _, row := range []string{
		"| Items | []main.Point | len: 2, cap: 2, [(\\*main.Point)(0xADDR),(\\*main.Point)(0xADDR)] |",
		`| Index | map[string]int | ["a": 0, "b": 1, ] |`,
		"| Next | \\*main.Cache | {Items: []main.Point len: 0, cap: 0, nil, Index: map[string]int nil, Next: \\*mai… |",
	} {
		if !strings.Contains(md, row+"\n") && !strings.HasSuffix(md, row) {
			t.Errorf("markdown lacks\n%s\nin\n%s", row, md)
		}
	}
}
