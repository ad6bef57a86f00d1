// summaries.go: one-line summaries of many values in ONE probe call, for
// the editor's own views (hover, Watch, Variables) and agents' stop
// reports. The probe's summarize() runs no user code (no __repr__,
// __len__ or properties of user classes): builtins by value, known
// library types through their own accessors, other objects by class name
// and attribute count. The JavaScript probe has a summarize of its own, for
// named values only (JavaScript cannot list a frame's locals from inside),
// which also gives every other value a bounded text cut between items;
// other languages get ErrUnsupported.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

// ValueSummary is what the probe reports of one value.
type ValueSummary struct {
	Name string `json:"name"`
	// Fingerprint changes when the value's content changes, even where its
	// summary does not (SummaryOptions.Fingerprints).
	Fingerprint string `json:"fp,omitempty"`
	// FingerprintMissing says why a value asked for its fingerprint has
	// none (it cannot be read without running its code, or not in the
	// time left): what changed cannot compare it.
	FingerprintMissing string   `json:"fp_missing,omitempty"`
	Kind               string   `json:"kind,omitempty"` // scalar text container dataframe series index ndarray numpy_scalar tensor dataarray dataset engine_lazy polars_df polars_series arrow_table (the JavaScript probe's) object function class module
	Type               string   `json:"type,omitempty"`
	Value              string   `json:"value,omitempty"` // scalars and text: a bounded repr
	Len                *int64   `json:"len,omitempty"`
	Shape              []int64  `json:"shape,omitempty"`
	Dtype              string   `json:"dtype,omitempty"`
	Memory             *int64   `json:"memory,omitempty"`
	MemoryEstimated    bool     `json:"memory_estimated,omitempty"` // shallow: object data not counted
	Nulls              *int64   `json:"nulls,omitempty"`
	NullColumns        [][2]any `json:"null_columns,omitempty"` // [name, count], most first
	NullColumnCount    int      `json:"null_column_count,omitempty"`
	NaN                int64    `json:"nan,omitempty"`
	Inf                int64    `json:"inf,omitempty"`
	Min                any      `json:"min,omitempty"`
	Max                any      `json:"max,omitempty"`
	Device             string   `json:"device,omitempty"`
	RequiresGrad       bool     `json:"requires_grad,omitempty"`
	GradFn             string   `json:"grad_fn,omitempty"` // a tensor autograd computed
	Layout             string   `json:"layout,omitempty"`  // a tensor's non-strided layout
	// Models (torch.nn.Module) and state_dicts: parameter elements, of
	// them trainable, modules, train (true) or eval mode.
	Params    *int64   `json:"params,omitempty"`
	Trainable *int64   `json:"trainable,omitempty"`
	Layers    *int64   `json:"layers,omitempty"`
	Training  *bool    `json:"training,omitempty"`
	Dims      [][2]any `json:"dims,omitempty"` // xarray: [name, size] in order
	Attrs     *int64   `json:"attrs,omitempty"`
	FuncName  string   `json:"name_of,omitempty"` // functions, classes, modules
	Skipped   string   `json:"skipped,omitempty"` // e.g. "time budget"
	Error     string   `json:"error,omitempty"`
}

// Recognized reports a library value whose summary says more than the
// adapter's own repr (a table, an array, a tensor).
func (v ValueSummary) Recognized() bool {
	switch v.Kind {
	case "dataframe", "series", "index", "ndarray", "tensor", "dataarray", "dataset", "engine_lazy",
		"polars_df", "polars_series", "arrow_table", // the JavaScript probe's kinds for its libraries' tables
		"model", "state_dict":
		return true
	}
	return false
}

// LibraryType reports an adapter `type` of a library value (a table, an
// array, a tensor) whose summary says more than the adapter's repr, and
// whose children are the library's internals.
func LibraryType(t string) bool {
	switch t {
	case "DataFrame", "Series", "ndarray", "Tensor", "Parameter", "DataArray", "Dataset", "Table",
		"LazyFrame", "RecordBatch", "ChunkedArray", "DuckDBPyRelation",
		"Sequential", "ModuleList", "ModuleDict":
		return true
	}
	return strings.HasSuffix(t, "Index")
}

// SummaryType reports an adapter `type` whose value a summary can improve
// in the editor's views, in a session of the language (its probe's table).
func SummaryType(lang Language, t string) bool {
	if p := probeFor(lang); p != nil && p.summaryType != nil {
		return p.summaryType(t)
	}
	return false
}

