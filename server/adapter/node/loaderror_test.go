// loaderror_test.go: node's reports of programs that never started, as
// node 20 and 24 print them, read into a LoadError; and on real node, a
// syntax error sent as a load error event before exited.

package node

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestParseLoadError(t *testing.T) {
	for _, tc := range []struct {
		stderr string
		want   LoadError
	}{
		{"/w/app.js:2\nconst a = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)\n\nNode.js v20.20.2\n",
			LoadError{ErrorType: "SyntaxError", Message: "Unexpected token ';'", Path: "/w/app.js", Line: 2,
				Text: "/w/app.js:2\nconst a = ;\n          ^\n\nSyntaxError: Unexpected token ';'\n    at wrapSafe (node:internal/modules/cjs/loader:1464:18)"}},
		{"file:///w/a.ts:5\nenum E { A }\n^^^^^^^^^^^^\n\nSyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: TypeScript enum is not supported in strip-only mode\n    at parseTypeScript (node:internal/modules/typescript:68:40)\n{\n  code: 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX'\n}\n\nNode.js v24.21.0\n",
			LoadError{ErrorType: "SyntaxError", Code: "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX", Message: "TypeScript enum is not supported in strip-only mode", Path: filepath.FromSlash("/w/a.ts"), Line: 5,
				Text: "file:///w/a.ts:5\nenum E { A }\n^^^^^^^^^^^^\n\nSyntaxError [ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX]: TypeScript enum is not supported in strip-only mode\n    at parseTypeScript (node:internal/modules/typescript:68:40)\n{\n  code: 'ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX'\n}"}},
		{"C:\\w\\app.js:2\r\nconst a = ;\r\n          ^\r\n\r\nSyntaxError: Unexpected token ';'\r\n\r\nNode.js v22.23.3\r\n", // node on Windows
			LoadError{ErrorType: "SyntaxError", Message: "Unexpected token ';'", Path: `C:\w\app.js`, Line: 2,
				Text: "C:\\w\\app.js:2\nconst a = ;\n          ^\n\nSyntaxError: Unexpected token ';'"}},
		{"node:internal/modules/esm/resolve:283\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find module '/w/nope.mjs' imported from /w/esm.mjs\n    at finalizeResolution (node:internal/modules/esm/resolve:283:11)\n\nNode.js v20.20.2\n",
			LoadError{ErrorType: "Error", Code: "ERR_MODULE_NOT_FOUND", Message: "Cannot find module '/w/nope.mjs' imported from /w/esm.mjs",
				Text: "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/w/nope.mjs' imported from /w/esm.mjs\n    at finalizeResolution (node:internal/modules/esm/resolve:283:11)"}},
	} {
		got, ok := parseLoadError(tc.stderr)
		if !ok || got != tc.want {
			t.Errorf("parseLoadError(%q)\n got %+v, %v\nwant %+v", tc.stderr, got, ok, tc.want)
		}
	}
	if _, ok := parseLoadError("Warning: something\n"); ok {
		t.Error("a warning read as a load error")
	}
}

// On real node: the load error event comes before exited.
func TestLoadErrorEvent(t *testing.T) {
	c := start(t, Options{})
	prog := program(t, "syntax_error.js")
	launch := c.StartLaunch(launchConfig(prog))
	initialized(t, c, launch)
	c.ConfigurationDone()
	c.OK(launch)
	ev := c.Event(LoadErrorEvent)
	var le LoadError
	if err := ev.Unmarshal(&le); err != nil || le.ErrorType != "SyntaxError" || le.Path != prog || le.Line != 2 || !strings.Contains(le.Text, "const a = ;") {
		t.Fatalf("load error = %+v (%v)", le, err)
	}
	if code := waitEnd(t, c); code != 1 {
		t.Fatalf("exit code %d", code)
	}
}
