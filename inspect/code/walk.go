// walk.go finds the files the index covers: .py, .go, .md, JavaScript and
// TypeScript under the root (skipping vendored, generated and hidden directories and files over
// the size limit), each file's language and kind (code, test, doc), and the
// Go module path.

package code

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/safefile"
)

// walk lists the indexable files: .py, .go, .md, .js/.mjs/.cjs and
// .ts/.mts/.cts (not .d.ts, not .min.js) under the root, skipping
// vendored, generated and hidden directories and files over the size limit.
func (ix *Index) walk(ctx context.Context) ([]candidate, map[string]bool, error) {
	skip := map[string]bool{"vendor": true, "node_modules": true, "__pycache__": true, "site-packages": true, "testdata": true}
	for _, s := range ix.opts.SkipDirs {
		skip[s] = true
	}
	var cands []candidate
	pkgDirs := map[string]bool{}
	indexDir := filepath.Clean(ix.opts.IndexDir)
	err := filepath.WalkDir(ix.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == ix.root {
				return err
			}
			return nil // unreadable subtree: skip
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		name := d.Name()
		if d.IsDir() {
			if p != ix.root && (skip[name] || strings.HasPrefix(name, ".") || p == indexDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil // symlinks and devices are never followed
		}
		lang := langOf(name)
		if lang == "" {
			return nil
		}
		rel, err := filepath.Rel(ix.root, p)
		if err != nil {
			return nil
		}
		rel = filepath.ToSlash(rel)
		if name == "__init__.py" {
			dir, _ := splitPath(rel)
			pkgDirs[dir] = true
		}
		info, err := d.Info()
		if err != nil || info.Size() > ix.opts.MaxFileBytes {
			return nil
		}
		if len(cands) >= ix.opts.MaxFiles {
			return filepath.SkipAll
		}
		cands = append(cands, candidate{rel: rel, abs: p, lang: lang, size: info.Size(), mod: info.ModTime().UnixNano()})
		return nil
	})
	if err != nil {
		return nil, nil, errorf(errcode.IndexError, nil, "walk %s: %v", ix.root, err)
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].rel < cands[j].rel })
	return cands, pkgDirs, nil
}

func langOf(name string) string {
	switch {
	case strings.HasSuffix(name, ".py"):
		return "python"
	case strings.HasSuffix(name, ".go"):
		return "go"
	case strings.HasSuffix(name, ".md"), strings.HasSuffix(name, ".markdown"):
		return "markdown"
	case strings.HasSuffix(name, ".js"), strings.HasSuffix(name, ".mjs"), strings.HasSuffix(name, ".cjs"):
		if strings.HasSuffix(name, ".min.js") {
			return "" // minified bundles: one line, no useful graph
		}
		return "javascript"
	case strings.HasSuffix(name, ".ts"), strings.HasSuffix(name, ".mts"), strings.HasSuffix(name, ".cts"):
		if strings.HasSuffix(name, ".d.ts") || strings.HasSuffix(name, ".d.mts") || strings.HasSuffix(name, ".d.cts") {
			return "" // declarations only
		}
		return "typescript"
	}
	return nativeLang(name)
}

// fileKind classifies a file for provenance: code, test, docs or config.
func fileKind(rel, lang string) string {
	dir, base := splitPath(rel)
	switch lang {
	case "go":
		if strings.HasSuffix(base, "_test.go") {
			return "test"
		}
		return "code"
	case "python":
		if strings.HasPrefix(base, "test_") || strings.HasSuffix(base, "_test.py") || base == "conftest.py" {
			return "test"
		}
		for _, part := range strings.Split(dir, "/") {
			if part == "tests" || part == "test" {
				return "test"
			}
		}
		return "code"
	case "javascript", "typescript":
		if isJSTestFile(base) {
			return "test"
		}
		for _, part := range strings.Split(dir, "/") {
			if part == "__tests__" || part == "test" || part == "tests" {
				return "test"
			}
		}
		return "code"
	case "markdown":
		return "docs"
	case "rust", "c", "cpp":
		if strings.HasPrefix(rel, "tests/") || strings.Contains(rel, "/tests/") || strings.HasPrefix(base, "test_") || strings.HasSuffix(strings.TrimSuffix(base, filepath.Ext(base)), "_test") {
			return "test"
		}
		return "code"
	}
	ext := strings.ToLower(filepath.Ext(base))
	switch ext {
	case ".md", ".markdown", ".rst", ".txt", ".adoc":
		return "docs"
	case ".toml", ".yaml", ".yml", ".json", ".ini", ".cfg", ".conf", ".mod", ".sum", ".lock", ".env", ".xml":
		return "config"
	}
	switch base {
	case "Makefile", "Dockerfile", "setup.py", "go.mod", "go.sum":
		return "config"
	}
	return "code"
}

func countLines(src []byte) int {
	if len(src) == 0 {
		return 0
	}
	n := bytes.Count(src, []byte{'\n'})
	if src[len(src)-1] != '\n' {
		n++
	}
	return n
}

func readGoModule(path string) string {
	f, err := safefile.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if rest, ok := strings.CutPrefix(line, "module"); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`)
		}
	}
	return ""
}

func joinImport(mod, dir string) string {
	if dir == "" {
		return mod
	}
	return mod + "/" + dir
}

// isJSTestFile: x.test.js, x.spec.ts, x.test.mjs… (Jest, Vitest, Mocha).
func isJSTestFile(base string) bool {
	stem := base[:len(base)-len(jsExt(base))]
	return strings.HasSuffix(stem, ".test") || strings.HasSuffix(stem, ".spec")
}

// jsModule is the module name of a JS/TS file: its path without the
// extension ("web/calc", "web/calc.test").
func jsModule(rel string) string { return rel[:len(rel)-len(jsExt(rel))] }
