// Unit tests: the path parser, option normalization, the 100 KB cap on
// pathological results, summaries, and the probe without pandas/numpy.

package inspect

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dapscope/dapscope/errcode"
)

func TestParsePath(t *testing.T) {
	ok := map[string]string{
		"df":                     "df",
		" self.cache ":           "self.cache",
		"data['train']":          "data['train']",
		`data["train"]`:          "data['train']",
		"arr[0]":                 "arr[0]",
		"obj.items[-1]":          "obj.items[-1]",
		"m[ 'a' ][2].x":          "m['a'][2].x",
		"ünïcode_名前":             "ünïcode_名前",
		`d['it\'s']`:             `d["it's"]`,
		"d['\\n']":               `d['\n']`,
		"a[1_000]":               "a[1000]",
		"_private.__dunder__[0]": "_private.__dunder__[0]",
	}
	for in, want := range ok {
		p, err := ParsePath(in)
		if err != nil {
			t.Errorf("ParsePath(%q): %v", in, err)
			continue
		}
		if p.String() != want {
			t.Errorf("ParsePath(%q).String() = %q, want %q", in, p.String(), want)
		}
	}
	for _, in := range []string{"", "df.head()", "a + b", "x[y]", "x[1:2]", "lambda: 1", "1df", "df.", "df[", "df['a'",
		"df[0", "None", "x.class", "__import__('os')", "x[-]", "a;b", "a[99999999999999999999]", strings.Repeat("a", 1001)} {
		_, err := ParsePath(in)
		var ie *errcode.Error
		if !errors.As(err, &ie) || ie.Code != errcode.InvalidExpression || ie.Hint == "" {
			t.Errorf("ParsePath(%q): want INVALID_EXPRESSION with a hint, got %v", in, err)
		}
	}
	p, _ := ParsePath("data['k'][-1]")
	b, _ := json.Marshal(p)
	if string(b) != `[["name","data"],["item","k"],["item",-1]]` {
		t.Errorf("probe encoding: %s", b)
	}
	if _, err := p.GoExpr(); err == nil {
		t.Error("a negative index must be rejected for Go")
	}
	p, _ = ParsePath("m['k'].F[2]")
	if g, _ := p.GoExpr(); g != `m["k"].F[2]` {
		t.Errorf("GoExpr = %s", g)
	}
}

func TestOptionsNormalize(t *testing.T) {
	var o Options
	if err := o.Normalize(); err != nil {
		t.Fatal(err)
	}
	if o.MaxPreviewRows != 5 || o.MaxPreviewItems != 10 || !*o.IncludeStatistics || o.Timeout != 2 || o.Format != "json" || o.RequestTimeout != 10 || o.Precision != PrecisionShort {
		t.Fatalf("defaults: %+v", o)
	}
	for _, bad := range []Options{{MaxPreviewRows: 101}, {MaxPreviewRows: -1}, {MaxPreviewItems: 500}, {Timeout: 0.05}, {Timeout: 11}, {Format: "yaml"}, {RequestTimeout: -1}, {Precision: "exact"}} {
		err := bad.Normalize()
		var ie *errcode.Error
		if !errors.As(err, &ie) || ie.Code != errcode.InvalidArgument {
			t.Errorf("%+v: want INVALID_ARGUMENT, got %v", bad, err)
		}
	}
	// JSON names are the documented ones.
	var in Options
	if err := json.Unmarshal([]byte(`{"max_preview_rows":7,"max_preview_items":3,"include_statistics":false,"deep_memory":true,"timeout":0.5,"format":"tui"}`), &in); err != nil {
		t.Fatal(err)
	}
	if in.MaxPreviewRows != 7 || in.MaxPreviewItems != 3 || *in.IncludeStatistics || !in.DeepMemory || in.Timeout != 0.5 || in.Format != "tui" {
		t.Fatalf("decoded %+v", in)
	}
	// Inspect reports bad options before touching the target.
	h := &countingTarget{}
	if _, err := Inspect(context.Background(), h, 0, "x", Options{MaxPreviewRows: 1000}); err == nil || h.n != 0 {
		t.Fatalf("bad options: err=%v requests=%d", err, h.n)
	}
	if _, err := Inspect(context.Background(), h, 0, "x()", Options{}); err == nil || h.n != 0 {
		t.Fatalf("bad expression: err=%v requests=%d", err, h.n)
	}
}

type countingTarget struct {
	pyHarness
	n int
}

func (c *countingTarget) Request(context.Context, string, any, any) error {
	c.n++
	return errors.New("unexpected request")
}

func (c *countingTarget) Paused() (int, bool) { return 1, true }

