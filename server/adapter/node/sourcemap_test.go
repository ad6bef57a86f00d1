// sourcemap_test.go: compiled TypeScript and bundles debugged through their
// source maps, built for real by the npm packages typescript (tsc, with
// sourceMap and with inlineSourceMap) and esbuild (a bundle with an
// external and with an inline map) from testdata/node/tsproject, whose
// sources use an enum, a namespace, a decorator and a parameter property:
// breakpoints set in the .ts sources bind (in a module loaded later too),
// stops, frames and scopes name the original file and line, stepping stays
// in mapped code (never in tsc's __decorate or esbuild's __decorateClass),
// an exception's stack names the original lines; and a stale or missing
// map gives a notice and the generated lines, never wrong ones.

package node

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

// tsProject is testdata/node/tsproject and its sources.
func tsProject(t *testing.T) (dir, mainTS, shapesTS string) {
	dir = filepath.Dir(program(t, "tsproject/tsconfig.json"))
	return dir, filepath.Join(dir, "src", "main.ts"), filepath.Join(dir, "src", "shapes.ts")
}

// npmBin is a tool the root package.json installs (make setup-node).
func npmBin(t *testing.T, name string) string {
	t.Helper()
	bin := filepath.Join(filepath.Dir(node24(t)), "..", "..", ".bin", name)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%s is required (run `make setup-node`): %v", name, err)
	}
	return bin
}

// build runs a tool and returns the program it wrote.
func build(t *testing.T, out string, bin string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(bin), strings.Join(args, " "), err, b)
	}
	return out
}

// tscBuild compiles the project into a temporary directory (extra flags
// after the project's own) and returns dist/main.js.
func tscBuild(t *testing.T, flags ...string) string {
	dir, _, _ := tsProject(t)
	out := t.TempDir()
	args := append([]string{"-p", dir, "--outDir", filepath.Join(out, "dist")}, flags...)
	return build(t, filepath.Join(out, "dist", "main.js"), node24(t), append([]string{npmBin(t, "tsc")}, args...)...)
}

// esbuildBundle bundles the project into one file with a map (sourcemap:
// "linked", a file named by a comment, or "inline").
func esbuildBundle(t *testing.T, sourcemap string) string {
	_, mainTS, _ := tsProject(t)
	out := filepath.Join(t.TempDir(), "bundle.js")
	return build(t, out, npmBin(t, "esbuild"), mainTS, "--bundle", "--platform=node", "--sourcemap="+sourcemap, "--outfile="+out, "--log-level=warning")
}

// builtLaunch is the launch of a program built from the project: its
// sources (testdata) and its build (a temporary directory) are both in
// the workspace the adapter is given, their common ancestor.
func builtLaunch(t *testing.T, prog string) map[string]any {
	dir, _, _ := tsProject(t)
	ws := dir
	for ws != filepath.Dir(ws) && !strings.HasPrefix(prog, ws+string(filepath.Separator)) {
		ws = filepath.Dir(ws)
	}
	cfg := launchConfig(prog)
	cfg["dapscopeWorkspace"] = ws
	return cfg
}

