// index.go holds Index and Open: walking the repository, deciding which files
// changed (size+mtime first, then the sha256 of the content), re-parsing only
// those (Go, Markdown and JavaScript in process, Python and the
// TypeScript type stripper in one helper batch each), and keeping
// the store under .dapscope/ up to date.

package code

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/internal/safefile"
	"github.com/dapscope/dapscope/platform"
)

// Index is an opened code index of one repository. It is safe for concurrent
// use; Refresh swaps in a new graph atomically.
type Index struct {
	root  string // absolute, symlinks resolved
	alias string // absolute as given (may be a symlink)
	opts  Options

	mu    sync.RWMutex
	files map[string]*fileRec
	g     *graph
	stats Stats

	provMu sync.Mutex
	prov   map[string]provCache
}

// Open loads the index of repoRoot from <repoRoot>/.dapscope/ (or
// opts.IndexDir), re-parses only the files whose content hash changed,
// saves the result and returns the ready Index.
func Open(repoRoot string, opts Options) (*Index, error) {
	return OpenContext(context.Background(), repoRoot, opts)
}

// OpenContext is Open with a context bounding the parse (the Python helper is
// killed when ctx ends).
func OpenContext(ctx context.Context, repoRoot string, opts Options) (*Index, error) {
	opts.defaults()
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		return nil, errorf(errcode.InvalidPath, nil, "repository root %q: %v", repoRoot, err)
	}
	st, err := os.Stat(root)
	if err != nil || !st.IsDir() {
		return nil, errorf(errcode.InvalidPath, nil, "repository root %q is not a directory", repoRoot)
	}
	alias := root
	if r, err := platform.RealPath(root); err == nil {
		root = r // walk the real directory even when given a link
	}
	if opts.IndexDir == "" {
		opts.IndexDir = filepath.Join(root, ".dapscope")
	}
	ix := &Index{root: root, alias: alias, opts: opts, prov: map[string]provCache{}}
	if err := ix.refresh(ctx); err != nil {
		return nil, err
	}
	return ix, nil
}

// Refresh re-scans the repository and re-parses files that changed since
// the index was opened or last refreshed.
func (ix *Index) Refresh(ctx context.Context) error { return ix.refresh(ctx) }

// Root is the absolute repository root.
func (ix *Index) Root() string { return ix.root }

// Stats reports what the last Open/Refresh did.
func (ix *Index) Stats() Stats {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	return ix.stats
}

// storeFormat changes whenever the stored records change meaning; the
// helper script's hash is added so a new Python parser re-indexes too.
const storeFormat = "code-index/6"

var storeVersion = func() string {
	sum := sha256.Sum256([]byte(pyHelper + tsHelper))
	return storeFormat + "/" + hex.EncodeToString(sum[:6])
}()

type store struct {
	Version string
	Files   map[string]*fileRec
}

func (ix *Index) storePath() string { return filepath.Join(ix.opts.IndexDir, "code-index.gob") }

type candidate struct {
	rel  string
	abs  string
	lang string
	size int64
	mod  int64
}

