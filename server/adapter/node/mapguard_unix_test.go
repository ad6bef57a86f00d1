//go:build unix

package node

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The attacks that need a FIFO, a device or a symbolic link.
func init() {
	hostileMaps = append(hostileMaps, []hostileMap{
		// #37.3: Stat says size 0, a read never ends.
		{name: "the map is /dev/zero", setup: func(*testing.T, string, string) string { return "/dev/zero" },
			root: func(string) string { return "/" }, err: "a device"},
		{name: "the map is a link to /dev/zero", setup: func(t *testing.T, ws, _ string) string {
			if err := os.Symlink("/dev/zero", filepath.Join(ws, "zero.map")); err != nil {
				t.Fatal(err)
			}
			return "zero.map"
		}, root: func(string) string { return "/" }, err: "a device"},
		{name: "the map is a FIFO", setup: func(t *testing.T, ws, _ string) string {
			if err := syscall.Mkfifo(filepath.Join(ws, "fifo.map"), 0o600); err != nil {
				t.Fatal(err)
			}
			return "fifo.map"
		}, err: "a FIFO"},
		{name: "a source linked out of the workspace", setup: func(t *testing.T, ws, out string) string {
			writeFile(t, filepath.Join(out, "secret.txt"), secret)
			if err := os.Symlink(filepath.Join(out, "secret.txt"), filepath.Join(ws, "a.ts")); err != nil {
				t.Fatal(err)
			}
			return linked(`{"version":3,"sources":["a.ts"],"sourcesContent":["guess"],"names":[],"mappings":"AAAA"}`)(t, ws, out)
		}, note: "a source outside the workspace", mapped: map[int]string{1: ""}},
	}...)
}

// liveApp is a program whose line 3 is where it stops.
const liveApp = `"use strict";
function add(a, b) {
  return a + b;
}
console.log(add(2, 3));
`

// The attacks through a real node: the session survives each, stops in
// the generated file at its own line, and says why once.
func TestHostileSourceMapsLive(t *testing.T) {
	for _, tc := range []struct {
		name   string
		files  map[string]string // in the workspace; "FIFO": a FIFO
		bpFile string            // a breakpoint at line 3 of this file
		stops  bool              // the breakpoint stops, in app.js at line 3
		notice string            // one notice for app.js saying this ("": none)
	}{
		// (#37.1; a name without '#': a path with one never binds, a
		// separate bug)
		{name: "a source index past the end of sources", files: map[string]string{
			"app.js":     liveApp + "//# sourceMappingURL=app.js.map\n",
			"app.js.map": `{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AACA;AEAA;AACA"}`,
			"a.ts":       "a\nb\nc\nd\n",
		}, bpFile: "app.js", stops: true},
		{name: "an index map with a url section", files: map[string]string{
			"app.js":     liveApp + "//# sourceMappingURL=app.js.map\n",
			"app.js.map": `{"version":3,"sections":[{"offset":{"line":0,"column":0},"url":"x.js.map"}]}`,
		}, bpFile: "app.js", stops: true, notice: "malformed"},
		{name: "a FIFO as the map", files: map[string]string{
			"app.js":   liveApp + "//# sourceMappingURL=fifo.map\n",
			"fifo.map": "FIFO",
		}, bpFile: "app.js", stops: true, notice: "a FIFO"},
		{name: "a FIFO as the map of a scanned script", files: map[string]string{
			"app.js":   liveApp,
			"other.js": "//# sourceMappingURL=fifo.map\n",
			"fifo.map": "FIFO",
			"a.ts":     "a\nb\nc\n",
		}, bpFile: "a.ts"},
		{name: "/etc/passwd as a source", files: map[string]string{
			"app.js":     liveApp + "//# sourceMappingURL=app.js.map\n",
			"app.js.map": `{"version":3,"sources":["a.ts","/etc/passwd"],"sourcesContent":["x","y"],"names":[],"mappings":"AAAA;AACA;ACAA;AACA"}`,
			"a.ts":       "x",
		}, bpFile: "app.js", stops: true, notice: "outside the workspace"},
		{name: "sourceMappingURL=/etc/passwd", files: map[string]string{
			"app.js": liveApp + "//# sourceMappingURL=/etc/passwd\n",
		}, bpFile: "app.js", stops: true, notice: "outside the workspace"},
		{name: "a negative original line", files: map[string]string{
			"app.js":     liveApp + "//# sourceMappingURL=app.js.map\n",
			"app.js.map": `{"version":3,"sources":["a.ts"],"names":[],"mappings":"AAAA;AACA;AA` + vlq(-831283983) + `A;AACA"}`,
			"a.ts":       "a\nb\nc\nd\n",
		}, bpFile: "app.js", stops: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ws := t.TempDir()
			for name, text := range tc.files {
				p := filepath.Join(ws, name)
				if text == "FIFO" {
					if err := syscall.Mkfifo(p, 0o600); err != nil {
						t.Fatal(err)
					}
					continue
				}
				writeFile(t, p, text)
			}
			app := filepath.Join(ws, "app.js")
			c := start(t, Options{Logger: testLogger()})
			cfg := launchConfig(app)
			cfg["dapscopeWorkspace"] = ws
			launch := c.StartLaunch(cfg)
			c.Event("initialized")
			c.SetBreakpoints(filepath.Join(ws, tc.bpFile), 3)
			c.ConfigurationDone()
			c.OK(launch)
			if tc.stops {
				c.Stopped()
				for i, f := range c.StackTrace(ThreadID, 20) {
					if f.Source != nil && f.Source.Path != "" && !inside(ws, f.Source.Path) && !strings.HasPrefix(f.Source.Path, "node:") {
						t.Errorf("frame %d names %s", i, f.Source.Path)
					}
					if i == 0 && (f.Source == nil || f.Source.Path != app || f.Line != 3) {
						t.Fatalf("top = %+v %+v, want %s:3", f, f.Source, app)
					}
				}
				c.Continue(ThreadID)
			}
			if code := waitEnd(t, c); code != 0 {
				t.Fatalf("exit code %d", code)
			}
			notes := output(c, "important")
			if tc.notice == "" && notes != "" || tc.notice != "" && (strings.Count(notes, "dapscope: "+app+": ") != 1 || !strings.Contains(notes, tc.notice)) {
				t.Errorf("notices = %q, want one for app.js saying %q", notes, tc.notice)
			}
			if strings.Contains(notes, "root:") {
				t.Errorf("a notice shows /etc/passwd: %q", notes)
			}
		})
	}
}
