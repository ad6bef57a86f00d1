// validate_test.go: unit tests of the checks on launch specs that need no
// debugger.

package session

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
)

// A refused env key is quoted cut to 80 bytes, before a character that does
// not fit, never inside it.
func TestEnvKeyQuotedWhole(t *testing.T) {
	key := strings.Repeat("K", 79) + "名前"
	err := validateArgsEnv(nil, map[string]string{key: "v"})
	var se *errcode.Error
	if !errors.As(err, &se) || se.Code != errcode.InvalidArgument || se.Field != "env" {
		t.Fatalf("err = %v, want INVALID_ARGUMENT on env", err)
	}
	if want := `"` + strings.Repeat("K", 79) + `…"`; !utf8.ValidString(se.Message) || !strings.Contains(se.Message, want) {
		t.Fatalf("message = %q, want the key quoted as %s", se.Message, want)
	}
}

// Path arguments in each system's flavour, checked on any system: the
// workspace is C:\ws (or \\srv\share\ws) on Windows, /Users/me/ws on
// macOS; nothing here exists, so only the spelling decides.
func TestResolvePathFlavours(t *testing.T) {
	win := platform.Flavour{Windows: true, FoldCase: true}
	mac := platform.Flavour{FoldCase: true}
	for _, tc := range []struct {
		name      string
		f         platform.Flavour
		ws, p     string
		want, err string
	}{
		{"windows relative", win, `C:\ws`, `src\app.py`, `C:\ws\src\app.py`, ""},
		{"windows forward slashes", win, `C:\ws`, `src/app.py`, `C:\ws\src\app.py`, ""},
		{"windows absolute inside", win, `C:\ws`, `C:\ws\app.py`, `C:\ws\app.py`, ""},
		{"windows drive letter case (VS Code writes c:)", win, `C:\ws`, `c:\ws\app.py`, `c:\ws\app.py`, ""},
		{"windows name case", win, `C:\Work`, `C:\work\App.py`, `C:\work\App.py`, ""},
		{"windows other drive", win, `C:\ws`, `D:\ws\app.py`, "", "outside the workspace"},
		{"windows sibling", win, `C:\ws`, `C:\ws2\app.py`, "", "outside the workspace"},
		{"windows dotdot with backslashes", win, `C:\ws`, `src\..\..\secret.txt`, "", "must not contain '..'"},
		{"windows rooted on the current drive", win, `C:\ws`, `\Windows\win.ini`, "", "absolute with its drive"},
		{"windows drive-relative", win, `C:\ws`, `C:app.py`, "", "absolute with its drive"},
		{"windows share inside", win, `\\srv\share\ws`, `\\SRV\share\ws\a.py`, `\\SRV\share\ws\a.py`, ""},
		{"windows share relative", win, `\\srv\share\ws`, `a.py`, `\\srv\share\ws\a.py`, ""},
		{"windows other share", win, `\\srv\share\ws`, `\\srv\c$\a.py`, "", "outside the workspace"},
		{"windows long-path prefix", win, `C:\ws`, `\\?\C:\ws\a.py`, `C:\ws\a.py`, ""},
		{"macos case (no disk to ask)", mac, "/Users/me/ws", "/users/me/WS/a.py", "/users/me/WS/a.py", ""},
		{"macos outside", mac, "/Users/me/ws", "/Users/me/other/a.py", "", "outside the workspace"},
		{"unix case matters", platform.Unix, "/home/me/ws", "/home/me/WS/a.py", "", "outside the workspace"},
		{"unix backslash is a name character", platform.Unix, "/home/me/ws", `a\b.py`, `/home/me/ws/a\b.py`, ""},
	} {
		got, err := resolvePathIn(tc.f, tc.ws, "program", tc.p)
		if tc.err != "" {
			var se *errcode.Error
			if !errors.As(err, &se) || se.Field != "program" || !strings.Contains(se.Message, tc.err) {
				t.Errorf("%s: resolve(%q) = %q, %v; want an error saying %q", tc.name, tc.p, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("%s: resolve(%q) = %q, %v; want %q", tc.name, tc.p, got, err, tc.want)
		}
	}
}
