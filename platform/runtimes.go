// runtimes.go: finding the programs dapscope runs — python (with
// debugpy), node and dlv — where each system's installers put them, and,
// when one is missing, an error that says what to install on that system.
// Where to look is a pure function of the system, its environment and the
// home directory, so the lists of every system are tested on Linux.

package platform

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Runtime is a program dapscope runs.
type Runtime string

// The runtimes.
const (
	Python Runtime = "python"
	Node   Runtime = "node"
	Dlv    Runtime = "dlv"
	// LLDBDap is LLVM's lldb-dap, the adapter for C, C++ and Rust.
	LLDBDap Runtime = "lldb-dap"
)

// lookup is where runtimes are looked for on one system.
type lookup struct {
	goos   string
	getenv func(string) string
	home   string
	glob   func(string) []string // matches of a pattern, newest name last
}

func hostLookup() lookup {
	home, _ := os.UserHomeDir()
	return lookup{goos: runtime.GOOS, getenv: os.Getenv, home: home, glob: func(p string) []string {
		m, _ := filepath.Glob(p)
		sort.Strings(m)
		return m
	}}
}

func (l lookup) flavour() Flavour { return hostFlavour(l.goos) }

func (l lookup) join(elem ...string) string {
	f, p := l.flavour(), ""
	for _, e := range elem {
		p = f.Join(p, e)
	}
	return p
}

// exe is name as an executable's file name on the system.
func (l lookup) exe(name string) string {
	if l.goos == "windows" {
		return name + ".exe"
	}
	return name
}

// VenvPython is the interpreter of the virtual environment at dir
// (bin/python; Scripts\python.exe on Windows).
func VenvPython(dir string) string { return hostLookup().venvPython(dir) }

func (l lookup) venvPython(dir string) string {
	if l.goos == "windows" {
		return l.join(dir, "Scripts", "python.exe")
	}
	return l.join(dir, "bin", "python")
}

// candidates lists where r is looked for, in order: absolute paths, and
// bare names looked up on PATH.
func (l lookup) candidates(r Runtime) []string {
	var c []string
	switch r {
	case Python:
		if ve := l.getenv("VIRTUAL_ENV"); ve != "" { // an activated venv
			c = append(c, l.venvPython(ve))
		}
		switch l.goos {
		case "windows":
			c = append(c, "python.exe", "py.exe")
			if la := l.getenv("LOCALAPPDATA"); la != "" { // python.org's per-user installer
				m := l.glob(l.join(la, `Programs\Python\Python3*\python.exe`))
				for i := len(m) - 1; i >= 0; i-- {
					c = append(c, m[i])
				}
			}
			if w := l.getenv("SystemRoot"); w != "" {
				c = append(c, l.join(w, "py.exe"))
			}
		case "darwin":
			c = append(c, "python3", "/opt/homebrew/bin/python3", "/usr/local/bin/python3",
				"/Library/Frameworks/Python.framework/Versions/Current/bin/python3", "/usr/bin/python3", "python")
		default:
			c = append(c, "/usr/bin/python3", "python3", "python")
		}
	case Node:
		c = append(c, l.exe("node"))
		switch l.goos {
		case "windows":
			if pf := l.getenv("ProgramFiles"); pf != "" {
				c = append(c, l.join(pf, `nodejs\node.exe`))
			}
		case "darwin": // VS Code started from the Dock has a short PATH
			c = append(c, "/opt/homebrew/bin/node", "/usr/local/bin/node")
		}
	case Dlv:
		c = append(c, l.exe("dlv"))
		dirs := []string{l.getenv("GOBIN"), l.gopathBin()}
		if l.home != "" {
			dirs = append(dirs, l.join(l.home, "go", "bin"))
		}
		for _, d := range dirs {
			if d != "" && l.flavour().IsAbs(d) {
				c = append(c, l.join(d, l.exe("dlv")))
			}
		}
	case LLDBDap:
		c = append(c, l.lldbDap()...)
	}
	seen := map[string]bool{}
	return slices.DeleteFunc(c, func(p string) bool {
		dup := seen[p]
		seen[p] = true
		return dup
	})
}

// lldbDap lists lldb-dap's places, the newest LLVM first: Debian's
// versioned names (lldb-dap-19 on PATH, /usr/lib/llvm-19/bin/lldb-dap),
// then a plain lldb-dap on PATH, then Homebrew's LLVM on macOS.
func (l lookup) lldbDap() []string {
	if l.goos == "windows" {
		return []string{"lldb-dap.exe"}
	}
	var found []string
	for _, dir := range []string{"/usr/bin", "/usr/local/bin"} {
		found = append(found, l.glob(dir+"/lldb-dap-*")...)
	}
	found = append(found, l.glob("/usr/lib/llvm-*/bin/lldb-dap")...)
	sort.SliceStable(found, func(i, j int) bool { return llvmVersion(found[i]) > llvmVersion(found[j]) })
	c := append(found, "lldb-dap")
	if l.goos == "darwin" {
		c = append(c, "/opt/homebrew/opt/llvm/bin/lldb-dap", "/usr/local/opt/llvm/bin/lldb-dap")
	}
	return c
}

