// paths.go: how each operating system spells and compares file paths — a
// small Flavour (separators, volumes such as C: and \\server\share, case
// folding, file URLs) that every layer uses where it checks a path against
// the workspace or matches the editor's path with an adapter's. The flavour
// is a value, so the table tests of Windows and macOS paths run on Linux.

package platform

import (
	"net/url"
	"os"
	"path"
	"runtime"
	"strings"
)

// Flavour is one operating system's way with paths.
type Flavour struct {
	// Windows: `\` and `/` both separate names, and an absolute path
	// starts with a volume: a drive (C:\) or a share (\\server\share).
	Windows bool
	// FoldCase: names usually compare without case (NTFS, and macOS's
	// default APFS and HFS+ volumes).
	FoldCase bool
	// SameFile tells whether two existing paths name one file (symbolic
	// links, junctions and case followed); known is false when it cannot
	// tell (a path does not exist). nil: never asked.
	SameFile func(a, b string) (same, known bool)
}

// The flavours of the supported systems.
var (
	Unix    = Flavour{SameFile: statSame}
	MacOS   = Flavour{FoldCase: true, SameFile: statSame}
	Windows = Flavour{Windows: true, FoldCase: true, SameFile: statSame}
)

// Host is the flavour of the system dapscope runs on.
var Host = hostFlavour(runtime.GOOS)

func hostFlavour(goos string) Flavour {
	switch goos {
	case "windows":
		return Windows
	case "darwin", "ios":
		return MacOS
	}
	return Unix
}

// statSame compares two paths by what they name on disk.
func statSame(a, b string) (bool, bool) {
	sa, err := os.Stat(a)
	if err != nil {
		return false, false
	}
	sb, err := os.Stat(b)
	if err != nil {
		return false, false
	}
	return os.SameFile(sa, sb), true
}

// Separator is the flavour's own separator.
func (f Flavour) Separator() byte {
	if f.Windows {
		return '\\'
	}
	return '/'
}

func (f Flavour) isSep(c byte) bool { return c == '/' || (f.Windows && c == '\\') }

