// kind.go: the adapter kinds the sidecar knows, the one parser of adapter
// names (with their aliases), the kind a program file implies, and the
// table of drivers. Adding an adapter is one new file with its Driver and
// one entry in drivers below.

package adapter

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/dapscope/dapscope/inspect"
)

// Kind names a debug adapter; its value is what the session API reports
// ("debugpy", "dlv").
type Kind string

// The known kinds.
const (
	Debugpy Kind = "debugpy"
	Dlv     Kind = "dlv"
	Node    Kind = "node"
	LLDB    Kind = "lldb" // lldb-dap: C, C++, Rust
)

// Default is the kind an empty adapter name means.
const Default = Debugpy

// drivers is every adapter, in the order names are listed in help texts.
var drivers = []Driver{
	debugpyDriver{},
	dlvDriver{},
	nodeDriver{},
	lldbDriver{},
}

// virtual are the kinds no launch starts (kernel.go): DriverFor knows
// them, Kinds and ParseKind do not.
var virtual = []Driver{kernelDriver{}, groupDriver{}}

// aliases are other accepted names of a kind.
var aliases = map[string]Kind{
	"python":   Debugpy,
	"go":       Dlv,
	"delve":    Dlv,
	"nodejs":   Node,
	"js":       Node,
	"lldb-dap": LLDB,
	"rust":     LLDB,
	"c":        LLDB,
	"cpp":      LLDB,
	"c++":      LLDB,
}

// exts maps a program file's extension to the kind that debugs it.
var exts = map[string]Kind{
	".py":  Debugpy,
	".go":  Dlv,
	".js":  Node,
	".mjs": Node,
	".cjs": Node,
	".ts":  Node, // TypeScript: node >= 22.6 strips its types (node/typescript.go)
	".mts": Node,
	".cts": Node,
}

// Kinds lists the known kinds.
func Kinds() []Kind {
	out := make([]Kind, len(drivers))
	for i, d := range drivers {
		out[i] = d.Kind()
	}
	return out
}

// KindList names the known kinds for a message or a help text, each
// formatted with verb: KindList("%s") is `debugpy, dlv or node`,
// KindList("%q") is `"debugpy", "dlv" or "node"`.
func KindList(verb string) string {
	kinds := Kinds()
	var b strings.Builder
	for i, k := range kinds {
		switch {
		case i == 0:
		case i == len(kinds)-1:
			b.WriteString(" or ")
		default:
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, verb, string(k))
	}
	return b.String()
}

// ParseKind reads an adapter name: a kind or one of its aliases ("python",
// "go", "delve"). The empty name means Default.
func ParseKind(name string) (Kind, error) {
	if name == "" {
		return Default, nil
	}
	if name == string(Kernel) {
		return "", errKernelNotLaunched
	}
	if name == string(Group) {
		return "", errGroupNotLaunched
	}
	if k, ok := aliases[name]; ok {
		return k, nil
	}
	for _, k := range Kinds() {
		if string(k) == name {
			return k, nil
		}
	}
	return "", fmt.Errorf("unknown adapter %q (%s)", name, KindList("%s"))
}

// KindForPath is the kind that debugs a program file, from its extension
// (.py: debugpy, .go: dlv, .js/.mjs/.cjs/.ts/.mts/.cts: node); ok is false for other
// files, for a directory path ending in "/", and for a name that is only an
// extension (".go").
func KindForPath(path string) (k Kind, ok bool) {
	ext := filepath.Ext(path)
	if ext == "" || ext == filepath.Base(path) {
		return "", false
	}
	k, ok = exts[ext]
	return k, ok
}

// KindFor is the kind a launch means: the named adapter, else the one the
// program's extension implies, else Default. An unknown name is an error.
func KindFor(name, program string) (Kind, error) {
	if name == "" {
		if k, ok := KindForPath(program); ok {
			return k, nil
		}
	}
	return ParseKind(name)
}

// LanguageOf is the debuggee language of an adapter name (a kind or an
// alias); "" for an unknown adapter.
func LanguageOf(name string) inspect.Language {
	k, err := ParseKind(name)
	if err != nil {
		return ""
	}
	d, err := DriverFor(k)
	if err != nil {
		return ""
	}
	return d.Language()
}

// DriverFor returns the driver of kind k.
func DriverFor(k Kind) (Driver, error) {
	for _, d := range append(drivers[:len(drivers):len(drivers)], virtual...) {
		if d.Kind() == k {
			return d, nil
		}
	}
	return nil, fmt.Errorf("unknown adapter %q (%s)", k, KindList("%s"))
}
