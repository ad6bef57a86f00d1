// kind_test.go: adapter names and their aliases, kinds from file names, the
// help text, and each driver's launch and attach arguments as the adapters
// receive them.

package adapter

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

func TestParseKind(t *testing.T) {
	for name, want := range map[string]Kind{
		"": Debugpy, "debugpy": Debugpy, "python": Debugpy,
		"dlv": Dlv, "go": Dlv, "delve": Dlv,
		"node": Node, "nodejs": Node, "js": Node,
	} {
		if got, err := ParseKind(name); err != nil || got != want {
			t.Errorf("ParseKind(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	for _, name := range []string{"gdb", "Debugpy", " dlv"} {
		if _, err := ParseKind(name); err == nil || err.Error() != `unknown adapter "`+name+`" (debugpy, dlv, node or lldb)` {
			t.Errorf("ParseKind(%q) error = %v", name, err)
		}
	}
	if got := KindList("%q"); got != `"debugpy", "dlv", "node" or "lldb"` {
		t.Errorf("KindList = %s", got)
	}
}

func TestKindForPath(t *testing.T) {
	for path, want := range map[string]Kind{
		"a.py": Debugpy, "/w/pkg/main.go": Dlv, "x.tar.py": Debugpy,
		"a.js": Node, "m.mjs": Node, "c.cjs": Node, "a.ts": Node, "m.mts": Node, "c.cts": Node, "a.tsx": "", "pkg": "", "pkg.go/": "", ".go": "", "": "",
	} {
		got, ok := KindForPath(path)
		if got != want || ok != (want != "") {
			t.Errorf("KindForPath(%q) = %q, %v; want %q", path, got, ok, want)
		}
	}
}

// Each driver's launch arguments, as JSON (what the adapter receives).
func TestLaunchArgs(t *testing.T) {
	cfg := LaunchConfig{Program: "/w/p.py", Args: []string{"a"}, Env: map[string]string{"K": "v"}, Cwd: "/w",
		Exe: "/py", Scratch: "/tmp/dapscope-1234abcd", InterruptTimeout: 15 * time.Second}
	for _, tc := range []struct {
		kind Kind
		cfg  func(LaunchConfig) LaunchConfig
		want string
	}{
		{Debugpy, func(c LaunchConfig) LaunchConfig { return c },
			`{"args":["a"],"console":"internalConsole","cwd":"/w","env":{"K":"v","PYDEVD_INTERRUPT_THREAD_TIMEOUT":"15"},"justMyCode":true,"program":"/w/p.py","python":["/py","-Xfrozen_modules=off"],"redirectOutput":true,"request":"launch","stopOnEntry":false,"subProcess":true,"type":"python"}`},
		{Debugpy, func(c LaunchConfig) LaunchConfig {
			c.Program, c.Module, c.Args, c.Env, c.Exe, c.InterruptTimeout, c.StopOnEntry = "", "pkg.mod", nil, map[string]string{"PYDEVD_INTERRUPT_THREAD_TIMEOUT": "3"}, "", 0, true
			return c
		}, `{"console":"internalConsole","cwd":"/w","env":{"PYDEVD_INTERRUPT_THREAD_TIMEOUT":"3"},"justMyCode":true,"module":"pkg.mod","python":[` + strconv.Quote(DefaultPython()) + `,"-Xfrozen_modules=off"],"redirectOutput":true,"request":"launch","stopOnEntry":true,"subProcess":true,"type":"python"}`},
		{Debugpy, func(c LaunchConfig) LaunchConfig {
			c.Env, c.InterruptTimeout, c.NoSubprocesses = nil, -1, true
			return c
		},
			`{"args":["a"],"console":"internalConsole","cwd":"/w","justMyCode":true,"program":"/w/p.py","python":["/py","-Xfrozen_modules=off"],"redirectOutput":true,"request":"launch","stopOnEntry":false,"subProcess":false,"type":"python"}`},
		{Dlv, func(c LaunchConfig) LaunchConfig { c.Program = "/w/pkg"; return c },
			`{"args":["a"],"cwd":"/w","env":{"K":"v"},"mode":"debug","output":"/tmp/dapscope-1234abcd-debug","outputMode":"remote","program":"/w/pkg","request":"launch","stopOnEntry":false}`},
		{Node, func(c LaunchConfig) LaunchConfig { c.Program, c.Exe = "/w/app.mjs", "/usr/bin/node"; return c },
			`{"args":["a"],"cwd":"/w","env":{"K":"v"},"evalTimeoutMs":15000,"program":"/w/app.mjs","request":"launch","runtimeExecutable":"/usr/bin/node","stopOnEntry":false,"type":"node"}`},
	} {
		d, err := DriverFor(tc.kind)
		if err != nil {
			t.Fatal(err)
		}
		c := tc.cfg(cfg)
		b, _ := json.Marshal(d.LaunchArgs(c))
		if string(b) != tc.want {
			t.Errorf("%s launch:\n got %s\nwant %s", tc.kind, b, tc.want)
		}
	}
	if len(cfg.Env) != 1 { // the driver adds to a copy
		t.Errorf("LaunchArgs changed the caller's env: %v", cfg.Env)
	}
}

func TestDriverDetails(t *testing.T) {
	py, _ := DriverFor(Debugpy)
	dlv, _ := DriverFor(Dlv)
	if b, _ := json.Marshal(py.ExceptionFilters()); string(b) != `["uncaught"]` {
		t.Errorf("debugpy filters %s", b)
	}
	if b, _ := json.Marshal(dlv.ExceptionFilters()); string(b) != `[]` {
		t.Errorf("dlv filters %s", b)
	}
	if a, err := py.Attach("127.0.0.1", 5678); err != nil || !a.Dial || a.Args["type"] != "python" || a.Args["request"] != "attach" {
		t.Errorf("debugpy attach %v %v", a, err)
	}
	if _, err := dlv.Attach("127.0.0.1", 5678); err == nil {
		t.Error("dlv attach: want an error")
	}
	nd, _ := DriverFor(Node)
	if a, err := nd.Attach("::1", 9229); err != nil || a.Dial || a.Args["address"] != "::1" || a.Args["port"] != 9229 {
		t.Errorf("node attach %v %v", a, err)
	}
	if b, _ := json.Marshal(nd.ExceptionFilters()); string(b) != `["uncaught"]` {
		t.Errorf("node filters %s", b)
	}
	for code, want := range map[int]string{137: "SIGKILL", 143: "SIGTERM", 139: "SIGSEGV", 1: "", 130: ""} {
		if _, name := nd.ExitSignal(code); name != want {
			t.Errorf("node ExitSignal(%d) = %q, want %q", code, name, want)
		}
	}
	if py.Targets() != (Targets{Modules: true}) || dlv.Targets() != (Targets{Dirs: true}) {
		t.Errorf("targets %+v %+v", py.Targets(), dlv.Targets())
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "main.go")
	if err := os.WriteFile(file, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if py.Dir(file) != "" || dlv.Dir(file) != dir || dlv.Dir(dir) != dir || dlv.Dir("") != "" {
		t.Errorf("dirs: %q %q %q", py.Dir(file), dlv.Dir(file), dlv.Dir(dir))
	}
}

// A launch without an adapter takes the program's; a named one wins.
func TestKindFor(t *testing.T) {
	for _, tc := range []struct {
		name, program string
		want          Kind
	}{
		{"", "app.ts", Node}, {"", "srv.mts", Node}, {"", "a.js", Node}, {"", "main.go", Dlv},
		{"", "x.py", Debugpy}, {"", "", Debugpy}, {"", "README", Debugpy}, {"debugpy", "a.js", Debugpy}, {"js", "a.py", Node},
	} {
		if got, err := KindFor(tc.name, tc.program); err != nil || got != tc.want {
			t.Errorf("KindFor(%q, %q) = %q, %v; want %q", tc.name, tc.program, got, err, tc.want)
		}
	}
	if _, err := KindFor("gdb", "a.js"); err == nil {
		t.Error("KindFor(gdb) accepted")
	}
}

func TestLLDBKindAndRustDetection(t *testing.T) {
	for _, name := range []string{"lldb", "lldb-dap", "rust", "c", "cpp", "c++"} {
		if k, err := ParseKind(name); err != nil || k != LLDB {
			t.Errorf("ParseKind(%q) = %q, %v", name, k, err)
		}
	}
	if IsRust("/bin/sh") {
		t.Error("/bin/sh is not Rust")
	}
	if cmds := InitCommands("/bin/sh"); cmds != nil {
		t.Errorf("formatters for a non-Rust binary: %q", cmds)
	}
}
