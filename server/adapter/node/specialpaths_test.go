//go:build !windows

// specialpaths_test.go: a program whose folder or file name holds
// characters that URLs treat specially (#, ?, %, a space, non-ASCII) stops
// at its breakpoints and shows its own path, as CommonJS and as an ES
// module (real node).

package node

import (
	"os"
	"path/filepath"
	"testing"
)

func TestBreakpointsInSpecialPaths(t *testing.T) {
	const body = "const n = 6 * 7;\nconsole.log('at', n); // @here\n"
	for _, tc := range []struct{ name, dir, file string }{
		{"hash", "a#b", "prog.js"},
		{"hash file", "x", "p#q.js"},
		{"question", "a?b", "prog.js"},
		{"percent", "a%20b", "prog.js"},
		{"percent hash", "a%23b", "p%.js"},
		{"space", "a b", "prog.js"},
		{"unicode", "données", "é 🦊.js"},
		{"mixed", "a #?%; [x]", "m&=+.js"},
		{"esm hash", "a#b", "prog.mjs"},
		{"esm mixed", "a #?% é", "p%3F.mjs"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tc.dir)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			prog := filepath.Join(dir, tc.file)
			if err := os.WriteFile(prog, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			c := start(t, Options{Logger: testLogger()})
			launch := c.StartLaunch(launchConfig(prog))
			c.Event("initialized")
			bps := c.SetBreakpoints(prog, 2)
			t.Logf("breakpoints = %+v", bps)
			c.ConfigurationDone()
			c.OK(launch)
			c.Stopped()
			top := c.TopFrame(ThreadID)
			if top.Line != 2 || top.Source == nil || top.Source.Path != prog {
				t.Fatalf("stopped at %+v, want %s:2", top, prog)
			}
			if r := c.Evaluate("n", top.Id, "watch"); r.Result != "42" {
				t.Errorf("n = %q", r.Result)
			}
			c.Continue(ThreadID)
			if code := waitEnd(t, c); code != 0 || output(c, "stdout") != "at 42\n" {
				t.Fatalf("exit %d, stdout %q", code, output(c, "stdout"))
			}
		})
	}
}