// split parts a path into its volume ("" on Unix; "C:" or `\\server\share`
// on Windows, long-path prefixes dropped) and the rest, `/`-separated.
func (f Flavour) split(p string) (vol, rest string) {
	if !f.Windows {
		return "", p
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if s, ok := strings.CutPrefix(p, "//?/"); ok { // \\?\C:\… and \\?\UNC\server\share\…
		if u, ok := cutFold(s, "UNC/"); ok {
			p = "//" + u
		} else {
			p = s
		}
	}
	if len(p) >= 2 && p[1] == ':' && isLetter(p[0]) {
		return p[:2], p[2:]
	}
	if len(p) > 2 && p[0] == '/' && p[1] == '/' && p[2] != '/' {
		// \\server\share: the volume is the first two names.
		n, i := 0, 2
		for ; i < len(p); i++ {
			if p[i] == '/' {
				if n++; n == 2 {
					break
				}
			}
		}
		return `\\` + strings.ReplaceAll(p[2:i], "/", `\`), p[i:]
	}
	return "", p
}

func isLetter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

func cutFold(s, prefix string) (string, bool) {
	if len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) {
		return s[len(prefix):], true
	}
	return s, false
}

// IsAbs reports whether p is absolute: from `/` on Unix; from a drive's
// root or a share on Windows (`\x` and `C:x` are relative there).
func (f Flavour) IsAbs(p string) bool {
	vol, rest := f.split(p)
	if !f.Windows {
		return strings.HasPrefix(p, "/")
	}
	if strings.HasPrefix(vol, `\\`) {
		return true
	}
	return vol != "" && strings.HasPrefix(rest, "/")
}

// Clean is the shortest spelling of p, in the flavour's separators.
func (f Flavour) Clean(p string) string {
	vol, rest := f.split(p)
	c := "."
	if rest != "" {
		c = path.Clean(rest)
	}
	if !f.Windows {
		return c
	}
	if strings.HasPrefix(vol, `\\`) && !strings.HasPrefix(c, "/") {
		c = "/" + strings.TrimPrefix(c, ".")
	}
	return vol + strings.ReplaceAll(c, "/", `\`)
}

// Join joins elem to dir (an absolute elem stands alone), cleaned.
func (f Flavour) Join(dir, elem string) string {
	if f.IsAbs(elem) || dir == "" {
		return f.Clean(elem)
	}
	return f.Clean(dir + string(f.Separator()) + elem)
}

// Names are p's names after its volume (cleaned; no "." entries).
func (f Flavour) Names(p string) []string {
	_, rest := f.split(f.Clean(p))
	var out []string
	for _, n := range strings.Split(rest, "/") {
		if n != "" && n != "." {
			out = append(out, n)
		}
	}
	return out
}

// HasDotDot reports whether p has a ".." name, in either separator.
func (f Flavour) HasDotDot(p string) bool {
	for _, n := range strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == '\\' }) {
		if n == ".." {
			return true
		}
	}
	return false
}

// Rel is p relative to root with `/` separators ("." for root itself);
// ok is false when p is not root or below it. Both must be absolute.
// Where the flavour folds case, a name that differs from root's only in
// case is inside it unless the file system says the two are different
// directories (a case-sensitive volume).
func (f Flavour) Rel(root, p string) (string, bool) {
	if !f.IsAbs(root) || !f.IsAbs(p) {
		return "", false
	}
	rv, _ := f.split(f.Clean(root))
	pv, _ := f.split(f.Clean(p))
	if rv != pv && !(f.Windows && strings.EqualFold(rv, pv)) {
		return "", false
	}
	rn, pn := f.Names(root), f.Names(p)
	if len(pn) < len(rn) {
		return "", false
	}
	folded := false
	for i, n := range rn {
		if pn[i] == n {
			continue
		}
		if !f.FoldCase || !strings.EqualFold(pn[i], n) {
			return "", false
		}
		folded = true
	}
	if folded && f.SameFile != nil {
		prefix := pv + string(f.Separator()) + strings.Join(pn[:len(rn)], string(f.Separator()))
		if same, known := f.SameFile(prefix, root); known && !same {
			return "", false
		}
	}
	if len(pn) == len(rn) {
		return ".", true
	}
	return strings.Join(pn[len(rn):], "/"), true
}

// Within reports whether p is root or below it.
func (f Flavour) Within(root, p string) bool {
	_, ok := f.Rel(root, p)
	return ok
}

// Same reports whether a and b name the same file: the same spelling
// once cleaned (case aside where the flavour folds it), or, asked of the
// file system, the same file through a link, a junction or a case
// difference.
func (f Flavour) Same(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	ca, cb := f.Clean(a), f.Clean(b)
	if ca == cb {
		return true
	}
	if f.SameFile != nil {
		if same, known := f.SameFile(ca, cb); known {
			return same
		}
	}
	return f.FoldCase && strings.EqualFold(ca, cb)
}

// FromURLPath turns the path of a file URL (or of a remote editor's URI:
// vscode-remote://host/c:/x) into a file path: /C:/x is C:\x on Windows.
func (f Flavour) FromURLPath(p string) string {
	if !f.Windows {
		return p
	}
	if len(p) >= 3 && p[0] == '/' && isLetter(p[1]) && p[2] == ':' {
		p = p[1:]
	}
	return f.Clean(p)
}

// FromURL is the file a file:// URL names; ok is false for any other URL
// (and, on Unix, for a URL naming another host).
func (f Flavour) FromURL(u string) (string, bool) {
	pu, err := url.Parse(u)
	if err != nil || pu.Scheme != "file" || pu.Path == "" {
		return "", false
	}
	if h := pu.Host; h != "" && !strings.EqualFold(h, "localhost") {
		if !f.Windows {
			return "", false
		}
		return f.Clean(`\\` + h + pu.Path), true // a share
	}
	return f.FromURLPath(pu.Path), true
}

// ToURL is the file:// URL of absolute path p, spelled as Node's
// url.pathToFileURL spells it (file:///C:/x on Windows, file://server/x
// for a share).
func (f Flavour) ToURL(p string) string {
	if !f.Windows {
		return (&url.URL{Scheme: "file", Path: p}).String()
	}
	vol, rest := f.split(f.Clean(p))
	if strings.HasPrefix(vol, `\\`) {
		server, share, _ := strings.Cut(vol[2:], `\`)
		return (&url.URL{Scheme: "file", Host: server, Path: "/" + share + rest}).String()
	}
	return (&url.URL{Scheme: "file", Path: "/" + vol + rest}).String()
}
