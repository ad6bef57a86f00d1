// paths_test.go: the path flavours of every system, on any system: Windows
// drive letters, shares, long-path prefixes, `\` and `/`, case folding
// (confirmed or refuted by an injected SameFile, as a case-sensitive volume
// would), file URLs both ways; and the host flavour against the real file
// system (a symbolic link, a case difference).

package platform

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestFlavourClean(t *testing.T) {
	for _, tc := range []struct {
		f        Flavour
		in, want string
		abs      bool
	}{
		{Unix, "/a/b/../c/", "/a/c", true},
		{Unix, `a\b`, `a\b`, false}, // a backslash is a name character on Unix
		{Unix, "", ".", false},
		{Windows, `C:\Users\me\..\you\app.js`, `C:\Users\you\app.js`, true},
		{Windows, `c:/Users/me/app.js`, `c:\Users\me\app.js`, true},
		{Windows, `C:relative\x`, `C:relative\x`, false},
		{Windows, `\rooted\no\drive`, `\rooted\no\drive`, false},
		{Windows, `\\server\share\dir\..\f.py`, `\\server\share\f.py`, true},
		{Windows, `\\server\share`, `\\server\share\`, true},
		{Windows, `//server/share/x`, `\\server\share\x`, true},
		{Windows, `\\?\C:\very\long\path`, `C:\very\long\path`, true},
		{Windows, `\\?\UNC\server\share\x`, `\\server\share\x`, true},
		{Windows, `a\..\..\b`, `..\b`, false},
		{Windows, `C:\`, `C:\`, true},
	} {
		if got := tc.f.Clean(tc.in); got != tc.want {
			t.Errorf("%+v Clean(%q) = %q, want %q", tc.f.Windows, tc.in, got, tc.want)
		}
		if got := tc.f.IsAbs(tc.in); got != tc.abs {
			t.Errorf("%+v IsAbs(%q) = %v, want %v", tc.f.Windows, tc.in, got, tc.abs)
		}
	}
}

// caseSensitive is a SameFile of a volume where case matters: two
// spellings that differ in case are two different directories.
func caseSensitive(a, b string) (bool, bool) { return strings.EqualFold(a, b) && a == b, true }

// caseInsensitive is a SameFile of a folding volume.
func caseInsensitive(a, b string) (bool, bool) { return strings.EqualFold(a, b), true }

func TestFlavourRel(t *testing.T) {
	macCS := Flavour{FoldCase: true, SameFile: caseSensitive}
	macCI := Flavour{FoldCase: true, SameFile: caseInsensitive}
	winNoFS := Flavour{Windows: true, FoldCase: true} // nothing on disk to ask
	for _, tc := range []struct {
		name          string
		f             Flavour
		root, p, want string
		ok            bool
	}{
		{"unix inside", Unix, "/ws", "/ws/src/app.py", "src/app.py", true},
		{"unix root itself", Unix, "/ws", "/ws", ".", true},
		{"unix sibling prefix", Unix, "/ws", "/ws2/app.py", "", false},
		{"unix outside", Unix, "/ws", "/etc/passwd", "", false},
		{"unix case differs", Unix, "/ws", "/WS/app.py", "", false},
		{"unix relative", Unix, "/ws", "app.py", "", false},
		{"windows inside", winNoFS, `C:\ws`, `C:\ws\src\app.py`, "src/app.py", true},
		{"windows drive letter case", winNoFS, `c:\ws`, `C:\ws\app.py`, "app.py", true},
		{"windows name case", winNoFS, `C:\Work\WS`, `c:\work\ws\Src\app.py`, "Src/app.py", true},
		{"windows forward slashes", winNoFS, `C:\ws`, `C:/ws/src/app.py`, "src/app.py", true},
		{"windows other drive", winNoFS, `C:\ws`, `D:\ws\app.py`, "", false},
		{"windows sibling prefix", winNoFS, `C:\ws`, `C:\ws2\app.py`, "", false},
		{"windows dotdot escapes", winNoFS, `C:\ws`, `C:\ws\..\secret.txt`, "", false},
		{"windows share", winNoFS, `\\srv\share\ws`, `\\SRV\Share\ws\a.py`, "a.py", true},
		{"windows other share", winNoFS, `\\srv\share\ws`, `\\srv\other\ws\a.py`, "", false},
		{"windows share vs drive", winNoFS, `\\srv\share\ws`, `C:\ws\a.py`, "", false},
		{"windows long path prefix", winNoFS, `C:\ws`, `\\?\C:\ws\a.py`, "a.py", true},
		{"windows drive-relative is not absolute", winNoFS, `C:\ws`, `C:ws\a.py`, "", false},
		{"windows rooted without drive", winNoFS, `C:\ws`, `\ws\a.py`, "", false},
		{"windows case refuted by the disk", Flavour{Windows: true, FoldCase: true, SameFile: caseSensitive}, `C:\ws`, `C:\WS\a.py`, "", false},
		{"mac case-insensitive volume", macCI, "/Users/me/Proj", "/users/me/proj/a.py", "a.py", true},
		{"mac case-sensitive volume", macCS, "/Users/me/Proj", "/Users/me/proj/a.py", "", false},
		{"mac exact", macCS, "/Users/me/Proj", "/Users/me/Proj/a.py", "a.py", true},
	} {
		got, ok := tc.f.Rel(tc.root, tc.p)
		if got != tc.want || ok != tc.ok {
			t.Errorf("%s: Rel(%q, %q) = %q %v, want %q %v", tc.name, tc.root, tc.p, got, ok, tc.want, tc.ok)
		}
	}
}

func TestFlavourSameAndDotDot(t *testing.T) {
	winNoFS := Flavour{Windows: true, FoldCase: true}
	for _, tc := range []struct {
		f    Flavour
		a, b string
		want bool
	}{
		{Unix, "/a/b/../c", "/a/c", true},
		{Unix, "/a/C", "/a/c", false},
		{winNoFS, `c:\Users\me\app.js`, `C:/Users/Me/app.js`, true},
		{winNoFS, `C:\a.js`, `C:\b.js`, false},
		{Flavour{FoldCase: true, SameFile: caseSensitive}, "/a/B", "/a/b", false},
		{Unix, "", "", false},
	} {
		if got := tc.f.Same(tc.a, tc.b); got != tc.want {
			t.Errorf("Same(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	for p, want := range map[string]bool{`a\..\b`: true, "a/../b": true, "a/..b": false, `..`: true, "x..": false} {
		if got := Windows.HasDotDot(p); got != want {
			t.Errorf("HasDotDot(%q) = %v", p, got)
		}
	}
}

func TestFlavourURLs(t *testing.T) {
	for _, tc := range []struct {
		f       Flavour
		path    string
		url     string
		fromURL string // "" when FromURL(url) must give path back
	}{
		{Unix, "/home/me/app.js", "file:///home/me/app.js", ""},
		{Unix, "/home/me/my app.js", "file:///home/me/my%20app.js", ""},
		{Windows, `C:\Users\me\app.js`, "file:///C:/Users/me/app.js", ""},
		{Windows, `C:\Users\me\my app.js`, "file:///C:/Users/me/my%20app.js", ""},
		{Windows, `\\srv\share\app.js`, "file://srv/share/app.js", ""},
	} {
		if got := tc.f.ToURL(tc.path); got != tc.url {
			t.Errorf("ToURL(%q) = %q, want %q", tc.path, got, tc.url)
		}
		want := tc.path
		if tc.fromURL != "" {
			want = tc.fromURL
		}
		if got, ok := tc.f.FromURL(tc.url); !ok || got != want {
			t.Errorf("FromURL(%q) = %q %v, want %q", tc.url, got, ok, want)
		}
	}
	// Node names CommonJS modules on Windows by path and ES modules by URL;
	// VS Code writes the drive letter in lower case.
	if got, _ := Windows.FromURL("file:///c:/Users/me/app.mjs"); got != `c:\Users\me\app.mjs` {
		t.Errorf("FromURL lower-case drive = %q", got)
	}
	if got := Windows.FromURLPath("/c:/ws/a.py"); got != `c:\ws\a.py` {
		t.Errorf("FromURLPath = %q", got)
	}
	if _, ok := Unix.FromURL("file://otherhost/x"); ok {
		t.Error("a file URL of another host names no local file on Unix")
	}
	if _, ok := Unix.FromURL("https://example.com/x.js"); ok {
		t.Error("an https URL names no file")
	}
}

// The host flavour against the real file system: a symbolic link names
// the same file, and only a folding volume matches a case difference.
func TestHostFlavourOnDisk(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "app.py")
	if err := os.WriteFile(f, []byte("x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if !Host.Within(dir, f) || Host.Within(f, dir) {
		t.Errorf("Within(%q, %q) wrong", dir, f)
	}
	if runtime.GOOS != "windows" { // symbolic links need a privilege there
		link := filepath.Join(dir, "link.py")
		if err := os.Symlink(f, link); err != nil {
			t.Fatal(err)
		}
		if !Host.Same(f, link) {
			t.Errorf("a symbolic link and its target are the same file")
		}
	}
	upper := filepath.Join(dir, "APP.PY")
	_, statErr := os.Stat(upper)
	folds := statErr == nil // what this volume does
	if got := Host.Same(f, upper); got != folds {
		t.Errorf("Same(%q, %q) = %v; the volume folds case: %v", f, upper, got, folds)
	}
}

// RealPath resolves what the system resolves: a symbolic link (Unix), and
// the spelling on disk (a case difference on a folding volume).
func TestRealPath(t *testing.T) {
	dir, err := RealPath(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "Sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := RealPath(sub); err != nil || got != sub {
		t.Errorf("RealPath(%q) = %q %v", sub, got, err)
	}
	if _, err := RealPath(filepath.Join(dir, "missing")); err == nil {
		t.Error("RealPath of a missing path succeeded")
	}
	if runtime.GOOS == "windows" {
		// Case on a folding volume: the name as it is on disk.
		if got, err := RealPath(filepath.Join(dir, "SUB")); err != nil || got != sub {
			t.Errorf("RealPath(SUB) = %q %v, want %q", got, err, sub)
		}
		return
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(sub, link); err != nil {
		t.Fatal(err)
	}
	if got, err := RealPath(filepath.Join(link, ".")); err != nil || got != sub {
		t.Errorf("RealPath(link) = %q %v, want %q", got, err, sub)
	}
}
