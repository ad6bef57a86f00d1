// node_leak_test.go: a source map that names a file outside the workspace
// (issue #37.8): the stop report and debug_stack used to print
// /etc/passwd's lines as the program's source. The stop is shown in the
// generated file, with its own lines.

package mcp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestNodeMapSourceOutsideWorkspace(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat("/etc/passwd"); err != nil {
		t.Skip("no /etc/passwd here")
	}
	a := newNodeAgent(t, 0)
	dir := "testdata/node/leak-" + strconv.Itoa(os.Getpid())
	abs := filepath.Join(repoRoot(t), dir)
	if err := os.MkdirAll(abs, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(abs) })
	app := "\"use strict\";\nfunction add(a, b) {\n  return a + b; // @add\n}\nconsole.log(add(2, 3));\n//# sourceMappingURL=app.js.map\n"
	for name, text := range map[string]string{
		"app.js": app,
		// Line 3 maps to /etc/passwd's line 3.
		"app.js.map": `{"version":3,"sources":["/etc/passwd"],"names":[],"mappings":"AAAA;AACA;AACA"}`,
	} {
		if err := os.WriteFile(filepath.Join(abs, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	prog := dir + "/app.js"
	var stop StopReport
	a.call("debug_launch", map[string]any{"program": prog, "breakpoints": []map[string]any{{"file": prog, "line": 3}}}, &stop)
	if stop.Status != "paused" || stop.Location.File != prog || stop.Location.Line != 3 {
		t.Fatalf("stop = %+v", stop.Location)
	}
	var st StackResult
	a.call("debug_stack", nil, &st)
	for _, v := range []any{stop, st} {
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), "passwd") || strings.Contains(string(b), "root:") {
			t.Errorf("/etc/passwd shows: %s", b)
		}
	}
	a.call("debug_terminate", map[string]any{"remove": true}, nil)
}