func (ix *Index) refresh(ctx context.Context) error {
	start := time.Now()
	var prev map[string]*fileRec
	ix.mu.RLock()
	prev = ix.files
	ix.mu.RUnlock()
	fromMemory := prev != nil
	if prev == nil {
		prev = ix.load()
	}
	// A long-lived Index may be older than the store (another process
	// re-indexed meanwhile): consult the store before parsing anything.
	var disk map[string]*fileRec
	diskLoaded := !fromMemory

	cands, pkgDirs, err := ix.walk(ctx)
	tWalk := time.Now()
	if err != nil {
		return err
	}
	rootPkg := ""
	if pkgDirs[""] {
		rootPkg = filepath.Base(ix.root)
	}
	goMod := readGoModule(filepath.Join(ix.root, "go.mod"))

	files := make(map[string]*fileRec, len(cands))
	var stats Stats
	dirty := false  // the store must be rewritten
	relink := false // the graph must be rebuilt
	var pyBatch []pyInput
	pyRecs := map[string]*fileRec{}
	var tsBatch []tsInput
	tsRecs := map[string]*fileRec{}
	now := time.Now().Unix()
	for _, c := range cands {
		if err := ctx.Err(); err != nil {
			return err
		}
		module, isPkg := "", false
		dir := ""
		switch c.lang {
		case "python":
			module, isPkg = pythonModule(c.rel, pkgDirs, rootPkg)
		case "go":
			d, _ := splitPath(c.rel)
			dir = d
		case "javascript", "typescript":
			module = jsModule(c.rel)
		case "rust", "c", "cpp":
			module = nativeModule(c.rel)
		}
		old := prev[c.rel]
		if old != nil && old.Hash != "" && old.Size == c.size && old.ModTime == c.mod && (c.lang != "python" || old.Module == module) {
			files[c.rel] = old
			stats.Reused++
			continue
		}
		src, err := safefile.Read(c.abs, ix.opts.MaxFileBytes) // what was read, not the walk's Stat
		if err != nil {
			slog.Debug("code index: skip unreadable file", "path", c.rel, "err", err)
			continue
		}
		sum := sha256.Sum256(src)
		hash := hex.EncodeToString(sum[:])
		if !diskLoaded && (old == nil || old.Hash != hash) {
			disk, diskLoaded = ix.load(), true
		}
		if d := disk[c.rel]; d != nil && (old == nil || old.Hash != hash) {
			old = d
		}
		if old != nil && old.Hash == hash && (c.lang != "python" || old.Module == module) {
			cp := *old
			cp.Size, cp.ModTime = c.size, c.mod
			files[c.rel] = &cp
			stats.Reused++
			dirty = true
			if p := prev[c.rel]; p == nil || p.Hash != hash {
				relink = true // taken from the store, newer than memory
			}
			continue
		}
		fr := &fileRec{
			Path: c.rel, Lang: c.lang, Kind: fileKind(c.rel, c.lang), Module: module, Dir: dir,
			Hash: hash, Size: c.size, ModTime: c.mod, IndexedAt: now,
			Lines: countLines(src),
		}
		if bytes.IndexByte(src, 0) >= 0 {
			fr.Err = "binary content"
			files[c.rel] = fr
			stats.Parsed++
			dirty, relink = true, true
			continue
		}
		switch c.lang {
		case "go":
			parseGo(fr, src)
			if goMod != "" {
				fr.Dir = joinImport(goMod, dir)
			}
		case "markdown":
			parseMarkdown(fr, src)
		case "python":
			pyBatch = append(pyBatch, pyInput{Path: c.rel, Module: module, Pkg: isPkg, Test: fr.Kind == "test", Src: string(src)})
			pyRecs[c.rel] = fr
		case "javascript":
			parseJSGuarded(fr, string(src)) // parse_guard.go
		case "rust", "c", "cpp":
			parseNative(fr, src)
		case "typescript":
			tsBatch = append(tsBatch, tsInput{Path: c.rel, Src: string(src)})
			tsRecs[c.rel] = fr
		}
		files[c.rel] = fr
		stats.Parsed++
		dirty, relink = true, true
	}
	tScan := time.Now()
	if len(pyBatch) > 0 {
		pctx, cancel := context.WithTimeout(ctx, ix.opts.ParseTimeout)
		outs, err := parsePythonBatch(pctx, ix.opts.Python, pyBatch)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			// Degrade: Python files stay out of the graph (their snippets
			// still work) and are parsed again on the next Open.
			slog.Warn("code index: Python parser unavailable", "err", err)
		}
		for p, fr := range pyRecs {
			if o := outs[p]; o != nil {
				o.toFileRec(fr)
			} else {
				fr.Err = "Python parser unavailable"
				fr.Hash = "" // never reused: parse again next time
			}
		}
	}
	if err := ix.parseTypeScript(ctx, tsRecs, tsBatch); err != nil {
		return err
	}
	for p := range prev {
		if _, ok := files[p]; !ok {
			stats.Removed++
			dirty, relink = true, true
		}
	}
	tParse := time.Now()
	stats.Files = len(files)
	if dirty || prev == nil {
		stats.Saved = ix.save(files)
	}
	ix.mu.Lock()
	g := ix.g
	ix.mu.Unlock()
	tSave := time.Now()
	if relink || !fromMemory || g == nil || g.goMod != goMod {
		g = buildGraph(files, goMod)
	}
	ix.mu.Lock()
	ix.files, ix.g, ix.stats = files, g, stats
	ix.mu.Unlock()
	slog.Debug("code index refreshed", "root", ix.root, "files", stats.Files, "parsed", stats.Parsed,
		"reused", stats.Reused, "removed", stats.Removed, "saved", stats.Saved, "relinked", relink || !fromMemory,
		"load_walk", tWalk.Sub(start), "hash_go_md", tScan.Sub(tWalk), "python", tParse.Sub(tScan),
		"save", tSave.Sub(tParse), "link", time.Since(tSave), "duration", time.Since(start))
	ix.provMu.Lock()
	ix.prov = map[string]provCache{}
	ix.provMu.Unlock()
	return nil
}

// load reads the stored index; a missing, corrupt or outdated store yields
// nil (a full re-index), never an error.
func (ix *Index) load() map[string]*fileRec {
	f, err := safefile.Open(ix.storePath())
	if err != nil {
		return nil
	}
	defer f.Close()
	var s store
	if err := decodeStore(bufio.NewReaderSize(f, 1<<16), &s); err != nil || s.Version != storeVersion {
		slog.Debug("code index: store unusable, re-indexing", "path", ix.storePath(), "err", err)
		return nil
	}
	return s.Files
}

// save writes the store atomically (temp file + rename) so concurrent Open
// calls never see a torn file. It reports whether the store was written; an
// unwritable index directory only costs the on-disk cache.
func (ix *Index) save(files map[string]*fileRec) bool {
	if err := os.MkdirAll(ix.opts.IndexDir, 0o755); err != nil {
		slog.Debug("code index: cannot create index dir", "dir", ix.opts.IndexDir, "err", err)
		return false
	}
	gi := filepath.Join(ix.opts.IndexDir, ".gitignore")
	if _, err := os.Stat(gi); errors.Is(err, fs.ErrNotExist) {
		_ = os.WriteFile(gi, []byte("# dapscope's generated index\n*\n"), 0o644)
	}
	tmp, err := os.CreateTemp(ix.opts.IndexDir, "code-index-*.tmp")
	if err != nil {
		slog.Debug("code index: cannot write store", "err", err)
		return false
	}
	bw := bufio.NewWriterSize(tmp, 1<<16)
	err = encodeStore(bw, &store{Version: storeVersion, Files: files})
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), ix.storePath())
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		slog.Debug("code index: cannot write store", "err", err)
		return false
	}
	return true
}
