// Package nativetest builds the native test programs of testdata/native
// (C with gcc, C++ with g++, Rust with cargo, one of them with the crate
// ndarray from crates.io) for tests that debug them
// with lldb-dap. A build is made once per test process and kind, into a
// temporary directory the process removes with Cleanup (call it from
// TestMain). A test skips only when the compiler (or lldb-dap) is
// missing, or a crate cannot be fetched, and says which.
package nativetest

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Kind is a test program.
type Kind string

// The programs.
const (
	C    Kind = "c"    // testdata/native/arrays.c
	CPP  Kind = "cpp"  // testdata/native/containers.cpp
	Rust Kind = "rust" // testdata/native/rust (cargo project "prices")
	// RustNdarray is testdata/native/rust-ndarray (cargo project "grid",
	// with the crate ndarray from crates.io, pinned by its Cargo.lock).
	RustNdarray Kind = "rust-ndarray"
)

var (
	mu     sync.Mutex
	dir    string
	builds = map[Kind]*build{}
)

type build struct {
	once sync.Once
	bin  string
	skip string
	err  string
}

// Root is the repository root.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// rel is the source file of a program kind, relative to testdata/native.
func rel(k Kind) string {
	switch k {
	case C, Optimized:
		return "arrays.c"
	case CPP:
		return "containers.cpp"
	case RustNdarray:
		return filepath.Join("rust-ndarray", "src", "main.rs")
	}
	return filepath.Join("rust", "src", "main.rs")
}

// Workspace is the directory the sources are copied to and built in.
func Workspace(t testing.TB) string {
	t.Helper()
	mu.Lock()
	defer mu.Unlock()
	if dir == "" {
		d, err := os.MkdirTemp("", "dapscope-native-")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(d, os.DirFS(filepath.Join(Root(), "testdata", "native"))); err != nil {
			_ = os.RemoveAll(d)
			t.Fatal(err)
		}
		dir = d
	}
	return dir
}

// Source is the source file of a program kind, in the Workspace.
func Source(t testing.TB, k Kind) string { return filepath.Join(Workspace(t), rel(k)) }

// Line is the 1-based line of the source of k holding marker.
func Line(t testing.TB, k Kind, marker string) int {
	t.Helper()
	f, err := os.Open(Source(t, k))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), marker) {
			return n
		}
	}
	t.Fatalf("%s has no line with %q", rel(k), marker)
	return 0
}

// NeedLLDB skips the test when lldb-dap is not installed.
func NeedLLDB(t testing.TB) {
	t.Helper()
	for _, p := range []string{"lldb-dap-19", "lldb-dap"} {
		if _, err := exec.LookPath(p); err == nil {
			return
		}
	}
	if _, err := os.Stat("/usr/lib/llvm-19/bin/lldb-dap"); err == nil {
		return
	}
	t.Skip("lldb-dap is not installed (Debian: apt-get install lldb-19)")
}

// Build returns the binary of k (Optimized: the C program at -O2, else a
// debug build), building it on first use.
func Build(t testing.TB, k Kind) string {
	t.Helper()
	out := Workspace(t)
	mu.Lock()
	b := builds[k]
	if b == nil {
		b = &build{}
		builds[k] = b
	}
	mu.Unlock()
	b.once.Do(func() { b.make(k, out) })
	if b.skip != "" {
		t.Skip(b.skip)
	}
	if b.err != "" {
		t.Fatal(b.err)
	}
	return b.bin
}

func (b *build) make(k Kind, out string) {
	var cmd *exec.Cmd
	switch k {
	case C, Optimized:
		b.bin = filepath.Join(out, string(k)+"-arrays")
		opt := "-O0"
		if k == Optimized {
			opt = "-O2"
		}
		cmd = exec.Command("gcc", "-g", opt, "-o", b.bin, filepath.Join(out, rel(C)), "-lm")
	case CPP:
		b.bin = filepath.Join(out, "containers")
		cmd = exec.Command("g++", "-g", "-O0", "-std=c++17", "-o", b.bin, filepath.Join(out, rel(CPP)))
	case Rust:
		target := filepath.Join(out, "cargo-target")
		b.bin = filepath.Join(target, "debug", "prices")
		cmd = exec.Command("cargo", "build", "--quiet", "--offline")
		cmd.Dir = filepath.Join(out, "rust")
		cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target)
	case RustNdarray:
		target := filepath.Join(out, "cargo-target")
		b.bin = filepath.Join(target, "debug", "grid")
		dir := filepath.Join(out, "rust-ndarray")
		if _, err := exec.LookPath("cargo"); err == nil {
			// The crate comes from crates.io once (cargo's cache keeps it),
			// checked against Cargo.lock's checksums.
			fetch := exec.Command("cargo", "fetch", "--locked", "--quiet")
			fetch.Dir = dir
			if o, err := fetch.CombinedOutput(); err != nil {
				b.skip = "the crate ndarray could not be fetched from crates.io (cargo fetch --locked): " + err.Error() + "\n" + string(o)
				return
			}
		}
		cmd = exec.Command("cargo", "build", "--quiet", "--offline", "--locked")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "CARGO_TARGET_DIR="+target)
	default:
		b.err = "nativetest: unknown program " + string(k)
		return
	}
	if _, err := exec.LookPath(cmd.Path); err != nil && !filepath.IsAbs(cmd.Path) {
		b.skip = cmd.Args[0] + " is not installed: the " + string(k) + " test program cannot be built"
		return
	}
	if o, err := cmd.CombinedOutput(); err != nil {
		if _, lerr := exec.LookPath(cmd.Args[0]); lerr != nil {
			b.skip = cmd.Args[0] + " is not installed: the " + string(k) + " test program cannot be built"
			return
		}
		b.err = "building " + string(k) + ": " + err.Error() + "\n" + string(o)
	}
}

// Optimized is the C program built with -O2 (for "optimized out").
const Optimized Kind = "c-O2"

// Cleanup removes the builds; call it from TestMain after the tests.
func Cleanup() {
	mu.Lock()
	defer mu.Unlock()
	if dir != "" {
		_ = os.RemoveAll(dir)
		dir = ""
		builds = map[Kind]*build{}
	}
}
