// numbers.go: numbers in text, one format per line. Go printed 757500.0 as
// "7.575e+05" next to an integer's "989366" ("min 7.575e+05 max 989366").
// Every renderer (the tui and markdown column tables and statistics line,
// the one-line summaries, pages) formats the numbers of one line together:
// plain decimals, or, when one of them needs an exponent (|x| >= 1e15, or
// below 1e-4), all of them with one. Counts keep their thousands
// separators (commas); memory sizes are their own unit (HumanBytes).

package inspect

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
)

// numberOf reads v as a number (float64, json.Number, Go integers).
func numberOf(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// needsExponent: a plain decimal of x would be too long to read.
func needsExponent(x float64) bool {
	a := math.Abs(x)
	return a >= 1e21 || (a > 0 && a < 1e-4)
}

// roundedNumbers is lineNumbers with floats rounded to digits significant
// digits, never into their integer part (1199.5 stays 1199.5), as the
// probes round statistics.
func roundedNumbers(digits int, vs ...any) []string {
	r := make([]any, len(vs))
	for i, v := range vs {
		r[i] = v
		f, ok := numberOf(v)
		if !ok || f == math.Trunc(f) || math.IsInf(f, 0) || math.IsNaN(f) {
			continue
		}
		d := digits
		if a := math.Abs(f); a >= math.Pow10(digits-1) {
			d = min(17, int(math.Log10(a))+2)
		}
		r[i], _ = strconv.ParseFloat(strconv.FormatFloat(f, 'g', d, 64), 64)
	}
	return lineNumbers(r...)
}

// lineNumbers renders vs, the values of one line: the numbers in one
// format (see the file comment), anything else as cellText; nil is "".
func lineNumbers(vs ...any) []string {
	exp := false
	for _, v := range vs {
		if f, ok := numberOf(v); ok && needsExponent(f) && !math.IsInf(f, 0) && !math.IsNaN(f) {
			exp = true
		}
	}
	out := make([]string, len(vs))
	for i, v := range vs {
		switch f, ok := numberOf(v); {
		case v == nil:
		case !ok || math.IsInf(f, 0) || math.IsNaN(f):
			out[i] = cellText(v)
		case exp:
			out[i] = strconv.FormatFloat(f, 'e', -1, 64)
		default:
			out[i] = plainNumber(v, f)
		}
	}
	return out
}

// plainNumber is a number without an exponent: the probe's own digits
// when it wrote none (exact past 2^53, 57.0 a float), else the shortest
// decimal.
func plainNumber(v any, f float64) string {
	if n, ok := v.(json.Number); ok && !strings.ContainsAny(n.String(), "eE") {
		return n.String() // as the probe wrote it (57.0 stays a float)
	}
	switch n := v.(type) {
	case int:
		return strconv.Itoa(n)
	case int64:
		return strconv.FormatInt(n, 10)
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// FormatNumbers renders the values of one line of text the way every
// inspector renderer does (for other packages' texts: diffs).
func FormatNumbers(vs ...any) []string { return lineNumbers(vs...) }

// MemoryText is a memory size as every renderer writes it: an estimate
// says so ("≥316.5 KB estimated": shallow, object data not counted).
func MemoryText(n int64, estimated bool) string {
	if estimated {
		return "≥" + HumanBytes(n) + " estimated"
	}
	return HumanBytes(n)
}
