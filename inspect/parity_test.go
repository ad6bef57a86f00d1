// This file is the probes' one contract, checked from both sides: a table of
// value kinds that exist in Python and in JavaScript, each built from the
// same data (testdata/parity/values.json) by parity.py and parity.js, and
// inspected by both probes outside a debugger (pyHarness, jsHarness). Every
// fact one probe reports must be reported alike by the other, except the
// facts listed in languageSpecific (each with its reason), and each case's
// expected facts must hold. A new fact in one probe only, or a drift in a
// shared one (a rounding, a sample, a count), fails here.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os/exec"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
)

type parityCase struct {
	name string
	expr string // the same name in both fixtures
	opts Options
	// detected is the detected type in Python and in JavaScript.
	detected [2]string
	// want are facts both must report: a path (statistics.columns[1].mean)
	// and its value (numbers compared as numbers).
	want map[string]any
}

func parityOpts() Options { return Options{Timeout: 10, RequestTimeout: 60} }

func fullPrecision() Options { o := parityOpts(); o.Precision = PrecisionFull; return o }

var parityCases = []parityCase{
	{name: "records table", expr: "records", opts: parityOpts(), detected: [2]string{TypeDataFrame, TypeDataFrame}, want: map[string]any{
		"structure.shape":                     []any{40, 4},
		"structure.columns[1].null_count":     4,
		"structure.columns[2].null_count":     4,
		"statistics.columns[1].mean":          63.97,
		"statistics.columns[1].std":           37.73,
		"statistics.columns[1].quantiles.p95": 118.9,
		"statistics.columns[2].distinct":      5,
		"statistics.columns[2].top_values[0]": map[string]any{"value": "Nice", "count": 8},
		"statistics.columns[2].top_values[1]": map[string]any{"value": "Paris", "count": 7},
		"statistics.columns[3].zeros":         6,
		"statistics.duplicate_rows":           0,
		"preview.head[0].values":              []any{1, 0.5, "Nice", 0},
	}},
	{name: "records table, full precision", expr: "records", opts: fullPrecision(), detected: [2]string{TypeDataFrame, TypeDataFrame}, want: map[string]any{
		"statistics.columns[1].mean":          63.97222222222222,
		"statistics.columns[1].quantiles.p25": 32.0625,
	}},
	{name: "float array with NaN and infinities", expr: "floats", opts: parityOpts(), detected: [2]string{TypeNDArray, TypeNDArray}, want: map[string]any{
		"structure.size":       200,
		"statistics.count":     200,
		"statistics.nan_count": 2,
		"statistics.inf_count": 2,
		"statistics.zeros":     3,
		"statistics.distinct":  196, // infinities count as values
		"preview.values":       []any{0, 647.5, 992, 873.1, 348.2, "…", -343.8, -210.5, 326, 1014.9, 1533.9},
	}},
	{name: "int array", expr: "ints", opts: parityOpts(), detected: [2]string{TypeNDArray, TypeNDArray}, want: map[string]any{
		"structure.dtype": "int32",
		"statistics.min":  -500,
	}},
	{name: "sampled array (evenly spaced over all of it)", expr: "big", opts: parityOpts(), detected: [2]string{TypeNDArray, TypeNDArray}, want: map[string]any{
		"statistics.sampled":         true,
		"statistics.sample_size":     20000,
		"statistics.mean":            714.7,
		"statistics.quantiles.p95":   1358,
		"statistics.distinct":        10015,
		"statistics.histogram.width": 142.9,
	}},
	{name: "precision short", expr: "precise", opts: parityOpts(), detected: [2]string{TypeNDArray, TypeNDArray}, want: map[string]any{
		// 4 digits, never into the integer part; an exact tie to the even digit
		"preview.values":  []any{3.142, 123456.8, 0.0001235, 1199.5, 98765.4, 2, -0.5, 0.2812, 1.016},
		"statistics.mean": 24825.3,
		"statistics.std":  49308.9,
	}},
	{name: "precision full", expr: "precise", opts: fullPrecision(), detected: [2]string{TypeNDArray, TypeNDArray}, want: map[string]any{
		"preview.values": []any{3.14159265358979, 123456.789, 0.000123456789, 1199.5, 98765.4321, 2, -0.5, 0.28125, 1.015625},
		"statistics.max": 123456.789,
	}},
	{name: "mapping", expr: "mapping", opts: parityOpts(), detected: [2]string{TypeDict, "map"}, want: map[string]any{
		"structure.length":       7,
		"structure.depth":        2,
		"preview.items[1].value": 2.5,
		"preview.items[6]":       map[string]any{"key": "tie", "value": 1.01562}, // 6 digits, the tie to even
	}},
	{name: "list of numbers with nulls", expr: "nums_list", opts: parityOpts(), detected: [2]string{TypeList, TypeList}, want: map[string]any{
		"statistics.count": 7,
		"statistics.min":   -2,
		"statistics.max":   11.12,
	}},
	{name: "list of strings", expr: "words", opts: parityOpts(), detected: [2]string{TypeList, TypeList}, want: map[string]any{
		"statistics.distinct":      5,
		"statistics.top_values[0]": map[string]any{"value": "fig", "count": 3},
		"statistics.top_values[1]": map[string]any{"value": "pear", "count": 2},
		"statistics.str_len":       map[string]any{"min": 3, "max": 6, "mean": 4},
	}},
	{name: "list of booleans", expr: "flags", opts: parityOpts(), detected: [2]string{TypeList, TypeList}, want: map[string]any{
		"statistics.true_count": 3,
		"statistics.true_rate":  0.75,
	}},
	{name: "multi-line string", expr: "text", opts: parityOpts(), detected: [2]string{TypeStr, TypeStr}, want: map[string]any{
		"structure.length":     345,
		"structure.line_count": 4,
	}},
	{name: "short string", expr: "short_text", opts: parityOpts(), detected: [2]string{TypeStr, TypeStr}, want: map[string]any{
		"preview.text": "hello, world",
	}},
	{name: "object", expr: "obj", opts: parityOpts(), detected: [2]string{TypeObject, TypeObject}, want: map[string]any{
		"structure.attribute_count": 5,
	}},
	{name: "null", expr: "nothing", opts: parityOpts(), detected: [2]string{TypeNone, TypeNone}},
	{name: "float scalar", expr: "ratio", opts: parityOpts(), detected: [2]string{TypeFloat, TypeFloat}, want: map[string]any{
		"structure.value": 3.14159265358979,
	}},
	{name: "int scalar", expr: "count", opts: parityOpts(), detected: [2]string{TypeInt, TypeInt}, want: map[string]any{"structure.value": 42}},
	{name: "bool scalar", expr: "flag", opts: parityOpts(), detected: [2]string{TypeBool, TypeBool}, want: map[string]any{"structure.value": true}},
}

