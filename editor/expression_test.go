// Tests of the expression under the cursor (same cases as the extension's).

package editor

import (
	"testing"

	"github.com/dapscope/dapscope/platform"
)

func TestExpressionAt(t *testing.T) {
	cases := []struct{ line, want string }{
		{"print(d|f.shape)", "df"},
		{"|df = load()", "df"},
		{"df| = load()", "df"},
		{"x = self.ca|che.items", "self.cache"},
		{"x = se|lf.cache.items", "self"},
		{"x = self.cache|.items", "self.cache"},
		{"y = data['tr|ain']", "data['train']"},
		{`y = data["train"].col|umns`, `data["train"].columns`},
		{"v = obj.items[-1|]", "obj.items[-1]"},
		{"v = arr[i].x|", ""},
		{"df.he|ad()", "df.head"},
		{"de|f f(x):", ""},
		{"x = 1  # see d|f", ""},
		{`s = "hello d|f"`, ""},
		{"n = 12|3", ""},
		{"données = ch|arger()", "charger"},
		{"fmt.Println(cfg.Serv|er.Port)", "cfg.Server"},
	}
	for _, c := range cases {
		col := len([]rune(c.line[:indexByte(c.line, '|')]))
		line := c.line[:indexByte(c.line, '|')] + c.line[indexByte(c.line, '|')+1:]
		got, _, _, ok := ExpressionAt(line, col)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("ExpressionAt(%q) = %q, %v; want %q", c.line, got, ok, c.want)
		}
	}
}

func indexByte(s string, b byte) int {
	for i := 0; i < len(s); i++ {
		if s[i] == b {
			return i
		}
	}
	return -1
}

func TestUTF16(t *testing.T) {
	line := "a😀b = x"
	if got := utf16ToRune(line, 3); got != 2 { // 'a'=1, emoji=2 units
		t.Fatalf("utf16ToRune = %d, want 2", got)
	}
	if got := runeToUTF16(line, 3); got != 4 {
		t.Fatalf("runeToUTF16 = %d, want 4", got)
	}
	if l, ok := lineOf("a\r\nbc\nd", 1); !ok || l != "bc" {
		t.Fatalf("lineOf = %q %v", l, ok)
	}
	if _, ok := lineOf("a", 3); ok {
		t.Fatal("lineOf past the end must fail")
	}
}

func TestSamePathAcceptsURIs(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"/w/child.py", "/w/child.py", true},
		{"vscode-remote://127.0.0.1:5000/w/child.py", "/w/child.py", true},
		{"file:///w/child.py", "/w/./child.py", true},
		{"/w/other.py", "/w/child.py", false},
		{"", "/w/child.py", false},
	} {
		if got := samePath(c.a, c.b); got != c.want {
			t.Errorf("samePath(%q, %q) = %v", c.a, c.b, got)
		}
	}
	// Windows' paths, checked on any system: VS Code writes the drive in
	// lower case and URIs with %3A; a share keeps its host.
	win := platform.Flavour{Windows: true, FoldCase: true}
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{`C:\w\child.py`, `c:\w\child.py`, true},
		{"file:///c%3A/w/child.py", `C:\w\child.py`, true},
		{"vscode-remote://ssh-remote+winbox/c:/w/Child.py", `C:/w/child.py`, true},
		{"file://srv/share/child.py", `\\srv\share\child.py`, true},
		{"file://srv/share/child.py", `C:\share\child.py`, false},
		{`C:\w\child.py`, `D:\w\child.py`, false},
	} {
		if got := samePathIn(win, c.a, c.b); got != c.want {
			t.Errorf("windows samePath(%q, %q) = %v", c.a, c.b, got)
		}
	}
	if got := docFile("untitled:Untitled-1"); got != "" {
		t.Errorf("docFile(untitled) = %q, want none", got)
	}
}
