// facts_test.go: the probe's tables in another Python than Debian's
// (make test-probe PYTHON=…, or the prebuilt probe.test with
// DAPSCOPE_PYTHON): golden files hold Debian's library versions byte for
// byte, so there each case is held to the facts of its golden that do not
// depend on a library's version (shapes, counts, nulls, statistics, preview
// cells, devices), not to its bytes (dtype names such as pandas 3's str,
// memory sizes, type paths and warnings may differ).

package inspect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// stableFact matches the paths of the facts every version must agree on.
var stableFact = regexp.MustCompile(`^(detected_type|` +
	`structure\.(shape|ndim|size|length|value|device|requires_grad|columns\[\d+\]\.(name|null_count))|` +
	`statistics\.(columns\[\d+\]\.)?(count|nan_count|inf_count|zeros|min|max|mean|std|true_count|distinct|quantiles\.p\d+|histogram\.(start|width|counts.*))|` +
	`preview\.(head|tail)\[\d+\]\.values\[\d+\]|preview\.values.*)$`)

// checkFacts compares the stable facts of got with those of the golden
// file name (testdata/golden/<name>.json).
func checkFacts(t *testing.T, name string, got []byte) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "golden", name+".json"))
	if err != nil {
		t.Fatalf("golden %s: %v", name, err)
	}
	want, have := stableFacts(t, b), stableFacts(t, got)
	var diffs []string
	for k, w := range want {
		if g, ok := have[k]; !ok || !sameFact(g, w, false) {
			diffs = append(diffs, k+": "+jsonText(g)+", Debian's golden has "+jsonText(w))
		}
	}
	sort.Strings(diffs)
	for _, d := range diffs {
		t.Errorf("%s (%s): %s", name, python, d)
	}
}

func stableFacts(t *testing.T, b []byte) map[string]any {
	t.Helper()
	var v any
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	all := map[string]any{}
	flatten("", v, all)
	out := map[string]any{}
	for k, x := range all {
		if stableFact.MatchString(k) {
			out[k] = x
		}
	}
	return out
}

func jsonText(v any) string {
	if v == nil {
		return "nothing"
	}
	b, _ := json.Marshal(v)
	return string(b)
}