// llvmVersion is the major version in an lldb-dap path (lldb-dap-19,
// llvm-19/bin/lldb-dap); 0 when there is none.
func llvmVersion(p string) int {
	v := 0
	for _, m := range llvmVersionRE.FindAllStringSubmatch(p, -1) {
		if n, err := strconv.Atoi(m[1]); err == nil && n > v {
			v = n
		}
	}
	return v
}

var llvmVersionRE = regexp.MustCompile(`(?:lldb-dap|llvm)-(\d+)`)

func (l lookup) gopathBin() string {
	gp := l.getenv("GOPATH")
	if gp == "" {
		return ""
	}
	sep := ":"
	if l.goos == "windows" {
		sep = ";"
	}
	first, _, _ := strings.Cut(gp, sep)
	return l.join(first, "bin")
}

// Find is the first of r's candidates that exists on this system (a
// bare name: found on PATH). Windows' python.exe that only opens the
// Microsoft Store (WindowsApps) is skipped. The error says what to
// install.
func Find(r Runtime) (string, error) {
	l := hostLookup()
	for _, c := range l.candidates(r) {
		if p, ok := usable(l, c); ok {
			return p, nil
		}
	}
	return "", Missing(r, "")
}

func usable(l lookup, c string) (string, bool) {
	if !l.flavour().IsAbs(c) {
		p, err := exec.LookPath(c)
		if err != nil || (l.goos == "windows" && strings.Contains(strings.ToLower(p), `\microsoft\windowsapps\`)) {
			return "", false
		}
		return p, true
	}
	st, err := os.Stat(c)
	return c, err == nil && !st.IsDir()
}

// MissingError is a runtime that could not be found or run.
type MissingError struct {
	Runtime Runtime
	Tried   string // what was given ("": the system's usual places)
	Hint    string // what to install on this system
}

func (e *MissingError) Error() string {
	what := string(e.Runtime) + " not found"
	if e.Tried != "" {
		what = fmt.Sprintf("%s not found at %q", e.Runtime, e.Tried)
	}
	return what + ": " + e.Hint
}

// Missing is the error for runtime r not found (at tried, when given).
func Missing(r Runtime, tried string) error {
	return &MissingError{Runtime: r, Tried: tried, Hint: InstallHint(runtime.GOOS, r)}
}

// IsMissing reports whether err is a MissingError.
func IsMissing(err error) bool {
	var m *MissingError
	return errors.As(err, &m)
}

// InstallHint says how to install r on goos.
func InstallHint(goos string, r Runtime) string {
	switch r {
	case Python:
		switch goos {
		case "windows":
			return "install Python 3 (winget install Python.Python.3.12, or python.org), then `py -m pip install debugpy`; or give --python C:\\path\\to\\python.exe (a venv: its Scripts\\python.exe)"
		case "darwin":
			return "install Python 3 (brew install python, or python.org's installer), then `python3 -m pip install debugpy`; or give --python /path/to/python3"
		}
		return "install Python 3 and debugpy (Debian/Ubuntu: sudo apt install python3-debugpy; elsewhere: python3 -m pip install debugpy); or give --python /path/to/python3"
	case Node:
		switch goos {
		case "windows":
			return "install Node.js (winget install OpenJS.NodeJS.LTS, or nodejs.org); or give --node C:\\path\\to\\node.exe"
		case "darwin":
			return "install Node.js (brew install node, or nodejs.org); or give --node /path/to/node"
		}
		return "install Node.js (Debian/Ubuntu: sudo apt install nodejs, or nodejs.org); or give --node /path/to/node"
	case Dlv:
		where := "$(go env GOPATH)/bin"
		if goos == "windows" {
			where = "%USERPROFILE%\\go\\bin"
		}
		return "install Go, then Delve: go install github.com/go-delve/delve/cmd/dlv@latest (it lands in " + where + "); or give --dlv PATH"
	case LLDBDap:
		switch goos {
		case "darwin":
			return "install LLVM's lldb-dap (brew install llvm, or Xcode's command line tools); or give --lldb-dap PATH"
		case "windows":
			return "install LLVM (winget install LLVM.LLVM), which has lldb-dap.exe; or give --lldb-dap PATH"
		}
		return "install lldb-dap (Debian/Ubuntu: sudo apt-get install lldb-19); or give --lldb-dap PATH"
	}
	return "install " + string(r)
}