// jsSummaryType: dapscope's Node adapter names a value by its class:
// arrays (of records), typed arrays, the library tables the JavaScript
// probe recognises, and Proxies (nodejs-polars DataFrames and Series are
// Proxies; the probe tells them apart without running a trap, and other
// Proxies keep their value).
func jsSummaryType(t string) bool {
	switch t {
	case "Array", "Table", "Vector", "ColumnTable", "Proxy":
		return true
	}
	return strings.HasSuffix(t, "Array") && t != "ArrayBuffer" && t != "SharedArrayBuffer"
}

// ErrUnsupported: the language has no summary probe.
var ErrUnsupported = &errcode.Error{Code: errcode.InvalidArgument, Message: "value summaries need a probe: Python, JavaScript or lldb sessions"}

// SupportsSummaries reports whether sessions of the language have the
// summary probe.
func SupportsSummaries(lang Language) bool {
	p := probeFor(lang)
	return p != nil && p.has("summarize")
}

// ListsLocals reports whether the language's probe can summarise every
// local of a frame by itself (Summaries with nil paths).
func ListsLocals(lang Language) bool {
	p := probeFor(lang)
	return p != nil && p.listsLocals
}

// Summaries summarises the values at paths (nil: every local of the frame;
// debugpy only) in frameID (0: the top frame) with one evaluate, bounded by
// timeout inside the debuggee; ctx bounds the wait.
func Summaries(ctx context.Context, t Target, frameID int, paths []Path, timeout time.Duration) ([]ValueSummary, error) {
	return SummariesWith(ctx, t, frameID, paths, SummaryOptions{Timeout: timeout})
}

// SummaryOptions tune SummariesWith.
type SummaryOptions struct {
	Timeout time.Duration // the probe's budget inside the debuggee
	// All: with nil paths in an IPython namespace (a Jupyter kernel's, or
	// a frame at a cell's top level), list IPython's own names (In, Out,
	// _i*, _, get_ipython, exit, …) and modules, functions and classes
	// too; by default only the user's variables are listed.
	All bool
	// Limit bounds how many names nil paths list (default 200).
	Limit int
	// Fingerprints: each summary carries its value's fingerprint (Python:
	// fingerprint.py), which changes when the content does.
	Fingerprints bool
	// FingerprintsInBudget: a fingerprint only where the time left allows
	// reading the value (the editor's views: a response held past its
	// budget is lost); without it every value is read (debug_diff: a value
	// left out would read unchanged).
	FingerprintsInBudget bool
}

