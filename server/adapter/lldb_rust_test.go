// lldb_rust_test.go: Rust binaries are told from C and C++ ones by their
// DWARF, and only they get the Rust toolchain's formatters.

package adapter

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/internal/nativetest"
)

func TestRustFormattersForRustOnly(t *testing.T) {
	rust := nativetest.Build(t, nativetest.Rust)
	cpp := nativetest.Build(t, nativetest.CPP)
	if !IsRust(rust) || IsRust(cpp) {
		t.Fatalf("IsRust(rust) = %v, IsRust(c++) = %v", IsRust(rust), IsRust(cpp))
	}
	cmds := InitCommands(rust)
	if len(cmds) != 2 || !strings.Contains(cmds[0], "lldb_lookup.py") || !strings.Contains(cmds[1], "lldb_commands") {
		t.Fatalf("init commands = %q", cmds)
	}
	if InitCommands(cpp) != nil {
		t.Fatal("a C++ binary got the Rust formatters")
	}
	args := lldbDriver{}.LaunchArgs(LaunchConfig{Program: cpp, Env: map[string]string{"B": "2", "A": "1"}})
	if env, _ := args["env"].([]string); len(env) != 2 || env[0] != "A=1" {
		t.Fatalf("env = %v", args["env"])
	}
}
