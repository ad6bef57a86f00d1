// summaries_test.go: one-line summaries of many values in one probe call
// against real debugpy, running no user code (a __len__ that sleeps, a
// __repr__ that raises), and the line format of each kind.

package inspect_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
)

func TestDebugpySummaries(t *testing.T) {
	s := debugpySession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	names := []string{"slow", "bad", "df", "nan_inf", "series", "arr", "nan_arr", "arr0d", "scalar_np", "empty_df",
		"number", "short_text", "items", "data['train']", "obj.items", "point", "func", "klass", "mod", "flag", "nothing", "missing_name"}
	paths := make([]inspect.Path, len(names))
	for i, n := range names {
		p, err := inspect.ParsePath(n)
		if err != nil {
			t.Fatal(err)
		}
		paths[i] = p
	}
	// SlowLen.__len__ sleeps 1.5 s, longer than the whole 1 s budget: if
	// the probe called it, every value after `slow` would be skipped.
	got, err := inspect.Summaries(ctx, s, 0, paths, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(names) {
		t.Fatalf("%d summaries for %d names", len(got), len(names))
	}
	want := map[string]string{
		"slow":          "SlowLen (1 attribute)",
		"bad":           "BadRepr (1 attribute)",
		"df":            "DataFrame 1,000 × 10 · 4 null cells in c1, c2 · ",
		"nan_inf":       "DataFrame 6 × 1 · 1 null in v · ",
		"series":        "Series int64 (50,) · min ",
		"arr":           "ndarray float64 3 × 4 · min 0 max 11",
		"nan_arr":       "ndarray float64 (5,) · 1 NaN · 2 inf · min 0 max 1",
		"arr0d":         "ndarray float64 () · min 3.5 max 3.5",
		"scalar_np":     "2.5",
		"empty_df":      "DataFrame 0 × 0",
		"number":        "12345678901234567890123",
		"short_text":    "'héllo'",
		"items":         "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, …] (100 items)",
		"data['train']": "[1, 2, 3]",
		"obj.items":     "[<Point>, <Point>]", // elements' own __repr__ never runs
		"point":         "Point (3 attributes)",
		"func":          "function greet",
		"klass":         "class Plain",
		"mod":           "module sys",
		"flag":          "True",
		"nothing":       "None",
	}
	for i, v := range got {
		if v.Name != names[i] {
			t.Errorf("item %d is %q, want %q", i, v.Name, names[i])
		}
		if v.Skipped != "" {
			t.Errorf("%s skipped (%s): the probe must not run user code such as SlowLen.__len__", v.Name, v.Skipped)
		}
		if names[i] == "missing_name" {
			if v.Error != "VARIABLE_NOT_FOUND" || v.Line() != "" {
				t.Errorf("missing_name: want VARIABLE_NOT_FOUND and no line, got %+v", v)
			}
			continue
		}
		if v.Error != "" {
			t.Errorf("%s: error %s", v.Name, v.Error)
		}
		if w := want[v.Name]; !strings.HasPrefix(v.Line(), w) {
			t.Errorf("%s: line %q, want prefix %q", v.Name, v.Line(), w)
		}
	}
	for _, i := range []int{2, 3, 4, 5} { // df, nan_inf, series, arr
		if !got[i].Recognized() {
			t.Errorf("%s should be a recognised library value", got[i].Name)
		}
	}
	if got[12].Recognized() || got[15].Recognized() {
		t.Errorf("builtins and plain objects are not library values")
	}

	// Every local of the frame (no names): all of them, none skipped.
	all, err := inspect.Summaries(ctx, s, 0, nil, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]string{}
	for _, v := range all {
		seen[v.Name] = v.Line()
	}
	if len(all) < 50 || seen["big_df"] == "" || !strings.HasPrefix(seen["huge"], "ndarray float32 (12,000,000,)") {
		t.Fatalf("every local: %d items, big_df=%q huge=%q", len(all), seen["big_df"], seen["huge"])
	}
	// Only build()'s own locals: pydevd evaluates in a mapping that merges
	// the module's globals in (and a 'globals' function of its own); a
	// local alias of a global (func = greet) is still a local.
	for _, global := range []string{"greet", "build", "main", "np", "pd", "globals"} {
		if _, ok := seen[global]; ok {
			t.Errorf("every local lists the global %s", global)
		}
	}
	if seen["func"] != "function greet" {
		t.Errorf("the local alias func = %q", seen["func"])
	}
}

func TestSummaryLines(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	cases := []struct {
		v    inspect.ValueSummary
		want string
	}{
		{inspect.ValueSummary{Kind: "dataframe", Type: "pandas.core.frame.DataFrame", Shape: []int64{500, 3}, Nulls: n(10),
			NullColumns: [][2]any{{"price", 10.0}}, NullColumnCount: 1, Memory: n(12083)}, "DataFrame 500 × 3 · 10 nulls in price · 11.8 KB"},
		{inspect.ValueSummary{Kind: "ndarray", Type: "numpy.ndarray", Dtype: "float64", Shape: []int64{1000}, NaN: 20, Min: 7.8123, Max: 31.66},
			"ndarray float64 (1,000,) · 20 NaN · min 7.812 max 31.66"},
		{inspect.ValueSummary{Kind: "tensor", Type: "torch.Tensor", Dtype: "float32", Shape: []int64{2, 3}, Device: "cuda:0", RequiresGrad: true},
			"Tensor float32 2 × 3 cuda:0 · requires_grad"},
		{inspect.ValueSummary{Kind: "dataframe", Type: "pandas.DataFrame", Shape: []int64{272, 8}, Nulls: n(66),
			NullColumns: [][2]any{{"region", 60.0}, {"x", 4.0}, {"y", 2.0}}, NullColumnCount: 5}, "DataFrame 272 × 8 · 66 null cells in region, x, y +2 more"},
		{inspect.ValueSummary{Kind: "dataframe", Type: "pandas.DataFrame", Shape: []int64{4051, 9}, Nulls: n(279),
			NullColumns: [][2]any{{"unit_price", 93.0}, {"amount", 93.0}, {"amount_eur", 93.0}}, NullColumnCount: 3, Memory: n(324096), MemoryEstimated: true},
			"DataFrame 4,051 × 9 · 93 nulls in each of unit_price, amount, amount_eur · ≥316.5 KB estimated"},
		{inspect.ValueSummary{Kind: "series", Type: "pandas.Series", Dtype: "float64", Shape: []int64{4051}, Min: 757512.3, Max: json.Number("989366")},
			"Series float64 (4,051,) · min 757512.3 max 989366"},
		{inspect.ValueSummary{Kind: "ndarray", Type: "numpy.ndarray", Dtype: "float64", Shape: []int64{3}, Min: 1.5e-7, Max: 2.0},
			"ndarray float64 (3,) · min 1.5e-07 max 2e+00"},
		{inspect.ValueSummary{Kind: "container", Type: "dict", Len: n(3)}, "dict[3]"},
		{inspect.ValueSummary{Kind: "container", Type: "list", Len: n(2), Value: "[<Order>, 1]"}, "[<Order>, 1]"},
		{inspect.ValueSummary{Kind: "object", Type: "app.Order", Attrs: n(1)}, "Order (1 attribute)"},
		{inspect.ValueSummary{Kind: "scalar", Type: "int", Value: "42"}, "42"},
		{inspect.ValueSummary{Kind: "object", Type: "app.Order", Error: "boom"}, ""},
	}
	for _, c := range cases {
		if got := c.v.Line(); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.v, got, c.want)
		}
	}
}

