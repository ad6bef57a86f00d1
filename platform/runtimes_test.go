// runtimes_test.go: where python, node and dlv are looked for on each
// system (tables run anywhere, with a fake environment), Find on this
// system against a PATH of fake executables, and the install hints of a
// missing runtime.

package platform

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func fakeLookup(goos string, env map[string]string, globs map[string][]string) lookup {
	return lookup{goos: goos, home: env["HOME"], getenv: func(k string) string { return env[k] },
		glob: func(p string) []string { return globs[p] }}
}

func TestRuntimeCandidates(t *testing.T) {
	win := fakeLookup("windows", map[string]string{
		"VIRTUAL_ENV": `C:\proj\.venv`, "LOCALAPPDATA": `C:\Users\me\AppData\Local`, "SystemRoot": `C:\Windows`,
		"ProgramFiles": `C:\Program Files`, "GOPATH": `C:\Users\me\go;D:\other`, "HOME": `C:\Users\me`,
	}, map[string][]string{`C:\Users\me\AppData\Local\Programs\Python\Python3*\python.exe`: {
		`C:\Users\me\AppData\Local\Programs\Python\Python311\python.exe`, `C:\Users\me\AppData\Local\Programs\Python\Python312\python.exe`}})
	mac := fakeLookup("darwin", map[string]string{"HOME": "/Users/me"}, nil)
	lin := fakeLookup("linux", map[string]string{"HOME": "/home/me", "GOBIN": "/opt/gobin", "VIRTUAL_ENV": "/home/me/venv"}, nil)
	for _, tc := range []struct {
		name string
		l    lookup
		r    Runtime
		want []string
	}{
		{"windows python", win, Python, []string{`C:\proj\.venv\Scripts\python.exe`, "python.exe", "py.exe",
			`C:\Users\me\AppData\Local\Programs\Python\Python312\python.exe`, `C:\Users\me\AppData\Local\Programs\Python\Python311\python.exe`, `C:\Windows\py.exe`}},
		{"windows node", win, Node, []string{"node.exe", `C:\Program Files\nodejs\node.exe`}},
		{"windows dlv", win, Dlv, []string{"dlv.exe", `C:\Users\me\go\bin\dlv.exe`}},
		{"macos python", mac, Python, []string{"python3", "/opt/homebrew/bin/python3", "/usr/local/bin/python3",
			"/Library/Frameworks/Python.framework/Versions/Current/bin/python3", "/usr/bin/python3", "python"}},
		{"macos node", mac, Node, []string{"node", "/opt/homebrew/bin/node", "/usr/local/bin/node"}},
		{"macos dlv", mac, Dlv, []string{"dlv", "/Users/me/go/bin/dlv"}},
		{"linux python", lin, Python, []string{"/home/me/venv/bin/python", "/usr/bin/python3", "python3", "python"}},
		{"linux node", lin, Node, []string{"node"}},
		{"linux dlv", lin, Dlv, []string{"dlv", "/opt/gobin/dlv", "/home/me/go/bin/dlv"}},
	} {
		if got := tc.l.candidates(tc.r); !slices.Equal(got, tc.want) {
			t.Errorf("%s:\n got  %q\n want %q", tc.name, got, tc.want)
		}
	}
	if got := win.venvPython(`D:\envs\ml`); got != `D:\envs\ml\Scripts\python.exe` {
		t.Errorf("windows venv = %q", got)
	}
	if got := lin.venvPython("/envs/ml"); got != "/envs/ml/bin/python" {
		t.Errorf("unix venv = %q", got)
	}
}

// fakeExe writes an executable named name (name.exe on Windows) in dir.
func fakeExe(t *testing.T, dir, name string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestFindOnThisSystem(t *testing.T) {
	dir := t.TempDir()
	node := fakeExe(t, dir, "node")
	t.Setenv("PATH", dir)
	t.Setenv("GOBIN", "")
	t.Setenv("GOPATH", filepath.Join(dir, "nogopath"))
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
	t.Setenv("ProgramFiles", dir)
	got, err := Find(Node)
	if err != nil || !Host.Same(got, node) {
		t.Fatalf("Find(node) = %q %v, want %q", got, err, node)
	}
	// dlv is in ~/go/bin only.
	if err := os.MkdirAll(filepath.Join(dir, "go", "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	dlv := fakeExe(t, filepath.Join(dir, "go", "bin"), "dlv")
	if got, err := Find(Dlv); err != nil || !Host.Same(got, dlv) {
		t.Fatalf("Find(dlv) = %q %v, want %q", got, err, dlv)
	}
	// No dlv anywhere: the error says how to install it on this system.
	t.Setenv("HOME", filepath.Join(dir, "nohome"))
	t.Setenv("USERPROFILE", filepath.Join(dir, "nohome"))
	_, err = Find(Dlv)
	if !IsMissing(err) || !strings.Contains(err.Error(), "go install github.com/go-delve/delve/cmd/dlv@latest") {
		t.Fatalf("Find(dlv) with none = %v", err)
	}
}

func TestInstallHints(t *testing.T) {
	for _, tc := range []struct {
		goos string
		r    Runtime
		want string
	}{
		{"windows", Python, "py -m pip install debugpy"},
		{"windows", Node, "winget install OpenJS.NodeJS.LTS"},
		{"windows", Dlv, `%USERPROFILE%\go\bin`},
		{"darwin", Python, "brew install python"},
		{"darwin", Node, "brew install node"},
		{"linux", Python, "sudo apt install python3-debugpy"},
		{"linux", Node, "sudo apt install nodejs"},
		{"linux", Dlv, "$(go env GOPATH)/bin"},
	} {
		if got := InstallHint(tc.goos, tc.r); !strings.Contains(got, tc.want) {
			t.Errorf("InstallHint(%s, %s) = %q, want it to say %q", tc.goos, tc.r, got, tc.want)
		}
	}
	err := Missing(Node, "/opt/none/node")
	if !strings.Contains(err.Error(), `node not found at "/opt/none/node": install Node.js`) {
		t.Errorf("Missing = %q", err)
	}
}

func TestLLDBDapCandidatesNewestFirst(t *testing.T) {
	l := fakeLookup("linux", nil, map[string][]string{
		"/usr/bin/lldb-dap-*":          {"/usr/bin/lldb-dap-17", "/usr/bin/lldb-dap-19", "/usr/bin/lldb-dap-9"},
		"/usr/lib/llvm-*/bin/lldb-dap": {"/usr/lib/llvm-18/bin/lldb-dap", "/usr/lib/llvm-19/bin/lldb-dap"},
	})
	want := []string{"/usr/bin/lldb-dap-19", "/usr/lib/llvm-19/bin/lldb-dap", "/usr/lib/llvm-18/bin/lldb-dap",
		"/usr/bin/lldb-dap-17", "/usr/bin/lldb-dap-9", "lldb-dap"}
	if got := l.candidates(LLDBDap); !slices.Equal(got, want) {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	if h := InstallHint("linux", LLDBDap); !strings.Contains(h, "apt-get install lldb-19") {
		t.Errorf("hint %q", h)
	}
}
