// link_native.go resolves the calls of Rust, C and C++ functions (see
// parse_native.go): the enclosing type's methods for self/this calls and
// bare names inside a method, then the same file's definitions, then the
// one definition of that name in the repository's native files (C and
// C++ functions are global; a Rust path's last components; x.f() the one
// method named f). A name with several definitions stays unresolved
// rather than guessed.

package code

import (
	"path"
	"strings"
)

// nativeExts maps file extensions to the native languages.
var nativeExts = map[string]string{
	".rs": "rust", ".c": "c", ".h": "c",
	".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp", ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp",
}

func nativeLang(name string) string { return nativeExts[strings.ToLower(path.Ext(name))] }

func isNativeLang(lang string) bool { return lang == "rust" || lang == "c" || lang == "cpp" }

// nativeModule is a native file's module: its path without the extension
// ("src/main" for src/main.rs), so symbols read "src/main.Quote.fmt".
func nativeModule(rel string) string { return strings.TrimSuffix(rel, path.Ext(rel)) }

func (g *linker) resolveNativeCall(from int32, c call) int32 {
	fr := g.ents[from].file
	owner := ""
	if d := g.ents[from].d; d != nil {
		owner = d.Parent
	}
	if owner != "" && (c.Recv == "@self" || c.Recv == "") {
		if id := g.fileLocal(fr, owner+"."+c.Name); id >= 0 {
			return id
		}
		if id := g.uniqueNative(owner+"."+c.Name, fr); id >= 0 {
			return id
		}
	}
	if c.Recv != "" {
		// x.f(): the type of x is not known; the one method f there is
		return g.uniqueNative("."+c.Name, fr)
	}
	if id := g.fileLocal(fr, c.Name); id >= 0 {
		return id
	}
	if id := g.uniqueNative(c.Name, fr); id >= 0 {
		return id
	}
	// a Rust path (module::f, crate::m::Type::new): its last one or two parts
	parts := strings.Split(c.Name, ".")
	for k := min(2, len(parts)-1); k >= 1; k-- {
		if id := g.uniqueNative(strings.Join(parts[len(parts)-k:], "."), fr); id >= 0 {
			return id
		}
	}
	return -1
}

// uniqueNative is the one function or method named local in the native
// files of fr's language family (Rust, or C and C++), or -1.
func (g *linker) uniqueNative(local string, fr *fileRec) int32 {
	found := int32(-1)
	for _, id := range g.nativeNames[local] {
		e := &g.ents[id]
		if (e.file.Lang == "rust") != (fr.Lang == "rust") || e.d == nil || (e.kind != "function" && e.kind != "method") {
			continue
		}
		if found >= 0 {
			return -1
		}
		found = id
	}
	return found
}