// Summaries of real torch tensors and xarray values (tensors.py): a tensor
// with requires_grad, one with NaN and ±inf (counted and min/max computed
// on the tensor's device), one autograd computed, a meta tensor (no
// memory), a model and its state_dict, DataArrays (in memory and
// dask-backed: never computed) and a Dataset.
func TestDebugpyLibrarySummaries(t *testing.T) {
	s := libsSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	want := map[string]string{
		"grad":       "Tensor float32 2 × 3 · requires_grad · min 1 max 6.5 · 24 B",
		"param":      "Parameter float32 2 × 2 · requires_grad · min -0.5 max 1 · 16 B",
		"nan_t":      "Tensor float32 (6,) · 1 NaN · 2 inf · min 0 max 2 · 24 B",
		"bool_t":     "Tensor bool (4,) · 4 B",
		"meta_t":     "Tensor float32 2 × 3 meta",
		"out":        "Tensor float32 (3,) · requires_grad · grad_fn MulBackward0 · min 3 max 3 · 12 B",
		"int_t":      "Tensor int64 2 × 3 · min -3 max 1099511627776 · 48 B",
		"model":      "Sequential · 5 modules · 74 parameters (42 trainable) · 368 B · float32 · cpu · eval",
		"state":      "OrderedDict · 9 tensors · 91 parameters · 368 B · float32, int64 · cpu",
		"meta_model": "Linear · 1 module · 1,001,000 parameters (1,001,000 trainable) · 0 B · float32 · meta · train",
		"da":         "DataArray float64 (time: 3, city: 4) · 1 NaN · min 10.92 max 24.54",
		"lazy_da":    "DataArray float64 (y: 2, x: 3)",
		"ds":         "Dataset (time: 3, city: 4) · 3 data variables",
		"ds['rain']": "DataArray float64 (time: 3) · 1 NaN · min 0 max 2.5",
	}
	names := []string{"grad", "param", "nan_t", "bool_t", "meta_t", "out", "int_t", "model", "state", "meta_model", "da", "lazy_da", "ds", "ds['rain']"}
	paths := make([]inspect.Path, len(names))
	for i, n := range names {
		p, err := inspect.ParsePath(n)
		if err != nil {
			t.Fatal(err)
		}
		paths[i] = p
	}
	got, err := inspect.Summaries(ctx, s, 0, paths, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(names) {
		t.Fatalf("%d summaries for %d names", len(got), len(names))
	}
	for i, v := range got {
		if v.Error != "" || v.Skipped != "" {
			t.Errorf("%s: error %q skipped %q", names[i], v.Error, v.Skipped)
		}
		if l := v.Line(); l != want[names[i]] {
			t.Errorf("%s: line %q, want %q", names[i], l, want[names[i]])
		}
		if !v.Recognized() {
			t.Errorf("%s should be a recognised library value", names[i])
		}
	}
}
