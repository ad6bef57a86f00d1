// index_test.go: the index on disk and over time — incremental refresh,
// concurrency, a corrupt store, skipped directories and limits, no Python
// parser, a hung parser, huge files, a symlinked root.

package code

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestIncrementalRefresh(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	cold := ix.Stats()
	if cold.Parsed < 10 || cold.Reused != 0 || !cold.Saved {
		t.Fatalf("cold stats = %+v", cold)
	}
	if _, err := os.Stat(filepath.Join(dir, ".dapscope", "code-index.gob")); err != nil {
		t.Fatalf("no store written: %v", err)
	}
	// Warm: nothing is parsed, even after touching a file without changing it.
	now := mustStat(t, filepath.Join(dir, "calc/core.py")).ModTime()
	_ = os.Chtimes(filepath.Join(dir, "calc/core.py"), now, now.Add(5e9))
	ix2, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix2.Stats(); st.Parsed != 0 || st.Reused != cold.Files {
		t.Fatalf("warm stats = %+v (cold %+v)", st, cold)
	}
	// Edit one file: exactly that file is parsed again, and the graph sees it.
	io := filepath.Join(dir, "calc/io.py")
	src, _ := os.ReadFile(io)
	src = append(src, []byte("\n\ndef load_twice(path):\n    \"\"\"Load path twice.\"\"\"\n    return load(path) + load(path)\n")...)
	if err := os.WriteFile(io, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "notes/orphan.py")); err != nil {
		t.Fatal(err)
	}
	ix3, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix3.Stats(); st.Parsed != 1 || st.Removed != 1 || st.Reused != cold.Files-2 {
		t.Fatalf("after editing one file: %+v (cold %+v)", st, cold)
	}
	r := inspect(t, ix3, Query{Symbol: "calc.io.load", MaxNeighbors: 10})
	if !hasSym(r.IncomingCalls, "calc.io.load_twice") {
		t.Errorf("new caller not linked: %v", symbols(r.IncomingCalls))
	}
	if _, err := ix3.InspectEntity(Query{Symbol: "notes.orphan.lonely"}); err == nil {
		t.Error("removed file still resolves")
	}
	// The long-lived index refreshes in place too.
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Parsed != 0 {
		t.Errorf("Refresh after another Open re-parsed: %+v", st)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.io.load_twice"}); r.Enrichment.Summary != "Load path twice." {
		t.Errorf("refreshed index: %+v", r.Enrichment)
	}
}

func mustStat(t *testing.T, p string) os.FileInfo {
	t.Helper()
	st, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestConcurrentOpen(t *testing.T) {
	dir := copyFixture(t)
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ix, err := Open(dir, Options{NoGit: true})
			if err == nil {
				var r *Result
				r, err = ix.InspectEntity(Query{Symbol: "calc.core.add"})
				if err == nil && r.GraphStatus != GraphConnected {
					err = errors.New("not connected: " + r.GraphStatus)
				}
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	// No temp files left behind, and the store is readable.
	ents, _ := os.ReadDir(filepath.Join(dir, ".dapscope"))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("leftover temp file %s", e.Name())
		}
	}
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil || ix.Stats().Parsed != 0 {
		t.Errorf("reopen after concurrent writers: %v %+v", err, ix.Stats())
	}
}

