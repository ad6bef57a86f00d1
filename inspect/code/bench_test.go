// bench_test.go measures the index on a real library: Debian's pandas
// sources (/usr/lib/python3/dist-packages/pandas, the .py files copied to a
// temp dir so the index and the edits never touch the system copy).
//
//	go test -run '^$' -bench . -benchmem -count 5 ./inspect/code/
//
// Cold index vs warm Open (the same Open with an up-to-date store), re-index
// after one file changed, and InspectEntity on an open Index vs the one-shot
// InspectEntity(repoRoot, q) (Open + inspect, what the CLI does).

package code

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

const pandasSrc = "/usr/lib/python3/dist-packages/pandas"

var (
	pandasOnce sync.Once
	pandasDir  string // <tmp>/pandas, a copy of the .py files
	pandasErr  error
)

func TestMain(m *testing.M) {
	code := m.Run()
	if pandasDir != "" {
		_ = os.RemoveAll(filepath.Dir(pandasDir))
	}
	os.Exit(code)
}

// pandasCopy copies pandas' Python sources once per test binary.
func pandasCopy(b testing.TB) string {
	b.Helper()
	if _, err := os.Stat(pandasSrc); err != nil {
		b.Skipf("benchmark needs Debian's python3-pandas sources at %s (apt-get install python3-pandas): %v", pandasSrc, err)
	}
	pandasOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "dapscope-bench-")
		if err != nil {
			pandasErr = err
			return
		}
		dst := filepath.Join(tmp, "pandas")
		pandasErr = filepath.WalkDir(pandasSrc, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() || !strings.HasSuffix(p, ".py") {
				return nil
			}
			rel, _ := filepath.Rel(pandasSrc, p)
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out := filepath.Join(dst, rel)
			if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
				return err
			}
			return os.WriteFile(out, src, 0o644)
		})
		pandasDir = dst
	})
	if pandasErr != nil {
		b.Fatal(pandasErr)
	}
	return pandasDir
}

func benchOptions(b *testing.B) Options {
	return Options{IndexDir: filepath.Join(b.TempDir(), "index")}
}

func BenchmarkColdIndex(b *testing.B) {
	dir := pandasCopy(b)
	var st Stats
	for i := 0; b.Loop(); i++ {
		opts := Options{IndexDir: filepath.Join(b.TempDir(), fmt.Sprint("cold", i))}
		ix, err := Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		st = ix.Stats()
	}
	b.ReportMetric(float64(st.Files), "files")
	b.ReportMetric(float64(st.Parsed), "parsed/op")
}

// BenchmarkWarmOpen is the same Open with an up-to-date store: nothing is
// parsed (the alternative to re-indexing on every call).
func BenchmarkWarmOpen(b *testing.B) {
	dir := pandasCopy(b)
	opts := benchOptions(b)
	if _, err := Open(dir, opts); err != nil {
		b.Fatal(err)
	}
	var st Stats
	for b.Loop() {
		ix, err := Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		st = ix.Stats()
	}
	if st.Parsed != 0 {
		b.Fatalf("warm Open parsed %d files", st.Parsed)
	}
	b.ReportMetric(float64(st.Parsed), "parsed/op")
	if fi, err := os.Stat(filepath.Join(opts.IndexDir, "code-index.gob")); err == nil {
		b.ReportMetric(float64(fi.Size())/1e6, "store-MB")
	}
}

// BenchmarkReindexOneFile edits one module (core/frame.py, the largest) and
// re-opens: one file parsed, the graph re-linked, the store rewritten.
func BenchmarkReindexOneFile(b *testing.B) {
	dir := pandasCopy(b)
	opts := benchOptions(b)
	if _, err := Open(dir, opts); err != nil {
		b.Fatal(err)
	}
	target := filepath.Join(dir, "core", "frame.py")
	orig, err := os.ReadFile(target)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = os.WriteFile(target, orig, 0o644) })
	var st Stats
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		edited := append(append([]byte{}, orig...), fmt.Sprintf("\n\ndef _bench_added_%d(x):\n    return DataFrame(x)\n", i)...)
		if err := os.WriteFile(target, edited, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		ix, err := Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		st = ix.Stats()
	}
	if st.Parsed != 1 {
		b.Fatalf("re-index parsed %d files, want 1", st.Parsed)
	}
	b.ReportMetric(float64(st.Parsed), "parsed/op")
}

