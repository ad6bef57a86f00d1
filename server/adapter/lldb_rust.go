// lldb_rust.go: Rust values that look like Rust in lldb. The Rust
// toolchain ships LLDB formatters (lib/rustlib/etc/lldb_lookup.py and
// lldb_commands under `rustc --print sysroot`); they are loaded with the
// launch's initCommands, as CodeLLDB does, but only for Rust programs:
// loaded into a C++ session they take over std::vector's formatter.
//
// A program is Rust when a compile unit of its DWARF says so
// (DW_AT_language DW_LANG_Rust): rustc writes it into every debug build,
// whatever the binary is called or wherever it lies. A binary without
// debug information is not recognised (nothing to format then anyway).

package adapter

import (
	"context"
	"debug/dwarf"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// dwLangRust is DW_LANG_Rust.
const dwLangRust = 0x1c

// IsRust reports whether the binary's debug information has a Rust
// compile unit.
func IsRust(binary string) bool {
	f, err := elf.Open(binary)
	if err != nil {
		return false
	}
	defer f.Close()
	d, err := f.DWARF()
	if err != nil {
		return false
	}
	r := d.Reader()
	for {
		e, err := r.Next()
		if err != nil || e == nil {
			return false
		}
		if e.Tag == dwarf.TagCompileUnit {
			if lang, ok := e.Val(dwarf.AttrLanguage).(int64); ok && lang == dwLangRust {
				return true
			}
		}
		r.SkipChildren()
	}
}

var (
	rustEtcOnce sync.Once
	rustEtc     string
)

// RustFormatters is the directory of the Rust toolchain's LLDB
// formatters ("" without rustc or without the files).
func RustFormatters() string {
	rustEtcOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, "rustc", "--print", "sysroot").Output()
		if err != nil {
			return
		}
		dir := filepath.Join(strings.TrimSpace(string(out)), "lib", "rustlib", "etc")
		if _, err := os.Stat(filepath.Join(dir, "lldb_lookup.py")); err == nil {
			rustEtc = dir
		}
	})
	return rustEtc
}

// InitCommands are the lldb commands a session of binary starts with: the
// Rust formatters for a Rust binary, nothing otherwise.
func InitCommands(binary string) []string {
	if binary == "" || !IsRust(binary) {
		return nil
	}
	dir := RustFormatters()
	if dir == "" {
		return nil
	}
	return []string{
		"command script import " + quoteLLDB(filepath.Join(dir, "lldb_lookup.py")),
		"command source -s 1 " + quoteLLDB(filepath.Join(dir, "lldb_commands")),
	}
}

// quoteLLDB quotes a path for lldb's command line.
func quoteLLDB(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