// languageSpecific are the facts whose words are the language's own (a
// type's name, a layout, an estimate), matched against a fact's path with
// its indexes as [].
var languageSpecific = map[string]string{
	"type": "the language's type name", "summary": "names the type", "language": "which probe", "detected_type": "checked apart (dict is map)",
	"elapsed_ms": "timing", "probe_ms": "timing", "source": "always probe",
	"structure.c_contiguous": "numpy's memory layout", "structure.f_contiguous": "numpy's memory layout",
	"structure.index":           "pandas' index; a JavaScript table is indexed by position",
	"structure.columns[].dtype": "dtype names (float64, number)",
	"structure.key_types":       "type names", "structure.value_types": "type names", "structure.element_types": "type names",
	"structure.kind": "object kinds (plain, instance)", "structure.module": "Python modules",
	"structure.memory_bytes":     "V8 reports no sizes: JavaScript tables are estimated otherwise",
	"structure.memory_estimated": "see memory_bytes", "structure.memory_deep": "see memory_bytes",
	"structure.attributes[].type": "type names", "structure.attributes[].repr": "None is null",
	"preview.items[].type": "type names", "preview.tail_items[].type": "type names",
	"preview.repr":                               "Python shows no user __repr__; JavaScript shows own data properties",
	"statistics.columns[].element_types":         "type names, and only where a dtype does not say it",
	"statistics.columns[].nan_count":             "pandas stores a float column's nulls as NaN",
	"statistics.columns[].repeated":              "Python's clues (#35): exact repeated-value counts, key detection",
	"statistics.columns[].repeated_not_computed": "see repeated", "statistics.columns[].key_like": "see repeated",
	"statistics.repeated": "see statistics.columns[].repeated", "statistics.key_like": "see repeated",
}