func TestSourceMaps(t *testing.T) {
	for _, tc := range []struct {
		name, node string
		build      func(t *testing.T) string
	}{
		{"tsc sourceMap on node 20", "node", func(t *testing.T) string { return tscBuild(t) }},
		{"tsc inlineSourceMap on node 24", "24", func(t *testing.T) string { return tscBuild(t, "--sourceMap", "false", "--inlineSourceMap") }},
		{"esbuild linked map on node 24", "24", func(t *testing.T) string { return esbuildBundle(t, "linked") }},
		{"esbuild inline map on node 20", "node", func(t *testing.T) string { return esbuildBundle(t, "inline") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := tc.node
			if bin == "24" {
				bin = node24(t)
			}
			prog := tc.build(t)
			_, mainTS, shapesTS := tsProject(t)
			c := start(t, Options{Node: bin, Logger: testLogger()})
			launch := c.StartLaunch(builtLaunch(t, prog))
			c.Event("initialized")
			// → setBreakpoints in shapes.ts (@area) and main.ts (@scale):
			// they bind in the generated code, and report the .ts lines.
			area, scale := line(t, shapesTS, "area"), line(t, mainTS, "scale")
			bps := c.SetBreakpoints(shapesTS, area)
			if bps[0].Verified && bps[0].Line != area {
				t.Fatalf("shapes.ts breakpoint = %+v, want line %d", bps[0], area)
			}
			if bps := c.SetBreakpoints(mainTS, scale); !bps[0].Verified || bps[0].Line != scale || bps[0].Column == 0 {
				t.Fatalf("main.ts breakpoint = %+v, want verified on line %d with a column (notices: %q)", bps[0], scale, output(c, "important"))
			}
			c.ConfigurationDone()
			c.OK(launch)
			// ← stopped in area (shapes.ts), called by paint (main.ts)
			if st := c.Stopped(); st.Body.Reason != "breakpoint" {
				t.Fatalf("stop = %+v", st.Body)
			}
			frames := c.StackTrace(ThreadID, 3)
			if frames[0].Name != "area" || frames[0].Source.Path != shapesTS || frames[0].Line != area {
				t.Fatalf("top = %+v %+v, want area at %s:%d", frames[0], frames[0].Source, shapesTS, area)
			}
			if frames[1].Source.Path != mainTS || frames[1].Line != line(t, mainTS, "paint") {
				t.Errorf("caller = %+v %+v, want main.ts:%d", frames[1], frames[1].Source, line(t, mainTS, "paint"))
			}
			if r := c.Evaluate("s.side * 2", frames[0].Id, "watch"); r.Result != "6" {
				t.Errorf("s.side * 2 = %q", r.Result)
			}
			// → stepOut ← back in paint in main.ts (V8 stops at the call's
			// end, or at the next statement)
			daptest.Call[*godap.StepOutResponse](c, "stepOut", godap.StepOutArguments{ThreadId: ThreadID})
			c.Stopped()
			if top := c.TopFrame(ThreadID); top.Name != "paint" || top.Source.Path != mainTS ||
				top.Line != line(t, mainTS, "paint") && top.Line != line(t, mainTS, "scaled") {
				t.Fatalf("after stepOut: %+v %+v", top, top.Source)
			}
			// → continue ← stopped at @scale (the namespace's function)
			c.Continue(ThreadID)
			c.Stopped()
			if top := c.TopFrame(ThreadID); top.Name != "scale" || top.Source.Path != mainTS || top.Line != scale {
				t.Fatalf("at scale: %+v %+v", top, top.Source)
			}
			c.Continue(ThreadID)
			if code := waitEnd(t, c); code != 0 || output(c, "stdout") != "green 18\n" {
				t.Fatalf("exit %d, stdout %q", code, output(c, "stdout"))
			}
			if notes := output(c, "important"); notes != "" {
				t.Errorf("notices for a usable map: %q", notes)
			}
		})
	}
}

