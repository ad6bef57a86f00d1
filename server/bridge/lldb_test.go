//go:build !windows

// lldb_test.go: MCP agents on a bridged lldb-dap session, the way VS Code
// reaches LLVM's lldb-dap through the LLVM extension (debug type
// `lldb-dap`, adapter kind lldb): the scripted VS Code drives Debian's
// real lldb-dap on a C program built here with gcc, and the agent's
// workflow (the same as for js-debug and debugpy) runs through the bridge,
// the lldb probe included (its `script` command through the session's
// evaluate in the repl context).

package bridge_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/nativetest"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/mcp"
	"github.com/dapscope/dapscope/server/session"
)

func TestMCPOnBridgedLLDBDapSession(t *testing.T) {
	nativetest.NeedLLDB(t)
	if _, err := exec.LookPath("gcc"); err != nil {
		t.Skip("gcc is not installed: the C test program cannot be built")
	}
	src, _ := filepath.Abs("testdata/agent.c")
	bin := filepath.Join(t.TempDir(), "agent")
	if out, err := exec.Command("gcc", "-g", "-O0", "-o", bin, src, "-lm").CombinedOutput(); err != nil {
		t.Fatalf("gcc: %v\n%s", err, out)
	}
	line := breakpointLine(t, src)
	r := newBridgeRig(t, filepath.Dir(src), adapter.LLDB, bridge.Event{VSCodeSessionID: "lldb-dap-1", DebugType: "lldb-dap", Name: "Debug agent", Adapter: "lldb"}, false)
	r.vsc.Notify("started", nil)
	r.vsc.Forward()
	d, _ := adapter.DriverFor(adapter.LLDB)
	r.vsc.DAP.LaunchTo(d.LaunchArgs(adapter.LaunchConfig{Program: bin, Cwd: filepath.Dir(bin)}), src, line)
	// The probe, run in lldb's Python through the editor's session: the
	// array of doubles read from memory, its NaN counted.
	agentOnBridgedSession(t, r, src, line, "prices", `"nan_count":1`, "rows 4")
}

// A Rust program on a bridged lldb-dap session, launched as the LLVM
// extension launches it: the user's configuration, with the Rust
// toolchain's formatters in its initCommands (the LLVM extension loads
// none by itself; dapscope's own sessions add them, bridged ones cannot),
// and the Vec<f64> read from memory by the probe.
func TestBridgedLLDBDapRustVec(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.Rust)
	src := nativetest.Source(t, nativetest.Rust)
	line := nativetest.Line(t, nativetest.Rust, "// break here")
	r := newBridgeRig(t, nativetest.Workspace(t), adapter.LLDB, bridge.Event{VSCodeSessionID: "lldb-dap-2", DebugType: "lldb-dap", Name: "Debug prices", Adapter: "lldb"}, false)
	r.vsc.Notify("started", nil)
	r.vsc.Forward()
	config := map[string]any{"type": "lldb-dap", "request": "launch", "name": "Debug prices", "program": bin, "cwd": filepath.Dir(bin)}
	cmds := adapter.InitCommands(bin)
	if len(cmds) == 0 {
		t.Skip("no Rust toolchain formatters (rustc --print sysroot)")
	}
	config["initCommands"] = cmds
	r.vsc.DAP.LaunchTo(config, src, line)
	var stop mcp.StopReport
	r.ok("debug_wait", map[string]any{"timeout": 60}, &stop)
	if stop.Status != session.StatusPaused || stop.Location == nil || stop.Location.Line != line {
		t.Fatalf("debug_wait = %+v", stop)
	}
	js := r.ok("debug_inspect_variable", map[string]any{"expression": "prices"}, nil)
	for _, want := range []string{`"count":1000`, `"nan_count":1`, `"max":149`} {
		if !strings.Contains(js, want) {
			t.Fatalf("debug_inspect_variable prices lacks %s: %.600s", want, js)
		}
	}
	t.Logf("debug_inspect_variable prices: %.300s", js)
	// The probe reached lldb through the editor's session: its command
	// (a backtick command) in an evaluate of the repl context.
	probe := false
	for _, c := range r.x.Calls() {
		a := c.Args()
		if e, _ := a["expression"].(string); c.Command == "evaluate" && strings.HasPrefix(e, "`") && a["context"] == "repl" {
			probe = true
		}
	}
	if !probe {
		t.Errorf("no probe command went through the bridge: %v", r.x.Commands())
	}
	r.vsc.DAP.Disconnect(true)
}

// The same program launched with no formatters at all, as the LLVM
// extension launches a configuration that names none: lldb shows the Vec,
// the slice and the String as their raw fields, and the probe reads those
// (rust_raw.py) — the Vec<f64>'s elements, the slice's, the String's text.
func TestBridgedLLDBDapRustWithoutFormatters(t *testing.T) {
	nativetest.NeedLLDB(t)
	bin := nativetest.Build(t, nativetest.Rust)
	src := nativetest.Source(t, nativetest.Rust)
	line := nativetest.Line(t, nativetest.Rust, "// break here")
	r := newBridgeRig(t, nativetest.Workspace(t), adapter.LLDB, bridge.Event{VSCodeSessionID: "lldb-dap-3", DebugType: "lldb-dap", Name: "Debug prices (raw)", Adapter: "lldb"}, false)
	r.vsc.Notify("started", nil)
	r.vsc.Forward()
	r.vsc.DAP.LaunchTo(map[string]any{"type": "lldb-dap", "request": "launch", "name": "Debug prices (raw)", "program": bin, "cwd": filepath.Dir(bin)}, src, line)
	var stop mcp.StopReport
	r.ok("debug_wait", map[string]any{"timeout": 60}, &stop)
	if stop.Status != session.StatusPaused || stop.Location == nil || stop.Location.Line != line {
		t.Fatalf("debug_wait = %+v", stop)
	}
	for _, tc := range []struct{ expr, want string }{
		{"prices", `"count":1000`},
		{"prices", `"nan_count":1`},
		{"prices", `"max":149`},
		{"slice", `"shape":[10]`},
		{"name", `"text":"ACME corp"`},
		{"tag", `"text":"equity"`},
	} {
		if js := r.ok("debug_inspect_variable", map[string]any{"expression": tc.expr}, nil); !strings.Contains(js, tc.want) {
			t.Errorf("debug_inspect_variable %s lacks %s: %.600s", tc.expr, tc.want, js)
		}
	}
	r.vsc.DAP.Disconnect(true)
}
