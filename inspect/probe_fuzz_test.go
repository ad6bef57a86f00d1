// probe_fuzz_test.go: the Go reader of the probe's answers. Whatever a
// debuggee sends back (it runs user code and could be anything), decoding
// returns a typed error or a result that the formatters render and the
// size cap bounds — never a panic.

package inspect

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func FuzzDecodeProbeResult(f *testing.F) {
	goldens, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.json"))
	for i, g := range goldens {
		if i%8 != 0 { // a sample of real answers as seeds
			continue
		}
		if b, err := os.ReadFile(g); err == nil && len(b) < 64<<10 {
			f.Add(string(b))
		}
	}
	for _, s := range []string{``, `{}`, `null`, `{"error":{"code":"X"}}`, `{"structure":{"shape":[-1,1e30]}}`, `{"preview":{"head":[[{"a":[]}]]}}`,
		`{"statistics":{"columns":[{"histogram":{"counts":[1,2],"edges":[]}}]}}`, `{"detected_type":"dataframe","structure":{"columns":[{}]}}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := DecodeProbeResult(s)
		if err != nil {
			var ie *errcode.Error
			if !errors.As(err, &ie) || ie.Code != errcode.Internal {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if r.Summary == "" {
			r.Summary = Summarize(r)
		}
		for _, format := range []string{"json", "tui", "markdown"} {
			if _, err := Format(r, format, 80); err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
		Cap(r, MaxResultBytes)
		if b, _ := json.Marshal(r); len(b) > MaxResultBytes+1024 {
			t.Fatalf("capped result is %d bytes", len(b))
		}
	})
}

// TestFormatEmptyTopValues: an all-null column has top_values [] — the
// tui and markdown tables indexed its first element (panic).
func TestFormatEmptyTopValues(t *testing.T) {
	r, err := DecodeProbeResult(`{"name":"df","detected_type":"dataframe","structure":{"shape":[2,1],"columns":[{"name":"empty","dtype":"object","null_count":2}]},"statistics":{"columns":[{"name":"empty","top_values":[]}]}}`)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"tui", "markdown"} {
		if _, err := Format(r, f, 80); err != nil {
			t.Fatal(err)
		}
	}
}
