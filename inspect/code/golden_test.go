// golden_test.go: the text renderings of code_inspect, reviewed as golden
// files (gopls style). Each testdata/render/*.txtar holds a `query` (a JSON
// Query), the expected rendering `want`, and optionally the repository
// itself (every other file of the archive); without one the shared fixture
// testdata/code is indexed. `go test ./inspect/code -run Golden -update`
// rewrites the `want` sections from the real code (internal/golden).

package code

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/dapscope/dapscope/internal/golden"
)

// volatile are the parts of a rendering that change from run to run.
var volatile = regexp.MustCompile(`indexed_at=\S+`)

func TestGoldenRenderings(t *testing.T) {
	files, err := filepath.Glob("testdata/render/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden archives: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var q Query
			dir := ""
			for i := range ar.Files {
				f := &ar.Files[i]
				switch f.Name {
				case "query":
					if err := json.Unmarshal(f.Data, &q); err != nil {
						t.Fatalf("query: %v", err)
					}
				case "want": // compared below
				default:
					if dir == "" {
						dir = filepath.Join(t.TempDir(), "repo")
					}
					p := filepath.Join(dir, filepath.FromSlash(f.Name))
					if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(p, f.Data, 0o644); err != nil {
						t.Fatal(err)
					}
				}
			}
			if dir == "" {
				dir = copyFixture(t)
			}
			opts := Options{NoGit: true}
			if strings.HasPrefix(filepath.Base(file), "ts_") {
				opts.Node = node24(t) // TypeScript is stripped by Node
			}
			ix, err := Open(dir, opts)
			if err != nil {
				t.Fatal(err)
			}
			got := volatile.ReplaceAllString(inspect(t, ix, q).Text(), "indexed_at=TIME")
			golden.CheckTxtar(t, file, "want", []byte(got))
		})
	}
}
