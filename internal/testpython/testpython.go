// Package testpython says which Python the tests of this run use: the
// leg. `make test` runs the modern leg (the pinned .venv: debugpy 1.8,
// pandas 3, numpy 2, ipykernel 7, Jupyter Server 2, the data engines) and
// then Debian's leg (/usr/bin/python3: debugpy 1.6.3, pandas 1.5.3, torch,
// ipykernel 6.17, Jupyter Server 1.23), the oldest supported.
//
// The leg is $DAPSCOPE_PYTHON; with none, Debian's python3 (what a plain
// `go test ./...` has always used). The Makefile sets VIRTUAL_ENV beside
// it for the modern leg, so the product's own interpreter lookup
// (platform.Find: an activated venv first) finds the same Python.
package testpython

import (
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// Debian is the system's interpreter: the oldest supported leg, and the
// one whose library versions the probe's golden files hold byte for byte.
const Debian = "/usr/bin/python3"

// Path is the interpreter of this run's leg.
func Path() string {
	if p := os.Getenv("DAPSCOPE_PYTHON"); p != "" {
		return p
	}
	return Debian
}

// IsDebian reports whether this run is Debian's leg.
func IsDebian() bool { return Path() == Debian }

var (
	haveMu sync.Mutex
	have   = map[string]bool{}
)

// Has reports whether the leg's Python imports every module named (each
// answer is asked once per process).
func Has(modules ...string) bool {
	key := strings.Join(modules, ",")
	haveMu.Lock()
	defer haveMu.Unlock()
	if ok, seen := have[key]; seen {
		return ok
	}
	err := exec.Command(Path(), "-c", "import "+key).Run()
	have[key] = err == nil
	return err == nil
}

// Require skips t when the leg's Python lacks one of the modules, naming
// the leg: a module that only one leg installs (torch on Debian's; polars,
// duckdb, pyspark, ray in the .venv) is tested where it is installed, and
// `make test` runs both legs, so nothing is skipped in the whole run.
func Require(t testing.TB, modules ...string) {
	t.Helper()
	if !Has(modules...) {
		t.Skipf("%s has no %s (this module is tested in the other Python leg of make test)", Path(), strings.Join(modules, ", "))
	}
}

var (
	verMu sync.Mutex
	vers  = map[string]string{}
)

// Version is module.__version__ in the leg's Python ("" when it is not
// importable; asked once per process).
func Version(module string) string {
	verMu.Lock()
	defer verMu.Unlock()
	if v, seen := vers[module]; seen {
		return v
	}
	out, err := exec.Command(Path(), "-c", "import "+module+"; print("+module+".__version__)").Output()
	v := ""
	if err == nil {
		v = strings.TrimSpace(string(out))
	}
	vers[module] = v
	return v
}

// Below reports whether version v (dotted numbers; a suffix such as "rc1"
// is ignored) is lower than want.
func Below(v, want string) bool {
	num := func(s string) []int {
		var n []int
		for _, p := range strings.Split(s, ".") {
			x := 0
			for _, c := range p {
				if c < '0' || c > '9' {
					break
				}
				x = 10*x + int(c-'0')
			}
			n = append(n, x)
		}
		return n
	}
	a, b := num(v), num(want)
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y int
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return x < y
		}
	}
	return false
}
