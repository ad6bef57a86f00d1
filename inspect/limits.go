// limits.go: the probes' bounds, declared once for both languages. The
// sidecar writes them as a header in front of each probe's source (Python:
// _LIMITS = {...}; JavaScript: const LIMITS = {...};), so a bound changes
// here and nowhere else, and a changed bound is a new probe (its slot name
// is the hash of the joined source).

package inspect

import (
	"encoding/json"
	"reflect"
	"strings"
)

// Limits bound what a probe reads and returns. Unless a field says which
// language reads it, both probes do.
type Limits struct {
	MaxStr   int `json:"max_str"`   // characters of a string in reprs and cells
	MaxItems int `json:"max_items"` // items of a container in a bounded repr
	MaxDepth int `json:"max_depth"` // nesting depth of reprs and cells
	// Sample is how many finite numbers are sorted (evenly spaced) for
	// quantiles, the histogram and distinct counts; count, NaN/inf, min,
	// max, mean and std are always exact.
	Sample         int `json:"sample"`
	ObjSample      int `json:"obj_sample"`      // values of a non-numeric column read for top values, distinct and lengths
	TypeSample     int `json:"type_sample"`     // elements whose types are counted
	StatColumns    int `json:"stat_columns"`    // table columns that get statistics
	PreviewColumns int `json:"preview_columns"` // table columns shown in previews
	MaxOut         int `json:"max_out"`         // bytes of one answer (far below debugpy's 16 MiB message limit)
	MaxPage        int `json:"max_page"`        // rows of one browsed page
	// StatDigits: significant digits of statistics ("short" precision);
	// CellDigits of preview cells and browsed pages; TableCellDigits of
	// the preview cells of tables and arrays.
	StatDigits      int `json:"stat_digits"`
	CellDigits      int `json:"cell_digits"`
	TableCellDigits int `json:"table_cell_digits"`
	// Python: arrays over ExactLimit elements get statistics from an
	// evenly spaced ArraySample; summaries compute min/max up to
	// SumStatsLimit elements; browsing sorts big tables (PrefixMin rows and
	// more) by their first Prefix rows first. Both: summaries cut text at
	// SumStr characters, and browsing keeps cached orders up to
	// SelCacheBytes.
	ExactLimit    int `json:"exact_limit"`
	ArraySample   int `json:"array_sample"`
	SumStatsLimit int `json:"sum_stats_limit"`
	SumStr        int `json:"sum_str"`
	SelCacheBytes int `json:"sel_cache_bytes"`
	Prefix        int `json:"prefix"`
	PrefixMin     int `json:"prefix_min"`
	// FilterChars bounds a browse filter's text (the sidecar refuses a
	// longer one before sending it); Python: FilterNodes its syntax nodes.
	FilterChars int `json:"filter_chars"`
	FilterNodes int `json:"filter_nodes"`
	// JavaScript: rows looked at to recognise an array of records, and the
	// most distinct keys such an array may have.
	RowSample  int `json:"row_sample"`
	MaxColumns int `json:"max_columns"`
	// Python: repeated values and duplicate rows are exact up to DupRows
	// rows (duplicate rows: and DupColumns columns); beyond, by sorting or
	// row hashes while the time budget allows, else "not computed".
	DupRows    int `json:"dup_rows"`
	DupColumns int `json:"dup_columns"`
	// JavaScript: the heap watch (issue #37). One probe call may grow
	// V8's used heap by HeapSharePct per cent of the headroom it has when
	// it starts (the heap's limit less what is used), and by HeapBytes at
	// most; past that it stops with INSPECTION_MEMORY before the program
	// could die of an out-of-memory abort (docs/inspect.md, "Heap watch").
	HeapBytes    int `json:"heap_bytes"`
	HeapSharePct int `json:"heap_share_pct"`
}

// ProbeLimits are the limits every probe runs with.
var ProbeLimits = Limits{
	MaxStr: 256, MaxItems: 50, MaxDepth: 2,
	Sample: 20000, ObjSample: 100000, TypeSample: 1000,
	StatColumns: 100, PreviewColumns: 200,
	MaxOut:     4 * 1024 * 1024,
	MaxPage:    MaxPageRows,
	StatDigits: 4, CellDigits: 6, TableCellDigits: 4,
	ExactLimit: 10_000_000, ArraySample: 1_000_000,
	SumStatsLimit: 2_000_000, SumStr: 80,
	SelCacheBytes: 256 * 1024 * 1024, Prefix: 10_000, PrefixMin: 100_000,
	FilterChars: 2000, FilterNodes: 200,
	RowSample: 1000, MaxColumns: 1000,
	DupRows: 100_000, DupColumns: 50,
	HeapBytes: 512 << 20, HeapSharePct: 10,
}

// MaxPageRows bounds one browsed page.
const MaxPageRows = 1000

// json is the limits as a JSON object of numbers, in field order: valid
// Python and JavaScript alike.
func (l Limits) json() string {
	b, err := json.Marshal(l)
	if err != nil {
		panic(err) // a struct of ints always marshals
	}
	return string(b)
}

// names lists the limits' JSON names (for the test that every probe reads
// only declared limits).
func (l Limits) names() []string {
	t := reflect.TypeOf(l)
	out := make([]string, t.NumField())
	for i := range out {
		out[i], _, _ = strings.Cut(t.Field(i).Tag.Get("json"), ",")
	}
	return out
}