var benchQueries = []Query{
	{Symbol: "pandas.core.frame.DataFrame.merge"},
	{Symbol: "pandas.core.reshape.merge.merge"},
	{Symbol: "Series.map"},
	{Path: "core/groupby/groupby.py", Line: 1500},
	{Path: "io/common.py"},
}

// BenchmarkWarmInspect is one InspectEntity on an open Index (what the MCP
// server and the debugger's stop responses do).
func BenchmarkWarmInspect(b *testing.B) {
	dir := pandasCopy(b)
	ix, err := Open(dir, benchOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	for _, q := range benchQueries { // warm the provenance cache
		if _, err := ix.InspectEntity(q); err != nil {
			b.Fatalf("%+v: %v", q, err)
		}
	}
	for i := 0; b.Loop(); i++ {
		if _, err := ix.InspectEntity(benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkOneShotInspect is Open (warm store) + InspectEntity, what a
// fresh CLI process pays.
func BenchmarkOneShotInspect(b *testing.B) {
	dir := pandasCopy(b)
	opts := benchOptions(b)
	if _, err := Open(dir, opts); err != nil {
		b.Fatal(err)
	}
	for i := 0; b.Loop(); i++ {
		ix, err := Open(dir, opts)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ix.InspectEntity(benchQueries[i%len(benchQueries)]); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEnclosing is the stop-response lookup.
func BenchmarkEnclosing(b *testing.B) {
	dir := pandasCopy(b)
	ix, err := Open(dir, benchOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	abs := filepath.Join(dir, "core", "frame.py")
	for i := 0; b.Loop(); i++ {
		if _, _, ok := ix.Enclosing(abs, 1000+i%8000); !ok {
			b.Fatal("no enclosing symbol")
		}
	}
}

// BenchmarkResultJSONSize reports the size of the compact JSON result
// (default options) for every non-test function and method of pandas:
// median, p90 and max bytes, and the share within 3 KB.
func BenchmarkResultJSONSize(b *testing.B) {
	dir := pandasCopy(b)
	ix, err := Open(dir, Options{IndexDir: filepath.Join(b.TempDir(), "index"), NoGit: true})
	if err != nil {
		b.Fatal(err)
	}
	g := ix.g
	var sizes []int
	for b.Loop() {
		sizes = sizes[:0]
		for id := range g.ents {
			e := &g.ents[id]
			if e.d == nil || e.isTest() || (e.kind != "function" && e.kind != "method") {
				continue
			}
			r, err := ix.InspectEntity(Query{Symbol: e.qual, Path: e.file.Path})
			if err != nil {
				b.Fatalf("%s: %v", e.qual, err)
			}
			buf, _ := json.Marshal(r)
			sizes = append(sizes, len(buf))
		}
	}
	sort.Ints(sizes)
	within := sort.SearchInts(sizes, 3073)
	b.ReportMetric(float64(len(sizes)), "functions")
	b.ReportMetric(float64(sizes[len(sizes)/2]), "median-bytes")
	b.ReportMetric(float64(sizes[len(sizes)*9/10]), "p90-bytes")
	b.ReportMetric(float64(sizes[len(sizes)-1]), "max-bytes")
	b.ReportMetric(100*float64(within)/float64(len(sizes)), "%within-3KB")
}

// BenchmarkRefreshNoChange is Index.Refresh with nothing changed (what a
// long-lived server does before answering): a walk and stats, no parse, no
// re-link.
func BenchmarkRefreshNoChange(b *testing.B) {
	dir := pandasCopy(b)
	ix, err := Open(dir, benchOptions(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := ix.Refresh(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
	if st := ix.Stats(); st.Parsed != 0 {
		b.Fatalf("refresh parsed %d", st.Parsed)
	}
}
