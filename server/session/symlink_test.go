// symlink_test.go: symbolic links cannot lead a path argument out of the
// workspace (program, cwd, breakpoint files), while a link that stays
// inside works, against real debugpy.

package session

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestSymlinksCannotEscapeWorkspace(t *testing.T) {
	ws, outside := t.TempDir(), t.TempDir()
	write := func(dir, name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	write(ws, "ok.py", "x = 1\nprint(x)\n")
	evil := write(outside, "evil.py", "print('outside the workspace')\n")
	link(evil, "link_evil.py")
	link(outside, "outside_dir")
	link("/etc/passwd", "passwd.py")
	link(filepath.Join(ws, "ok.py"), "link_ok.py") // stays inside
	m := newTestManager(t, ManagerOptions{Workspace: ws})

	cases := []struct {
		name  string
		spec  LaunchSpec
		field string
	}{
		{"program links out", LaunchSpec{Program: "link_evil.py"}, "program"},
		{"program through a linked dir", LaunchSpec{Program: "outside_dir/evil.py"}, "program"},
		{"cwd links out", LaunchSpec{Program: "ok.py", Cwd: "outside_dir"}, "cwd"},
		{"breakpoint file links to /etc/passwd", LaunchSpec{Program: "ok.py", Breakpoints: []Breakpoint{{File: "passwd.py", Line: 1}}}, "breakpoints[0].file"},
	}
	for _, c := range cases {
		_, err := m.Launch(testCtx(t), c.spec)
		var se *errcode.Error
		if !errors.As(err, &se) || se.Code != errcode.InvalidArgument || se.Field != c.field || !strings.Contains(se.Message, "outside the workspace") {
			t.Errorf("%s: got %v; want INVALID_ARGUMENT on %s naming the link", c.name, err, c.field)
		}
	}
	if n := len(m.List()); n != 0 {
		t.Fatalf("refused launches must not create sessions (got %d)", n)
	}

	// A link that stays inside the workspace runs.
	s, err := m.Launch(testCtx(t), LaunchSpec{Program: "link_ok.py", Breakpoints: []Breakpoint{{File: "link_ok.py", Line: 2}}})
	if err != nil {
		t.Fatalf("a link inside the workspace: %v", err)
	}
	st := waitStop(t, s)
	if st.Location.Line != 2 {
		t.Fatalf("stopped at %+v", st.Location)
	}
	// Setting breakpoints on a running session is checked the same way.
	if _, err := s.SetBreakpoints(testCtx(t), "passwd.py", []Breakpoint{{Line: 1}}); err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Fatalf("SetBreakpoints through a link out: %v", err)
	}
}