func bigResult(cols, rows int, cell string) *Result {
	r := &Result{Name: "wide", Type: "pandas.core.frame.DataFrame", DetectedType: TypeDataFrame,
		Structure: &Structure{Shape: []int64{int64(rows), int64(cols)}}, Preview: &Preview{}, Statistics: &Statistics{}}
	for j := 0; j < cols; j++ {
		name := fmt.Sprintf("column_%05d", j)
		zero := int64(0)
		r.Structure.Columns = append(r.Structure.Columns, Column{Name: name, Dtype: "object", NullCount: &zero})
		r.Preview.Columns = append(r.Preview.Columns, name)
		r.Statistics.Columns = append(r.Statistics.Columns, Statistics{Name: name, TopValues: []ValueCount{{Value: cell, Count: 3}}})
	}
	for i := 0; i < rows; i++ {
		row := Row{Index: json.Number(fmt.Sprint(i))}
		for j := 0; j < cols; j++ {
			row.Values = append(row.Values, map[string]any{"nested": []any{cell, cell}})
		}
		r.Preview.Head = append(r.Preview.Head, row)
	}
	return r
}

func TestCap(t *testing.T) {
	long := strings.Repeat("é", 3000)
	cases := map[string]*Result{
		"rows":    bigResult(5, 100, long),
		"cells":   bigResult(20, 3, long),
		"columns": bigResult(5000, 2, "x"),
		"items": {DetectedType: TypeList, Preview: &Preview{Items: func() []Item {
			var it []Item
			for i := 0; i < 100; i++ {
				it = append(it, Item{Value: long})
			}
			return it
		}()}},
		"attributes": {DetectedType: TypeObject, Structure: &Structure{Attributes: func() []Attribute {
			var a []Attribute
			for i := 0; i < 2000; i++ {
				a = append(a, Attribute{Name: fmt.Sprint("a", i), Repr: long[:200]})
			}
			return a
		}()}},
		"text":  {DetectedType: TypeStr, Preview: &Preview{Text: strings.Repeat(long, 100)}},
		"small": {DetectedType: TypeInt, Structure: &Structure{Value: json.Number("1")}},
	}
	for name, r := range cases {
		before := Size(r)
		dropped := Cap(r, MaxResultBytes)
		after := Size(r)
		b, err := json.Marshal(r)
		if err != nil || !json.Valid(b) {
			t.Fatalf("%s: invalid JSON after the cap: %v", name, err)
		}
		if after > MaxResultBytes {
			t.Errorf("%s: %d bytes after the cap (was %d)", name, after, before)
		}
		if dropped != (before > MaxResultBytes) {
			t.Errorf("%s: dropped=%v but size was %d", name, dropped, before)
		}
		if dropped && !strings.Contains(strings.Join(r.Warnings, ";"), "size cap") {
			t.Errorf("%s: no warning says what was dropped: %v", name, r.Warnings)
		}
	}
	// Rows go first: a frame that fits with fewer rows keeps all its columns.
	r := bigResult(5, 100, long)
	Cap(r, MaxResultBytes)
	if len(r.Structure.Columns) != 5 || len(r.Preview.Head) == 0 || len(r.Preview.Head) >= 100 {
		t.Errorf("rows first: %d columns, %d rows", len(r.Structure.Columns), len(r.Preview.Head))
	}
	// Columns last: 5000 columns end up capped, with the count kept.
	r = bigResult(5000, 2, "x")
	Cap(r, MaxResultBytes)
	if len(r.Structure.Columns) >= 5000 || r.Structure.ColumnCount == nil || *r.Structure.ColumnCount != 5000 {
		t.Errorf("columns: kept %d, column_count %v", len(r.Structure.Columns), r.Structure.ColumnCount)
	}
}

// Cuts of values and messages never split a character: the byte-slicing
// helper these call sites used before (s[:n] + "…") did.
func TestCutsKeepCharactersWhole(t *testing.T) {
	across := func(n int) string { return strings.Repeat("x", n-1) + "名前" } // a 3-byte character across byte n
	_, err := DecodeProbeResult(across(300))
	var ie *errcode.Error
	if !errors.As(err, &ie) || !utf8.ValidString(ie.Message) || !strings.HasSuffix(ie.Message, "x…") {
		t.Errorf("a probe answer that is not JSON: %v", err)
	}
	md, err := Format(&Result{Name: "s", Type: "str", DetectedType: TypeStr, Preview: &Preview{Text: across(500)}}, "markdown", 0)
	if err != nil || !utf8.ValidString(md) || !strings.Contains(md, "x…\n```") {
		t.Errorf("markdown preview text: %q, %v", md, err)
	}
	tui, err := Format(&Result{Name: "s", Type: "str", DetectedType: TypeStr, Structure: &Structure{Value: across(200)}}, "tui", 0)
	if err != nil || strings.ContainsRune(tui, utf8.RuneError) || !strings.Contains(tui, "x…") {
		t.Errorf("tui value: %q, %v", tui, err)
	}
	r := &Result{Summary: across(200), Hint: across(200) + strings.Repeat("y", 2*MaxResultBytes)}
	if !Cap(r, MaxResultBytes) || r.Summary != across(200)[:199]+"…" || r.Hint != r.Summary {
		t.Errorf("capped summary and hint: %q, %q", r.Summary, r.Hint)
	}
}

