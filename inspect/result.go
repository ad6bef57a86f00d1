// This file holds Result, the typed answer to "what is this value?", shared by
// the Python probe (which emits exactly this JSON) and the DAP-variables
// fallback (Delve and other adapters).

package inspect

import (
	"github.com/dapscope/dapscope/errcode"
)

// Detected types (Result.DetectedType).
const (
	TypeDataFrame = "dataframe"
	TypeSeries    = "series"
	TypeIndex     = "index"
	TypeNDArray   = "ndarray"
	TypeTensor    = "tensor"
	TypeArrow     = "arrow_table"
	TypeDataArray = "dataarray" // xarray.DataArray: an ndarray with named dims and coords
	TypeDataset   = "dataset"   // xarray.Dataset: data variables sharing dims and coords
	TypeDict      = "dict"
	TypeList      = "list"
	TypeTuple     = "tuple"
	TypeSet       = "set"
	TypeFrozenSet = "frozenset"
	TypeDeque     = "deque"
	TypeStr       = "str"
	TypeBytes     = "bytes"
	TypeInt       = "int"
	TypeFloat     = "float"
	TypeComplex   = "complex"
	TypeBool      = "bool"
	TypeNone      = "none"
	TypeObject    = "object"
	TypeCallable  = "callable"
	TypeClass     = "class"
	TypeModule    = "module"
	TypeUnknown   = "unknown"
	// Go (DAP variables fallback).
	TypeSlice   = "slice"
	TypeArray   = "array"
	TypeMap     = "map"
	TypeStruct  = "struct"
	TypePointer = "pointer"
	// JavaScript (the JS probe; arrays of records are TypeDataFrame, typed
	// arrays TypeNDArray, Buffer/ArrayBuffer TypeBytes, null TypeNone).
	TypeUndefined = "undefined"
	TypeSymbol    = "symbol"
	TypeDate      = "date"
	TypeRegExp    = "regexp"
	TypeJSError   = "error"
	TypePromise   = "promise"
	TypeProxy     = "proxy"
	TypeWeakMap   = "weakmap"
	TypeWeakSet   = "weakset"
)