func TestProbesParity(t *testing.T) {
	py := startHarness(t, "../testdata/parity/parity.py")
	targets := []Target{py}
	if _, err := exec.LookPath(nodeExe()); err == nil || goldenPython() {
		targets = append(targets, startJSHarness(t, "../testdata/parity/parity.js"))
	} else {
		// another Python on a machine without node (make test-probe-bin):
		// Python's side of the contract, each case's expected facts
		t.Logf("no node here: checking the Python probe's facts only (%s)", python)
	}
	ctx := context.Background()
	for _, c := range parityCases {
		t.Run(c.name, func(t *testing.T) {
			var got [2]map[string]any
			for i, tg := range targets {
				r, err := Inspect(ctx, tg, 0, c.expr, c.opts)
				if err != nil {
					t.Fatalf("%s probe: %v", tg.Language(), err)
				}
				if r.DetectedType != c.detected[i] {
					t.Errorf("%s probe: detected %q, want %q", tg.Language(), r.DetectedType, c.detected[i])
				}
				got[i] = flatFacts(t, r)
			}
			if len(targets) == 2 {
				for _, d := range diffFacts(got[0], got[1], c.opts.Precision == PrecisionFull) {
					t.Errorf("drift: %s", d)
				}
			}
			for path, want := range c.want {
				for i, lang := range []string{"python", "javascript"}[:len(targets)] {
					if g, ok := factAt(got[i], path); !ok || !sameFact(g, want, false) {
						t.Errorf("%s probe: %s = %v, want %v", lang, path, g, want)
					}
				}
			}
		})
	}
}

// flatFacts is the result as a flat map of paths (statistics.columns[1].mean)
// to leaf values, without the language-specific facts.
func flatFacts(t *testing.T, r *Result) map[string]any { return flatFactsKeeping(t, r, nil) }

// flatFactsKeeping is flatFacts keeping the language-specific facts in
// keep (paths with indexes as []): facts two probes of one language share.
func flatFactsKeeping(t *testing.T, r *Result, keep map[string]bool) map[string]any {
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	flattenKeeping("", v, out, keep)
	return out
}

var indexRe = regexp.MustCompile(`\[\d+\]`)

func flatten(path string, v any, out map[string]any) { flattenKeeping(path, v, out, nil) }

func flattenKeeping(path string, v any, out map[string]any, keep map[string]bool) {
	norm := indexRe.ReplaceAllString(path, "[]")
	if _, skip := languageSpecific[norm]; skip && !keep[norm] {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := k
			if path != "" {
				p = path + "." + k
			}
			flattenKeeping(p, e, out, keep)
		}
	case []any:
		out[path+".len"] = len(x)
		for i, e := range x {
			flattenKeeping(fmt.Sprintf("%s[%d]", path, i), e, out, keep)
		}
	default:
		out[path] = v
	}
}

// factAt reads a path, a leaf or a subtree rebuilt from the leaves.
func factAt(facts map[string]any, path string) (any, bool) {
	if v, ok := facts[path]; ok {
		return v, true
	}
	if n, ok := facts[path+".len"]; ok {
		list := make([]any, n.(int))
		for i := range list {
			list[i], _ = factAt(facts, fmt.Sprintf("%s[%d]", path, i))
		}
		return list, true
	}
	sub := map[string]any{}
	for k := range facts {
		if rest, ok := strings.CutPrefix(k, path+"."); ok {
			key, _, _ := strings.Cut(rest, ".")
			key, _, _ = strings.Cut(key, "[")
			if _, done := sub[key]; !done {
				sub[key], _ = factAt(facts, path+"."+key)
			}
		}
	}
	return sub, len(sub) > 0
}

// diffFacts lists the facts the two probes report differently.
func diffFacts(py, js map[string]any, full bool) []string {
	var out []string
	for k, v := range py {
		w, ok := js[k]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s = %v from Python only", k, v))
		case !sameFact(v, w, full && tolerant(k)):
			out = append(out, fmt.Sprintf("%s: Python %v, JavaScript %v", k, v, w))
		}
	}
	for k, w := range js {
		if _, ok := py[k]; !ok {
			out = append(out, fmt.Sprintf("%s = %v from JavaScript only", k, w))
		}
	}
	sort.Strings(out)
	return out
}

// tolerant: a mean or a standard deviation at full precision may differ in
// its last bits (numpy sums pairwise, the JavaScript probe in one pass).
func tolerant(path string) bool {
	return strings.HasSuffix(path, ".mean") || strings.HasSuffix(path, ".std") || path == "statistics.mean"
}

func sameFact(a, b any, tolerance bool) bool {
	fa, oka := number(a)
	fb, okb := number(b)
	if oka && okb {
		if tolerance {
			return math.Abs(fa-fb) <= 1e-12*math.Max(math.Abs(fa), math.Abs(fb))
		}
		return fa == fb
	}
	switch x := a.(type) {
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameFact(x[i], y[i], tolerance) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			if !sameFact(v, y[k], tolerance) {
				return false
			}
		}
		return true
	}
	return a == b
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case float64:
		return x, true
	case int:
		return float64(x), true
	}
	return 0, false
}
