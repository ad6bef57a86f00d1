// parse_python.go parses Python sources with the interpreter's own ast module:
// the embedded pyast_helper.py runs as ONE subprocess per (re)index batch,
// reads every file of the batch as JSON lines on stdin and answers one JSON
// line per file. This keeps the build cgo-free and uses the real grammar of
// the installed Python.

package code

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/dapscope/dapscope/platform"
)

//go:embed pyast_helper.py
var pyHelper string

// pyInput is one file handed to the helper.
type pyInput struct {
	Path   string `json:"p"`
	Module string `json:"m"`
	Pkg    bool   `json:"pkg"`
	Test   bool   `json:"test"`
	Src    string `json:"src"`
}

type pyOutput struct {
	Path    string      `json:"p"`
	Doc     string      `json:"doc"`
	Imports [][2]string `json:"imports"`
	Calls   []pyCall    `json:"calls"`
	Defs    []pyDef     `json:"defs"`
	Err     string      `json:"err"`
}

type pyDef struct {
	Name    string      `json:"n"`
	Kind    string      `json:"k"`
	Start   int         `json:"s"`
	End     int         `json:"e"`
	Parent  string      `json:"par"`
	Doc     string      `json:"doc"`
	DocSpan []int       `json:"ds"`
	Params  [][]*string `json:"params"`
	Ret     string      `json:"ret"`
	Rets    []string    `json:"rets"`
	Yield   bool        `json:"yield"`
	Raises  []string    `json:"raises"`
	Globals []string    `json:"globals"`
	Calls   []pyCall    `json:"calls"`
	Bases   []string    `json:"bases"`
	Attrs   [][2]string `json:"attrs"`
	Async   bool        `json:"async"`
}

// pyCall is [name, receiver type, line].
type pyCall [3]any

func (c pyCall) toCall() call {
	name, _ := c[0].(string)
	recv, _ := c[1].(string)
	line, _ := c[2].(float64)
	return call{Name: name, Recv: recv, Line: int(line)}
}

// pythonPath picks the interpreter: the option, else the system's Python 3
// (platform.Find: /usr/bin/python3 first on Linux, python.exe or the py
// launcher on Windows).
func pythonPath(opt string) (string, error) {
	if opt != "" {
		return opt, nil
	}
	p, err := platform.Find(platform.Python)
	if err != nil {
		return "", fmt.Errorf("no Python interpreter for parsing Python sources: %w", err)
	}
	return p, nil
}

// parsePythonBatch parses all inputs with one helper process and returns one
// output per input path. A file that fails to parse gets its error in Err; a
// failure of the helper itself is returned as an error.
func parsePythonBatch(ctx context.Context, python string, inputs []pyInput) (map[string]*pyOutput, error) {
	if len(inputs) == 0 {
		return map[string]*pyOutput{}, nil
	}
	py, err := pythonPath(python)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-I", "-S", "-c", pyHelper)
	cmd.Env = append(os.Environ(), "PYTHONIOENCODING=utf-8", "PYTHONDONTWRITEBYTECODE=1")
	out, run, err := runBatch(ctx, cancel, cmd, inputs, func(o *pyOutput) string { return o.Path })
	if err != nil {
		return nil, fmt.Errorf("start python parser: %w", err)
	}
	if run.readErr != nil {
		return nil, fmt.Errorf("python parser: %v (stderr: %s)", run.readErr, run.stderr)
	}
	if run.waitErr != nil {
		return nil, fmt.Errorf("python parser: %v (stderr: %s)", run.waitErr, run.stderr)
	}
	if run.writeErr != nil {
		return nil, fmt.Errorf("python parser input: %w", run.writeErr)
	}
	return out, nil
}

// toFileRec converts a helper answer into the stored record.
func (o *pyOutput) toFileRec(fr *fileRec) {
	fr.Doc = o.Doc
	fr.Err = o.Err
	fr.Imports = fr.Imports[:0]
	for _, im := range o.Imports {
		fr.Imports = append(fr.Imports, imp{Name: im[0], Target: im[1]})
	}
	fr.Calls = convCalls(o.Calls)
	fr.Defs = make([]def, 0, len(o.Defs))
	for _, d := range o.Defs {
		nd := def{
			Name: d.Name, Kind: d.Kind, Start: d.Start, End: d.End, Parent: d.Parent,
			Doc: d.Doc, Returns: d.Ret, RetExprs: d.Rets, Yields: d.Yield,
			Raises: d.Raises, Globals: d.Globals, Calls: convCalls(d.Calls), Bases: d.Bases,
		}
		for _, a := range d.Attrs {
			nd.Attrs = append(nd.Attrs, attr{Name: a[0], Type: a[1]})
		}
		if len(d.DocSpan) == 2 {
			nd.DocSpan = [2]int{d.DocSpan[0], d.DocSpan[1]}
		}
		for _, p := range d.Params {
			var pr param
			if len(p) > 0 && p[0] != nil {
				pr.Name = *p[0]
			}
			if len(p) > 1 && p[1] != nil {
				pr.Type = *p[1]
			}
			if len(p) > 2 && p[2] != nil {
				pr.Default, pr.HasDef = *p[2], true
			}
			nd.Params = append(nd.Params, pr)
		}
		fr.Defs = append(fr.Defs, nd)
	}
}

func convCalls(cs []pyCall) []call {
	if len(cs) == 0 {
		return nil
	}
	out := make([]call, 0, len(cs))
	for _, c := range cs {
		out = append(out, c.toCall())
	}
	return out
}

// pythonModule derives the dotted module of a repo-relative .py path: the
// chain of enclosing package directories (those holding __init__.py), the way
// Python's import system sees it. rootPkg is the repository root's own name
// when the root itself is a package (e.g. indexing site-packages/pandas).
func pythonModule(rel string, pkgDirs map[string]bool, rootPkg string) (module string, isPkg bool) {
	dir, base := splitPath(rel)
	name := strings.TrimSuffix(base, ".py")
	var parts []string
	if name == "__init__" {
		isPkg = true
	} else {
		parts = append(parts, name)
	}
	d := dir
	for d != "" && pkgDirs[d] {
		pd, last := splitPath(d)
		parts = append(parts, last)
		d = pd
	}
	if d == "" && pkgDirs[""] && rootPkg != "" {
		parts = append(parts, rootPkg)
	}
	for i, j := 0, len(parts)-1; i < j; i, j = i+1, j-1 {
		parts[i], parts[j] = parts[j], parts[i]
	}
	return strings.Join(parts, "."), isPkg
}

func splitPath(p string) (dir, base string) {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

// limitedWriter keeps at most n bytes (stderr of the helper, for errors).
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		_, _ = l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}