func TestSummaries(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	got := Summarize(&Result{Type: "pandas.core.frame.DataFrame", DetectedType: TypeDataFrame, Structure: &Structure{
		Shape: []int64{1000, 10}, MemoryBytes: n(80000),
		Columns: []Column{{Name: "a", NullCount: n(10)}, {Name: "b", NullCount: n(2)}, {Name: "c", NullCount: n(0)}}}})
	if want := "DataFrame 1,000 rows × 10 columns, 78.1 KB, 12 null cells in 2 columns (2–10 per column)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := Summarize(&Result{Type: "[]int", DetectedType: TypeSlice, Structure: &Structure{Length: n(3), Cap: n(8)}}); got != "[]int 3 items, cap 8" {
		t.Errorf("slice: %q", got)
	}
}

func TestProbeWithoutPandas(t *testing.T) {
	h := startHarness(t, "../testdata/python/no_pandas.py")
	ctx := context.Background()
	res, err := Inspect(ctx, h, 0, "frame", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != TypeObject || res.Structure.Class != "DataFrame" {
		t.Fatalf("a look-alike DataFrame class must inspect as a plain object: %+v", res)
	}
	res, err = Inspect(ctx, h, 0, "lookup['x'][-1]", Options{})
	if err != nil || res.DetectedType != TypeDict || *res.Structure.Length != 2 {
		t.Fatalf("lookup['x'][-1]: %v %+v", err, res)
	}
	got, err := h.EvaluateProbe(ctx, EvalRequest{Expression: "str(sorted(m for m in ('pandas', 'numpy') if m in __import__('sys').modules))", RawString: true})
	if err != nil {
		t.Fatal(err)
	}
	if got != "[]" {
		t.Fatalf("the probe imported %s into the debuggee", got)
	}
}

// TestProbeLibraryStandIns exercises what cannot run for real here with a
// stand-in class registered under its module name: a tensor on a GPU
// (there is no GPU; real CPU tensors are in libs_test.go). polars and
// pyarrow are tested for real (engines_parity_test.go).
func TestProbeLibraryStandIns(t *testing.T) {
	h := startHarness(t, "../testdata/python/lookalike_libs.py")
	ctx := context.Background()
	get := func(expr string) *Result {
		t.Helper()
		r, err := Inspect(ctx, h, 0, expr, Options{})
		if err != nil {
			t.Fatalf("%s: %v", expr, err)
		}
		return r
	}
	r := get("gpu_tensor")
	// A stand-in has no device reductions (real ones: tensor_test.go): it
	// is never copied to the host, and its failure is a warning.
	if r.DetectedType != TypeTensor || r.Statistics != nil || r.Preview != nil || len(r.Warnings) != 1 || !strings.Contains(r.Summary, "on cuda:0") ||
		!strings.Contains(r.Warnings[0], "tensor statistics failed on cuda:0") || r.Partial {
		t.Errorf("gpu tensor stand-in: %+v", r)
	}
}

// FuzzParsePath: any input either fails with INVALID_EXPRESSION or parses to
// a path whose String() parses back to the same path.
func FuzzParsePath(f *testing.F) {
	for _, s := range []string{"df", "self.cache", "data['train']", `d["k\"q"]`, "arr[0]", "obj.items[-1]", "a[1_0]", "x['\\x41\\u00e9']", "a.b.c[0]['d']", "é", "a[", "a + b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParsePath(s)
		if err != nil {
			var ie *errcode.Error
			if !errors.As(err, &ie) || ie.Code != errcode.InvalidExpression {
				t.Fatalf("%q: error %v is not INVALID_EXPRESSION", s, err)
			}
			return
		}
		q, err := ParsePath(p.String())
		if err != nil {
			t.Fatalf("%q → %q does not parse again: %v", s, p.String(), err)
		}
		a, _ := json.Marshal(p)
		b, _ := json.Marshal(q)
		if string(a) != string(b) {
			t.Fatalf("%q: round trip %s != %s", s, a, b)
		}
	})
}
