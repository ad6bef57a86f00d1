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
	"errors"
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
	rustEtcErr  string
)

// RustFormatters is the directory of the Rust toolchain's LLDB
// formatters ("" without rustc or without the files).
func RustFormatters() string {
	rustEtcOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		out, err := exec.CommandContext(ctx, rustc(), "--print", "sysroot").Output()
		if err != nil {
			rustEtcErr = err.Error()
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				rustEtcErr += ": " + strings.TrimSpace(string(ee.Stderr))
			}
			return
		}
		dir := filepath.Join(strings.TrimSpace(string(out)), "lib", "rustlib", "etc")
		if _, err := os.Stat(filepath.Join(dir, "lldb_lookup.py")); err == nil {
			rustEtc = dir
		}
	})
	return rustEtc
}

// rustc is the Rust compiler: on PATH, else rustup's in $CARGO_HOME/bin or
// ~/.cargo/bin (an editor started from a desktop often has no shell PATH).
func rustc() string {
	if p, err := exec.LookPath("rustc"); err == nil {
		return p
	}
	var dirs []string
	if d := os.Getenv("CARGO_HOME"); d != "" {
		dirs = append(dirs, filepath.Join(d, "bin"))
	}
	if h, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, filepath.Join(h, ".cargo", "bin"))
	}
	for _, d := range dirs {
		p := filepath.Join(d, "rustc")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "rustc"
}

// RustFormattersError says why RustFormatters found none ("" when it did,
// or when rustc answered with a sysroot that has no formatters).
func RustFormattersError() string {
	RustFormatters()
	return rustEtcErr
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
