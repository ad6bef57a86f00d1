// paths_test.go: script URLs and breakpoint patterns in each system's path
// flavour, on any system: the editor's path (VS Code writes c:\) must match
// the scripts node names C:\x\app.js or file:///C:/x/app.mjs, and a stack
// frame's URL must come back as the editor's kind of path.

package node

import (
	"regexp"
	"testing"

	"github.com/dapscope/dapscope/platform"
)

func TestBreakpointPatternFlavours(t *testing.T) {
	win := platform.Flavour{Windows: true, FoldCase: true}
	for _, tc := range []struct {
		name      string
		f         platform.Flavour
		editor    string
		matches   []string
		noMatches []string
	}{
		{"unix", platform.Unix, "/w/app.js",
			[]string{"file:///w/app.js", "/w/app.js"},
			[]string{"file:///w/APP.js", "/w/app.jsx", "file:///w/app.js.map", "/x/w/app.js"}},
		{"unix space", platform.Unix, "/w/my app.js",
			[]string{"file:///w/my%20app.js", "/w/my app.js"}, nil},
		{"windows", win, `c:\w\app.js`,
			[]string{"file:///C:/w/app.js", `C:\w\app.js`, `c:\w\app.js`, "file:///c:/w/App.js"},
			[]string{"file:///D:/w/app.js", `C:\w\app.jsx`, `C:\w\sub\app.js`}},
		{"windows share", win, `\\srv\share\app.js`,
			[]string{"file://srv/share/app.js", `\\srv\share\app.js`}, []string{"file:///share/app.js"}},
		{"macos", platform.Flavour{FoldCase: true}, "/Users/me/App.js",
			[]string{"file:///Users/me/app.js", "/users/me/App.js"}, []string{"/Users/me/App.ts"}},
	} {
		re := regexp.MustCompile(urlPatternIn(tc.f, tc.editor))
		for _, u := range tc.matches {
			if !re.MatchString(u) {
				t.Errorf("%s: %q does not match the pattern of %q (%s)", tc.name, u, tc.editor, re)
			}
		}
		for _, u := range tc.noMatches {
			if re.MatchString(u) {
				t.Errorf("%s: %q matches the pattern of %q (%s)", tc.name, u, tc.editor, re)
			}
		}
	}
}

func TestFilePathFlavours(t *testing.T) {
	win := platform.Flavour{Windows: true, FoldCase: true}
	for _, tc := range []struct {
		f    platform.Flavour
		url  string
		want string
	}{
		{platform.Unix, "file:///w/app.mjs", "/w/app.mjs"},
		{platform.Unix, "/w/app.js", "/w/app.js"},
		{platform.Unix, "node:internal/main", ""},
		{platform.Unix, "evalmachine.<anonymous>", ""},
		{win, "file:///C:/w/app.mjs", `C:\w\app.mjs`},
		{win, "file:///C:/w/my%20app.mjs", `C:\w\my app.mjs`},
		{win, `C:\w\app.js`, `C:\w\app.js`},
		{win, "file://srv/share/app.js", `\\srv\share\app.js`},
		{win, "node:internal/main", ""},
		{win, `\w\app.js`, ""}, // no drive: not a file node would name
	} {
		if got := filePathIn(tc.f, tc.url); got != tc.want {
			t.Errorf("filePath(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}
