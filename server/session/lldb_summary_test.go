// lldb_summary_test.go: the lldb probe's one-line summaries (the editor's
// hover, Watch and Variables views) of the Rust program's values, read from
// memory: the Vec<f64> as an ndarray with its NaN, min and max, a slice and
// an array likewise, a String as text, a HashMap and a BTreeSet by length;
// and which lldb-dap types the smart values ask about.

package session

import (
	"strings"
	"testing"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/nativetest"
)

func TestLLDBSummaries(t *testing.T) {
	s := stopAt(t, nativetest.Rust, "// break here")
	names := []string{"prices", "slice", "arr", "name", "counts", "seen", "some", "nothere"}
	got := nativeSummaries(t, s, names)
	for i, want := range []string{
		"Vec<f64> float64 (1,000,) · 1 NaN · min 100 max 149",
		"&[f64] float64 (10,) · 1 NaN · min 100 max 109",
		"[i32; 4] int32 (4,) · min 1 max 4",
		`"ACME corp"`,
		"",
		"",
		"",
		"",
	} {
		line := got[i].Line()
		if want != "" && !strings.Contains(line, want) {
			t.Errorf("%s: %q (%+v), want %q", names[i], line, got[i], want)
		}
	}
	if !got[0].Recognized() || got[0].Len == nil || *got[0].Len != 1000 {
		t.Errorf("prices: %+v", got[0])
	}
	if got[4].Kind != "container" || got[4].Len == nil || *got[4].Len != 2 {
		t.Errorf("counts: %+v", got[4])
	}
	if got[5].Kind != "container" || got[5].Len == nil || *got[5].Len != 40 {
		t.Errorf("seen: %+v", got[5])
	}
	if got[7].Error == "" {
		t.Errorf("nothere: %+v", got[7])
	}
	for typ, want := range map[string]bool{
		"alloc::vec::Vec<double, alloc::alloc::Global>": true, "&[double]": true, "int[4]": true,
		"std::vector<double, std::allocator<double> >": true, "alloc::string::String": false, "int": false,
	} {
		if inspect.SummaryType(inspect.Native, typ) != want {
			t.Errorf("SummaryType(%q) != %v", typ, want)
		}
	}
}

// nativeSummaries is the probe's one-line summaries of names in the
// session's top frame, one per name.
func nativeSummaries(t *testing.T, s *Session, names []string) []inspect.ValueSummary {
	t.Helper()
	paths := make([]inspect.Path, len(names))
	for i, n := range names {
		p, err := inspect.ParsePathFor(inspect.Native, n)
		if err != nil {
			t.Fatal(err)
		}
		paths[i] = p
	}
	got, err := inspect.Summaries(testCtx(t), s, 0, paths, 0)
	if err != nil || len(got) != len(names) {
		t.Fatalf("summaries: %+v, %v", got, err)
	}
	return got
}