// Result is one inspected value. Every field is optional in JSON.
type Result struct {
	// Name is the inspected expression, normalized.
	Name string `json:"name,omitempty"`
	// Type is the value's full type name (e.g. pandas.core.frame.DataFrame, []int).
	Type string `json:"type,omitempty"`
	// DetectedType is the family the inspector recognized (Type* constants).
	DetectedType string      `json:"detected_type,omitempty"`
	Structure    *Structure  `json:"structure,omitempty"`
	Preview      *Preview    `json:"preview,omitempty"`
	Statistics   *Statistics `json:"statistics,omitempty"`
	// Summary is one human line, e.g. "DataFrame 1,000 rows × 10 columns, 78.1 KB".
	Summary  string   `json:"summary,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Error is set on per-expression failures in lists of results (CLI json).
	Error *errcode.Error `json:"error,omitempty"`
	// Partial is true when the budget ran out; TimedOut names what was skipped.
	Partial  bool     `json:"partial,omitempty"`
	TimedOut []string `json:"timed_out,omitempty"`
	// VariablesReference drills down with the ordinary DAP variables request.
	VariablesReference int    `json:"variables_reference,omitempty"`
	Hint               string `json:"hint,omitempty"`
	// Source says how the result was built: "probe" (Python) or "variables".
	Source string `json:"source,omitempty"`
	// Language is "javascript" for results of the JavaScript probe: the
	// tui and markdown formats then print its values JavaScript's way
	// (true/false); empty: Python's (True/False).
	Language string `json:"language,omitempty"`
	// ElapsedMs is the wall time of the inspection as seen by the sidecar.
	ElapsedMs float64 `json:"elapsed_ms,omitempty"`
	// ProbeMs is the time spent inside the probe (debugpy only).
	ProbeMs float64 `json:"probe_ms,omitempty"`
	// Budget says what was left out to fit a byte budget (budget.go).
	Budget *BudgetNote `json:"budget,omitempty"`

	// problems are the problem lines of the whole result, kept before a
	// budget dropped columns (problems.go); nil: computed when rendered.
	problems []string
}

// Structure describes the shape of a value (which fields are set depends on
// DetectedType).
type Structure struct {
	Shape  []int64 `json:"shape,omitempty"`
	Ndim   *int    `json:"ndim,omitempty"`
	Length *int64  `json:"length,omitempty"`
	Cap    *int64  `json:"cap,omitempty"`
	Size   *int64  `json:"size,omitempty"`
	Dtype  string  `json:"dtype,omitempty"`
	// Fields of a structured numpy dtype or of a Go struct type.
	Fields     []Field `json:"fields,omitempty"`
	Nbytes     *int64  `json:"nbytes,omitempty"`
	Itemsize   *int64  `json:"itemsize,omitempty"`
	CContig    *bool   `json:"c_contiguous,omitempty"`
	FContig    *bool   `json:"f_contiguous,omitempty"`
	Masked     *int64  `json:"masked_count,omitempty"`
	Device     string  `json:"device,omitempty"`
	RequiresGr *bool   `json:"requires_grad,omitempty"`
	// torch: grad_fn of a tensor autograd computed, whether a leaf's .grad
	// is set, a non-strided layout (sparse: nnz stored elements), a
	// quantized tensor's scheme, the storage behind a smaller view, and the
	// device's allocated/reserved memory (CUDA, MPS).
	GradFn       string        `json:"grad_fn,omitempty"`
	HasGrad      *bool         `json:"has_grad,omitempty"`
	Layout       string        `json:"layout,omitempty"`
	Nnz          *int64        `json:"nnz,omitempty"`
	QScheme      string        `json:"qscheme,omitempty"`
	StorageBytes *int64        `json:"storage_bytes,omitempty"`
	DeviceMemory *DeviceMemory `json:"device_memory,omitempty"`
	// Model is a torch.nn.Module's or a state_dict's summary (model.go).
	Model *Model `json:"model,omitempty"`

	// xarray: the DataArray's own name, dims in order with sizes, coords
	// (DataArray and Dataset), a Dataset's data variables, and attrs.
	ArrayName string      `json:"array_name,omitempty"`
	Dims      []Dim       `json:"dims,omitempty"`
	Coords    []Variable  `json:"coords,omitempty"`
	DataVars  []Variable  `json:"data_vars,omitempty"`
	Attrs     []Attribute `json:"attrs,omitempty"`
	// MemoryBytes is shallow unless MemoryDeep; MemoryEstimated flags a
	// shallow figure that underestimates (object columns).
	// Engine: what a data engine (polars, pyarrow, DuckDB, Spark, Dask)
	// says of its value (engine_model.go).
	Engine *EngineFacts `json:"engine,omitempty"`

	MemoryBytes     *int64 `json:"memory_bytes,omitempty"`
	MemoryDeep      bool   `json:"memory_deep,omitempty"`
	MemoryEstimated bool   `json:"memory_estimated,omitempty"`

	// Tables.
	Columns       []Column `json:"columns,omitempty"`
	ColumnCount   *int64   `json:"column_count,omitempty"`
	ColumnLevels  int      `json:"column_levels,omitempty"`
	ColumnNames   []any    `json:"column_level_names,omitempty"`
	Index         *Index   `json:"index,omitempty"`
	SeriesName    any      `json:"series_name,omitempty"`
	DuplicateCols bool     `json:"duplicate_columns,omitempty"`

	// Containers (type name → count over the sampled elements).
	KeyTypes     map[string]int64 `json:"key_types,omitempty"`
	ValueTypes   map[string]int64 `json:"value_types,omitempty"`
	ElementTypes map[string]int64 `json:"element_types,omitempty"`
	ElementType  string           `json:"element_type,omitempty"`
	KeyType      string           `json:"key_type,omitempty"`
	Depth        *int             `json:"depth,omitempty"`
	SelfRef      bool             `json:"self_referencing,omitempty"`
	LineCount    *int64           `json:"line_count,omitempty"`

	// Scalars.
	Value any `json:"value,omitempty"`

	// Objects, callables, classes, modules.
	Class          string      `json:"class,omitempty"`
	Module         string      `json:"module,omitempty"`
	Kind           string      `json:"kind,omitempty"`
	Attributes     []Attribute `json:"attributes,omitempty"`
	AttributeCount *int64      `json:"attribute_count,omitempty"`
	Properties     []string    `json:"properties,omitempty"`
	Signature      string      `json:"signature,omitempty"`
	Doc            string      `json:"doc,omitempty"`
	Bases          []string    `json:"bases,omitempty"`
	File           string      `json:"file,omitempty"`
	// Go pointers.
	Address string `json:"address,omitempty"`
	Nil     bool   `json:"nil,omitempty"`
	Target  string `json:"target_type,omitempty"`
}

// Field is one field of a structured dtype or struct type.
type Field struct {
	Name  string `json:"name"`
	Dtype string `json:"dtype,omitempty"`
}

// Dim is one named dimension of an xarray value.
type Dim struct {
	Name string `json:"name"`
	Size int64  `json:"size"`
}

// Variable is one xarray coordinate or data variable.
type Variable struct {
	Name  string   `json:"name"`
	Dims  []string `json:"dims,omitempty"`
	Dtype string   `json:"dtype,omitempty"`
	Size  *int64   `json:"size,omitempty"`
	// Index: a coordinate with an index (a dimension coordinate).
	Index bool `json:"index,omitempty"`
	// NullCount: NaN/NaT/None in a data variable.
	NullCount *int64 `json:"null_count,omitempty"`
	// Lazy: dask-backed or not loaded from its file; never computed or read.
	Lazy bool `json:"lazy,omitempty"`
	// Values: edge items of a 1-D coordinate ("…" marks the elision).
	Values any `json:"values,omitempty"`
}

// Column is one table column's cheap facts.
type Column struct {
	Name string `json:"name"`
	// Key is the original label when it is not a plain string (numbers,
	// MultiIndex tuples as lists).
	Key   any    `json:"key,omitempty"`
	Dtype string `json:"dtype,omitempty"`
	// NullCount is set whenever nulls were counted (0 included); the
	// non-null count is the row count minus it.
	NullCount *int64 `json:"null_count,omitempty"`
	Duplicate bool   `json:"duplicate,omitempty"`
}

// Index describes a pandas index.
type Index struct {
	Type     string `json:"type,omitempty"`
	Name     any    `json:"name,omitempty"`
	Names    []any  `json:"names,omitempty"`
	Dtype    string `json:"dtype,omitempty"`
	Length   *int64 `json:"length,omitempty"`
	Start    *int64 `json:"start,omitempty"`
	Stop     *int64 `json:"stop,omitempty"`
	Step     *int64 `json:"step,omitempty"`
	IsUnique *bool  `json:"is_unique,omitempty"`
	// Repeated labels of a non-unique index (MultiIndex: whole tuples).
	Repeated *int64 `json:"repeated,omitempty"`
	Levels   int    `json:"levels,omitempty"`
	First    any    `json:"first,omitempty"`
	Last     any    `json:"last,omitempty"`
}

// Attribute is one public attribute of an object (or field of a struct).
type Attribute struct {
	Name        string `json:"name"`
	Type        string `json:"type,omitempty"`
	Repr        string `json:"repr,omitempty"`
	IsTruncated bool   `json:"is_truncated,omitempty"`
}

// Statistics are computed facts; for a DataFrame they are per column in
// Columns (aligned with Structure.Columns by Name). The counters Zeros,
// NaNCount and InfCount are left out when zero. Floats are rounded to 4
// significant digits unless Options.Precision is "full".
type Statistics struct {
	Name  string `json:"name,omitempty"`
	Count *int64 `json:"count,omitempty"`
	// Numeric.
	Min  any `json:"min,omitempty"`
	Max  any `json:"max,omitempty"`
	Mean any `json:"mean,omitempty"`
	Std  any `json:"std,omitempty"`
	// DDOF is std's delta degrees of freedom: 1, as pandas' std() and
	// describe() (absent where there is no std).
	DDOF      *int64     `json:"ddof,omitempty"`
	Quantiles *Quantiles `json:"quantiles,omitempty"`
	Zeros     *int64     `json:"zeros,omitempty"`
	NaNCount  *int64     `json:"nan_count,omitempty"`
	InfCount  *int64     `json:"inf_count,omitempty"`
	Histogram *Histogram `json:"histogram,omitempty"`
	// Distinct values; DistinctEstimated when computed from a sample.
	Distinct          *int64       `json:"distinct,omitempty"`
	DistinctEstimated bool         `json:"distinct_estimated,omitempty"`
	TopValues         []ValueCount `json:"top_values,omitempty"`
	// Repeated: non-null values equal to an earlier one (count - nulls -
	// distinct), exact; RepeatedNotComputed says why it is absent
	// ("not computed: 1,000,000 rows > 100,000"). KeyLike: why a column
	// with repeated values looks like a key ("name", "unique index",
	// "distinct 97%").
	Repeated            *int64 `json:"repeated,omitempty"`
	RepeatedNotComputed string `json:"repeated_not_computed,omitempty"`
	KeyLike             string `json:"key_like,omitempty"`
	// Datetime.
	First any `json:"first,omitempty"`
	Last  any `json:"last,omitempty"`
	// Strings.
	StrLen *StrLen `json:"str_len,omitempty"`
	// Booleans.
	TrueCount *int64   `json:"true_count,omitempty"`
	TrueRate  *float64 `json:"true_rate,omitempty"`
	// Categoricals.
	Categories *int64 `json:"categories,omitempty"`
	Ordered    *bool  `json:"ordered,omitempty"`
	// Types seen in an object column (type name → count, sampled).
	ElementTypes map[string]int64 `json:"element_types,omitempty"`
	// Sampled: computed on SampleSize evenly spaced elements.
	Sampled    bool   `json:"sampled,omitempty"`
	SampleSize *int64 `json:"sample_size,omitempty"`
	// Rows and ColumnScope say what a table's statistics cover when they
	// follow a selection: "filtered, 102 of 4,051" rows, "chosen, 4 of 9"
	// columns (absent: all of them, as Structure describes).
	Rows        string `json:"rows,omitempty"`
	ColumnScope string `json:"column_scope,omitempty"`
	// Skipped says why statistics were not computed.
	Skipped string `json:"skipped,omitempty"`
	// Computed names what an engine ran for these statistics ("computed
	// by Spark: 2 jobs, 1.4 s").
	Computed      string `json:"computed,omitempty"`
	DuplicateRows *int64 `json:"duplicate_rows,omitempty"`
	// DuplicateRowsBy: "row hashes" past the exact bound;
	// DuplicateRowsNotComputed: why there is no count.
	DuplicateRowsBy          string       `json:"duplicate_rows_by,omitempty"`
	DuplicateRowsNotComputed string       `json:"duplicate_rows_not_computed,omitempty"`
	Columns                  []Statistics `json:"columns,omitempty"`
}

// Quantiles at 5, 25, 50, 75 and 95 percent.
type Quantiles struct {
	P5  any `json:"p5"`
	P25 any `json:"p25"`
	P50 any `json:"p50"`
	P75 any `json:"p75"`
	P95 any `json:"p95"`
}

// Histogram has len(Counts) equal bins: bin i covers
// [Start+i*Width, Start+(i+1)*Width) (the last one includes its end).
type Histogram struct {
	Start  float64 `json:"start"`
	Width  float64 `json:"width"`
	Counts []int64 `json:"counts"`
	// TailsExact: the extreme bins were counted over all values (the
	// sample missed the min or max); Tails: "not counted" when the budget
	// left them to the sample.
	TailsExact bool   `json:"tails_exact,omitempty"`
	Tails      string `json:"tails,omitempty"`
}

// Edges returns the len(Counts)+1 bin edges.
func (h *Histogram) Edges() []float64 {
	out := make([]float64, len(h.Counts)+1)
	for i := range out {
		out[i] = h.Start + float64(i)*h.Width
	}
	return out
}

// nonZero is k as an optional counter: nil when zero.
func nonZero(k int64) *int64 {
	if k == 0 {
		return nil
	}
	return &k
}

// ValueCount is one frequent value.
type ValueCount struct {
	Value any   `json:"value"`
	Count int64 `json:"count"`
}

// StrLen summarizes string lengths.
type StrLen struct {
	Min  int64   `json:"min"`
	Max  int64   `json:"max"`
	Mean float64 `json:"mean"`
}

// Preview is a bounded look at the data. Cells are JSON-safe: NaN/NaT are
// null, timestamps ISO 8601, nested values bounded, long strings cut with "…".
type Preview struct {
	Columns []string `json:"columns,omitempty"`
	Head    []Row    `json:"head,omitempty"`
	Tail    []Row    `json:"tail,omitempty"`
	// OmittedRows between head and tail.
	OmittedRows int64  `json:"omitted_rows,omitempty"`
	Items       []Item `json:"items,omitempty"`
	TailItems   []Item `json:"tail_items,omitempty"`
	// Values: array edge items as nested lists ("…" marks elided runs).
	Values any `json:"values,omitempty"`
	// Text: head…tail of a string or bytes.
	Text string `json:"text,omitempty"`
	// Repr: a bounded safe repr (depth 2, 50 items, 256 chars per string).
	Repr        string `json:"repr,omitempty"`
	IsTruncated bool   `json:"is_truncated,omitempty"`
}

// Row is one preview row of a table or Series.
type Row struct {
	Index  any   `json:"index"`
	Values []any `json:"values"`
}

// Item is one element of a container (Key for mappings, Index for sequences).
type Item struct {
	Key   any    `json:"key,omitempty"`
	Index *int64 `json:"index,omitempty"`
	Value any    `json:"value"`
	Type  string `json:"type,omitempty"`
}