// A map that cannot be used gives one notice and the generated file's own
// lines, never wrong ones; a breakpoint in its source does not bind.
func TestSourceMapsNotUsable(t *testing.T) {
	for _, tc := range []struct {
		name, notice string
		spoil        func(t *testing.T, dist string)
	}{
		{"stale", "is stale", func(t *testing.T, dist string) {
			// The map's copy of shapes.ts (sourcesContent) is not the file
			// any more: the file on disk changed after the build.
			src := filepath.Join(filepath.Dir(dist), "src", "shapes.ts")
			b, err := os.ReadFile(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(src, append([]byte("// edited after the build\n"), b...), 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"missing", "cannot be read", func(t *testing.T, dist string) {
			if err := os.Remove(filepath.Join(dist, "shapes.js.map")); err != nil {
				t.Fatal(err)
			}
		}},
		{"another file's", "does not match it", func(t *testing.T, dist string) {
			// main.js's map in place of shapes.js's: it covers lines
			// shapes.js does not have.
			b, err := os.ReadFile(filepath.Join(dist, "main.js.map"))
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), `"file":"main.js"`, `"file":"shapes.js"`, 1))
			if err := os.WriteFile(filepath.Join(dist, "shapes.js.map"), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// A copy of the project, built with its sources in the maps.
			dir, _, _ := tsProject(t)
			work := t.TempDir()
			if err := os.CopyFS(work, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			build(t, "", node24(t), npmBin(t, "tsc"), "-p", work, "--inlineSources")
			dist := filepath.Join(work, "dist")
			tc.spoil(t, dist)
			shapesJS, shapesTS := filepath.Join(dist, "shapes.js"), filepath.Join(work, "src", "shapes.ts")
			c := start(t, Options{})
			cfg := launchConfig(filepath.Join(dist, "main.js"))
			cfg["dapscopeWorkspace"] = work // dist/ and src/
			launch := c.StartLaunch(cfg)
			c.Event("initialized")
			c.SetBreakpoints(shapesTS, line(t, shapesTS, "area"))
			c.SetBreakpoints(shapesJS, line(t, shapesJS, "area"))
			c.ConfigurationDone()
			c.OK(launch)
			// ← one stop, in shapes.js at its own line
			c.Stopped()
			if top := c.TopFrame(ThreadID); top.Source.Path != shapesJS || top.Line != line(t, shapesJS, "area") {
				t.Fatalf("top = %+v %+v, want %s:%d", top, top.Source, shapesJS, line(t, shapesJS, "area"))
			}
			c.Continue(ThreadID)
			waitEnd(t, c)
			notes := output(c, "important")
			if strings.Count(notes, "dapscope: "+shapesJS+": ") != 1 || !strings.Contains(notes, tc.notice) || !strings.Contains(notes, "its own lines are shown") {
				t.Errorf("notices = %q, want one for %s saying %q", notes, shapesJS, tc.notice)
			}
			if n := c.Count(func(m daptest.Msg) bool { return m.IsEvent("stopped") }); n != 1 {
				t.Errorf("%d stops, want 1 (the breakpoint in shapes.ts must not bind through the map)", n)
			}
		})
	}
}

// A map written for another file: one notice, the file's own lines.
func TestSourceMapOfAnotherFile(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "mapped/app.js")
	add := line(t, prog, "add")
	launch := c.StartLaunch(launchConfig(prog))
	c.Event("initialized")
	if bps := c.SetBreakpoints(prog, add); !bps[0].Verified || bps[0].Line != add {
		t.Fatalf("breakpoints = %+v", bps)
	}
	c.ConfigurationDone()
	c.OK(launch)
	c.Stopped()
	if top := c.TopFrame(ThreadID); top.Line != add || top.Source.Path != prog {
		t.Fatalf("top = %+v", top)
	}
	c.Continue(ThreadID)
	waitEnd(t, c)
	if notes := output(c, "important"); strings.Count(notes, "dapscope: ") != 1 || !strings.Contains(notes, "was written for other.js") {
		t.Errorf("notices = %q", notes)
	}
}

// Stepping into the decoration of a method goes through the compiler's
// helper (tsc's __decorate, esbuild's __decorateClass: code the map does
// not cover) and stops in the decorator, in main.ts.
func TestSourceMapsStepThroughHelpers(t *testing.T) {
	for name, build := range map[string]func(t *testing.T) string{
		"tsc":     func(t *testing.T) string { return tscBuild(t) },
		"esbuild": func(t *testing.T) string { return esbuildBundle(t, "inline") },
	} {
		t.Run(name, func(t *testing.T) {
			prog := build(t)
			_, mainTS, _ := tsProject(t)
			// The generated statement that applies the decorator.
			b, err := os.ReadFile(prog)
			if err != nil {
				t.Fatal(err)
			}
			decorate := 0
			for i, l := range strings.Split(string(b), "\n") {
				if strings.HasPrefix(l, "__decorate([") || strings.HasPrefix(l, "__decorateClass([") {
					decorate = i + 1
				}
			}
			c := start(t, Options{Node: node24(t)})
			launch := c.StartLaunch(builtLaunch(t, prog))
			c.Event("initialized")
			if bps := c.SetBreakpoints(prog, decorate); !bps[0].Verified {
				t.Fatalf("breakpoint at %s:%d = %+v", prog, decorate, bps[0])
			}
			c.ConfigurationDone()
			c.OK(launch)
			c.Stopped()
			daptest.Call[*godap.StepInResponse](c, "stepIn", godap.StepInArguments{ThreadId: ThreadID})
			c.Stopped()
			if top := c.TopFrame(ThreadID); top.Name != "logged" || top.Source.Path != mainTS || top.Line != line(t, mainTS, "logged") {
				t.Fatalf("after stepIn: %+v %+v, want logged at main.ts:%d", top, top.Source, line(t, mainTS, "logged"))
			}
			c.Continue(ThreadID)
			waitEnd(t, c)
		})
	}
}