// SummariesWith is Summaries with options.
func SummariesWith(ctx context.Context, t Target, frameID int, paths []Path, o SummaryOptions) ([]ValueSummary, error) {
	timeout := o.Timeout
	p := probeFor(t.Language())
	if p == nil || !p.has("summarize") {
		return nil, ErrUnsupported
	}
	if paths == nil && !p.listsLocals {
		return nil, &errcode.Error{Code: errcode.InvalidArgument, Message: string(p.lang) + " summaries need the values' names (a frame's locals cannot be listed from inside)"}
	}
	threadID, ok := t.Paused()
	if !ok {
		return nil, notPaused(t, "")
	}
	if frameID == 0 {
		var err error
		if frameID, err = topFrame(ctx, t, threadID); err != nil {
			return nil, err
		}
	}
	args := map[string]any{"timeout": timeout.Seconds()}
	if gen, ok := valuesGenOf(t); ok {
		args["gen"] = gen
	}
	if o.Fingerprints {
		args["fingerprints"] = true
		if o.FingerprintsInBudget {
			args["fingerprints"] = "budget"
		}
	}
	if paths != nil {
		args["names"] = paths
	}
	if o.All {
		args["all"] = true
	}
	if o.Limit > 0 {
		args["limit"] = o.Limit
	}
	b, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	roots := make([]string, len(paths))
	for i, path := range paths {
		roots[i], _ = path[0].Value.(string)
	}
	raw, err := p.call(ctx, t, frameID, "summarize", roots, string(b))
	if err != nil {
		if ne := resumedError(t); ne != nil {
			return nil, ne
		}
		return nil, err
	}
	var out struct {
		Items []ValueSummary `json:"items"`
		Error *errcode.Error `json:"error"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(raw)), &out); err != nil {
		return nil, &errcode.Error{Code: errcode.Internal, Message: fmt.Sprintf("undecodable summaries: %v: %q", err, clip.Bytes.Head(raw, 300))}
	}
	if out.Error != nil {
		return nil, out.Error
	}
	return out.Items, nil
}

// Line is the one-line summary, e.g.
// "DataFrame 500 × 3 · 10 nulls in price · 11.8 KB".
func (v ValueSummary) Line() string {
	if v.Error != "" || v.Skipped != "" {
		return ""
	}
	short := shortType(v.Type)
	parts := []string{}
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	switch v.Kind {
	case "scalar", "text", "numpy_scalar":
		return v.Value
	case "function", "class", "module":
		return strings.TrimSpace(v.Kind + " " + v.FuncName)
	case "container":
		switch {
		case v.Value != "" && v.Len != nil && strings.Contains(v.Value, "…"):
			return fmt.Sprintf("%s (%s)", v.Value, plural(*v.Len, "item"))
		case v.Value != "":
			return v.Value
		case v.Len != nil:
			return fmt.Sprintf("%s[%s]", short, commas(*v.Len))
		}
		return short
	case "engine_lazy": // a data engine's value nothing has run for: "LazyFrame 7 columns · lazy, not collected"
		return short + " " + v.Value
	case "dataframe", "polars_df", "arrow_table":
		add(short + " " + dims(v.Shape))
		add(nullText(v))
		if v.Memory != nil {
			add(MemoryText(*v.Memory, v.MemoryEstimated))
		}
	case "series", "index", "polars_series", "ndarray", "dataarray", "tensor":
		head := short
		if v.Dtype != "" {
			head += " " + v.Dtype
		}
		if len(v.Dims) > 0 {
			head += " " + v.dimsLine()
		} else {
			head += " " + dims(v.Shape)
		}
		if v.Device != "" && v.Device != "cpu" {
			head += " " + v.Device
		}
		add(head)
		if v.RequiresGrad {
			add("requires_grad")
		}
		if v.GradFn != "" {
			add("grad_fn " + v.GradFn)
		}
		add(v.Layout)
		add(nullText(v))
		if v.NaN > 0 && v.Nulls == nil { // a Series counts its NaN as nulls
			add(commas(v.NaN) + " NaN")
		}
		if v.Inf > 0 {
			add(commas(v.Inf) + " inf")
		}
		if v.Min != nil && v.Max != nil {
			mm := roundedNumbers(4, v.Min, v.Max) // one number format for the line
			add("min " + mm[0] + " max " + mm[1])
		}
		if v.Kind == "tensor" && v.Memory != nil {
			add(HumanBytes(*v.Memory))
		}
	case "model", "state_dict":
		return v.modelLine(short)
	case "dataset":
		add(short + " " + v.dimsLine())
		if v.Len != nil {
			add(plural(*v.Len, "data variable"))
		}
	case "object":
		if v.Value != "" { // JavaScript: the object's own data properties, bounded
			return v.Value
		}
		if v.Attrs != nil {
			return fmt.Sprintf("%s (%s)", short, plural(*v.Attrs, "attribute"))
		}
		return short
	default:
		return short
	}
	return strings.Join(parts, " · ")
}

// dims renders a shape: 500 × 3, or (1000,) for one dimension.
func dims(shape []int64) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return "(" + commas(shape[0]) + ",)"
	}
	s := make([]string, len(shape))
	for i, n := range shape {
		s[i] = commas(n)
	}
	return strings.Join(s, " × ")
}

// dimsLine renders xarray dims: (time: 3, city: 4).
func (v ValueSummary) dimsLine() string {
	d := make([]string, len(v.Dims))
	for i, x := range v.Dims {
		size := num(x[1])
		if f, ok := x[1].(float64); ok {
			size = commas(int64(f))
		}
		d[i] = fmt.Sprint(x[0]) + ": " + size
	}
	return "(" + strings.Join(d, ", ") + ")"
}

func nullText(v ValueSummary) string {
	if v.Nulls == nil || *v.Nulls == 0 {
		return ""
	}
	if len(v.NullColumns) == 0 {
		return plural(*v.Nulls, "null")
	}
	names := make([]string, 0, len(v.NullColumns))
	same := true
	for _, c := range v.NullColumns {
		names = append(names, fmt.Sprint(c[0]))
		same = same && fmt.Sprint(c[1]) == fmt.Sprint(v.NullColumns[0][1])
	}
	// Cells, never read as rows: "93 nulls in each of a, b", "279 null
	// cells in a, b, c".
	s := plural(*v.Nulls, "null cell") + " in "
	switch {
	case len(names) == 1 && v.NullColumnCount <= 1:
		s = plural(*v.Nulls, "null") + " in "
	case same && v.NullColumnCount == len(names):
		n, _ := numberOf(v.NullColumns[0][1])
		s = plural(int64(n), "null") + " in each of "
	}
	s += strings.Join(names, ", ")
	if more := v.NullColumnCount - len(names); more > 0 {
		s += fmt.Sprintf(" +%d more", more)
	}
	return s
}

// num renders a statistic with 4 significant digits.
func num(x any) string {
	switch n := x.(type) {
	case float64:
		if n == float64(int64(n)) && n < 1e15 && n > -1e15 {
			return strconv.FormatInt(int64(n), 10)
		}
		return strconv.FormatFloat(n, 'g', 4, 64)
	case string:
		return n
	}
	return fmt.Sprint(x)
}