func TestConcurrentInspectAndRefresh(t *testing.T) {
	ix, _ := openFixture(t)
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 20 {
				if i == 0 {
					_ = ix.Refresh(t.Context())
					continue
				}
				if _, err := ix.InspectEntity(Query{Symbol: "mathx.Sum"}); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestCorruptStoreReindexes(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	n := ix.Stats().Files
	if err := os.WriteFile(filepath.Join(dir, ".dapscope", "code-index.gob"), []byte("not a gob stream"), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err = Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Parsed != n || !st.Saved {
		t.Errorf("after a corrupt store: %+v, want all %d parsed and saved", st, n)
	}
	// An unwritable index directory only costs the cache.
	ro := filepath.Join(t.TempDir(), "file-not-dir")
	_ = os.WriteFile(ro, nil, 0o644)
	ix, err = Open(dir, Options{NoGit: true, IndexDir: filepath.Join(ro, "sub")})
	if err != nil {
		t.Fatal(err)
	}
	if st := ix.Stats(); st.Saved || st.Parsed != n {
		t.Errorf("unwritable index dir: %+v", st)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("in-memory index: %s", r.GraphStatus)
	}
}

func TestSkippedDirectoriesAndLimits(t *testing.T) {
	dir := copyFixture(t)
	for _, p := range []string{"vendor/v.go", "node_modules/m/x.py", ".hidden/h.py", "calc/__pycache__/c.py"} {
		full := filepath.Join(dir, p)
		_ = os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte("def skipped_fn():\n    pass\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	big := filepath.Join(dir, "calc/huge.py")
	if err := os.WriteFile(big, []byte("def huge_fn():\n    pass\n"+strings.Repeat("# pad\n", 2000)), 0o644); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, Options{NoGit: true, MaxFileBytes: 4096})
	if err != nil {
		t.Fatal(err)
	}
	for _, sym := range []string{"skipped_fn", "huge_fn"} {
		if _, err := ix.InspectEntity(Query{Symbol: sym}); err == nil {
			t.Errorf("%s from a skipped file was indexed", sym)
		}
	}
	// The oversized file is still readable as a not-indexed file.
	if r := inspect(t, ix, Query{Path: "calc/huge.py"}); r.GraphStatus != GraphNotIndexed || !strings.Contains(r.Snippet, "def huge_fn") {
		t.Errorf("oversized file: %s %q", r.GraphStatus, r.Snippet[:min(40, len(r.Snippet))])
	}
}

func TestWithoutPythonParser(t *testing.T) {
	dir := copyFixture(t)
	ix, err := Open(dir, Options{NoGit: true, Python: filepath.Join(t.TempDir(), "no-python3")})
	if err != nil {
		t.Fatalf("Open without a Python parser: %v", err)
	}
	if r := inspect(t, ix, Query{Symbol: "mathx.Sum"}); r.GraphStatus != GraphConnected {
		t.Errorf("Go graph without Python: %s", r.GraphStatus)
	}
	r := inspect(t, ix, Query{Path: "calc/core.py", Line: 10})
	if r.GraphStatus != GraphNotIndexed || !strings.Contains(r.Snippet, "def add(") {
		t.Errorf("python file without parser: %s %q", r.GraphStatus, r.Snippet[:min(60, len(r.Snippet))])
	}
	// With the parser back, the Python files are parsed (not reused).
	ix, err = Open(dir, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("after the parser is back: %s", r.GraphStatus)
	}
}

func TestRefreshWithoutChangesKeepsGraph(t *testing.T) {
	ix, dir := openFixture(t)
	g := ix.g
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ix.g != g || ix.Stats().Parsed != 0 {
		t.Errorf("unchanged refresh rebuilt the graph or parsed: %+v", ix.Stats())
	}
	if err := os.WriteFile(filepath.Join(dir, "notes/orphan.py"), []byte("def lonely(x):\n    return incr(x)\n\nfrom calc.core import incr\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := ix.Refresh(t.Context()); err != nil {
		t.Fatal(err)
	}
	if ix.g == g || ix.Stats().Parsed != 1 {
		t.Errorf("changed refresh: %+v", ix.Stats())
	}
	if r := inspect(t, ix, Query{Symbol: "notes.orphan.lonely"}); !hasSym(r.OutgoingCalls, "calc.core.incr") {
		t.Errorf("edited function's calls: %v", r.OutgoingCalls)
	}
}

func TestHungParserTimesOut(t *testing.T) {
	dir := copyFixture(t)
	fake := filepath.Join(t.TempDir(), "python3")
	// A "python" that never answers (and a grandchild holding its stdout).
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nsleep 5 &\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	ix, err := Open(dir, Options{NoGit: true, Python: fake, ParseTimeout: 300e6})
	if err != nil {
		t.Fatalf("Open with a hung parser: %v", err)
	}
	if r := inspect(t, ix, Query{Path: "calc/core.py"}); r.GraphStatus != GraphNotIndexed {
		t.Errorf("graph_status %s", r.GraphStatus)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := OpenContext(ctx, copyFixture(t), Options{NoGit: true}); err == nil {
		t.Error("OpenContext with a cancelled context succeeded")
	}
}

func TestHugeNonIndexedFile(t *testing.T) {
	ix, dir := openFixture(t)
	line := strings.Repeat("x", 99) + "\n"
	if err := os.WriteFile(filepath.Join(dir, "data.csv"), []byte(strings.Repeat(line, (maxReadBytes/100)+1000)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := inspect(t, ix, Query{Path: "data.csv"})
	if r.GraphStatus != GraphNotIndexed || !strings.Contains(r.FileSummary, "only its head was read") || len(r.Snippet) > 200*1024 {
		t.Errorf("huge file: %s %q %d bytes", r.GraphStatus, r.FileSummary, len(r.Snippet))
	}
	var ce *errcode.Error
	if _, err := ix.InspectEntity(Query{Path: "data.csv", IncludeFullSource: true}); !errors.As(err, &ce) || ce.Code != errcode.InvalidArgument {
		t.Errorf("full source of a huge file: %v", err)
	}
}

func TestSymlinkedRoot(t *testing.T) {
	dir := copyFixture(t)
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	ix, err := Open(link, Options{NoGit: true})
	if err != nil {
		t.Fatal(err)
	}
	if r := inspect(t, ix, Query{Symbol: "calc.core.add"}); r.GraphStatus != GraphConnected {
		t.Errorf("through a symlinked root: %s", r.GraphStatus)
	}
	for _, p := range []string{filepath.Join(link, "calc/core.py"), filepath.Join(dir, "calc/core.py")} {
		if sym, _, ok := ix.Enclosing(p, 22); !ok || sym != "calc.core.add" {
			t.Errorf("Enclosing(%s) = %s %v", p, sym, ok)
		}
	}
}
