// valdiff.go: value diffs for debug_diff — what changed INSIDE an
// inspected value, path by path: dict/map keys, list/tuple/slice items,
// object attributes and struct fields (descending into the containers a
// snapshot inspected one level down), and the cells of DataFrames, Series
// and arrays small enough to be held whole. Bounded in count and bytes,
// with a note saying what was not compared.

package mcp

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// Bounds of a value diff.
const (
	maxValueChanges  = 40  // path changes per inspected expression
	maxDiffValueLen  = 80  // characters of a before/after value
	maxDiffDepth     = 6   // nesting levels inside a preview value
	maxCellRows      = 100 // DataFrame/Series rows held whole for a cell diff
	maxCellArraySize = 400 // array elements held whole for a cell diff
	maxNestedInspect = 5   // container attributes inspected one level down
)

// ValueChange is one changed, added or removed path inside a value.
type ValueChange struct {
	Path   string `json:"path"`
	Before string `json:"before,omitempty"`
	After  string `json:"after,omitempty"`
}

// valueDiff walks two inspections of one expression.
type valueDiff struct {
	goLang  bool
	changes []ValueChange
	omitted int
	notes   []string
	nested  func(path string) (json.RawMessage, json.RawMessage) // sub-inspections of both sides
}

func (d *valueDiff) add(path, before, after string) {
	if len(d.changes) == maxValueChanges {
		d.omitted++
		return
	}
	d.changes = append(d.changes, ValueChange{Path: path, Before: clip.Runes.Head(before, maxDiffValueLen), After: clip.Runes.Head(after, maxDiffValueLen)})
}

func (d *valueDiff) note(format string, args ...any) {
	d.notes = append(d.notes, fmt.Sprintf(format, args...))
}

// render writes a preview value (JSON) as a literal of the language.
func (d *valueDiff) render(v any) string {
	switch x := v.(type) {
	case map[string]any:
		b, _ := json.Marshal(x)
		return string(b)
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = d.render(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	default:
		return d.literal(x)
	}
}

// diffValues compares two inspect results of expr (JSON objects).
func (d *valueDiff) diffValues(expr string, a, b json.RawMessage) {
	var x, y map[string]any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return
	}
	if x["type"] != y["type"] {
		return // the type change is reported by the shape diff
	}
	xs, _ := x["structure"].(map[string]any)
	ys, _ := y["structure"].(map[string]any)
	xp, _ := x["preview"].(map[string]any)
	yp, _ := y["preview"].(map[string]any)
	switch x["detected_type"] {
	case "dataframe", "series":
		d.diffTable(expr, xs, ys, xp, yp)
	case "ndarray", "tensor":
		d.diffArray(expr, xs, ys, xp, yp)
	default:
		if xa, ok := xs["attributes"].([]any); ok {
			ya, _ := ys["attributes"].([]any)
			d.diffAttributes(expr, xa, ya)
		}
		if xi, ok := xp["items"].([]any); ok {
			yi, _ := yp["items"].([]any)
			d.diffItems(expr, xi, yi)
			if xp["is_truncated"] == true || yp["is_truncated"] == true {
				d.note("%s: only the items in the preview were compared", expr)
			}
		}
	}
}

// diffAttributes compares object attributes / struct fields by name; a
// container attribute inspected on both sides is compared key by key.
func (d *valueDiff) diffAttributes(expr string, xa, ya []any) {
	before := map[string]map[string]any{}
	var order []string
	for _, e := range xa {
		if m, ok := e.(map[string]any); ok {
			n, _ := m["name"].(string)
			before[n] = m
			order = append(order, n)
		}
	}
	seen := map[string]bool{}
	for _, e := range ya {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		n, _ := m["name"].(string)
		seen[n] = true
		path := d.field(expr, n)
		old, ok := before[n]
		switch {
		case !ok:
			d.add(path, "", reprOf(m))
		case old["repr"] != m["repr"] || old["type"] != m["type"]:
			if d.nested != nil {
				if na, nb := d.nested(path); na != nil && nb != nil {
					n0 := len(d.changes) + d.omitted
					d.diffValues(path, na, nb)
					if len(d.changes)+d.omitted > n0 {
						continue
					}
				}
			}
			d.add(path, reprOf(old), reprOf(m))
		}
	}
	for _, n := range order {
		if !seen[n] {
			d.add(d.field(expr, n), reprOf(before[n]), "")
		}
	}
}

// field is expr's attribute or field n; a dereference is parenthesised.
func (d *valueDiff) field(expr, n string) string {
	if strings.HasPrefix(expr, "*") {
		expr = "(" + expr + ")"
	}
	return expr + "." + n
}

// diffItems compares preview items: by key (dicts, maps), by index
// (sequences), by value (sets).
func (d *valueDiff) diffItems(expr string, xi, yi []any) {
	key := func(m map[string]any) (string, bool) {
		if k, ok := m["key"]; ok {
			return d.subscript(k), true
		}
		if i, ok := m["index"].(float64); ok {
			return "[" + strconv.Itoa(int(i)) + "]", true
		}
		return "", false
	}
	before := map[string]any{}
	var order []string
	var xset, yset []any
	for _, e := range xi {
		m, _ := e.(map[string]any)
		if k, ok := key(m); ok {
			before[k] = m["value"]
			order = append(order, k)
		} else if m != nil {
			xset = append(xset, m["value"])
		}
	}
	seen := map[string]bool{}
	for _, e := range yi {
		m, _ := e.(map[string]any)
		k, ok := key(m)
		if !ok {
			if m != nil {
				yset = append(yset, m["value"])
			}
			continue
		}
		seen[k] = true
		old, had := before[k]
		if !had {
			d.add(expr+k, "", d.render(m["value"]))
			continue
		}
		d.diffJSON(expr+k, old, m["value"], 0)
	}
	for _, k := range order {
		if !seen[k] {
			d.add(expr+k, d.render(before[k]), "")
		}
	}
	// Sets: members added and removed.
	for _, v := range yset {
		if !containsJSON(xset, v) {
			d.add(expr+" ∋", "", d.render(v))
		}
	}
	for _, v := range xset {
		if !containsJSON(yset, v) {
			d.add(expr+" ∋", d.render(v), "")
		}
	}
}

// diffJSON compares two preview values (JSON) below path.
func (d *valueDiff) diffJSON(path string, a, b any, depth int) {
	if sameJSON(a, b) {
		return
	}
	am, aok := a.(map[string]any)
	bm, bok := b.(map[string]any)
	if aok && bok && depth < maxDiffDepth {
		for _, k := range sortedKeys(am) {
			if v, ok := bm[k]; ok {
				d.diffJSON(path+d.subscript(k), am[k], v, depth+1)
			} else {
				d.add(path+d.subscript(k), d.render(am[k]), "")
			}
		}
		for _, k := range sortedKeys(bm) {
			if _, ok := am[k]; !ok {
				d.add(path+d.subscript(k), "", d.render(bm[k]))
			}
		}
		return
	}
	al, aok := a.([]any)
	bl, bok := b.([]any)
	if aok && bok && len(al) == len(bl) && depth < maxDiffDepth {
		for i := range al {
			d.diffJSON(path+"["+strconv.Itoa(i)+"]", al[i], bl[i], depth+1)
		}
		return
	}
	d.add(path, d.render(a), d.render(b))
}

// subscript renders a key as the language writes it: ['k'] / ["k"], [3].
func (d *valueDiff) subscript(k any) string { return "[" + d.literal(k) + "]" }

// literal renders a key or index label as a literal of the language: 'k'
// (Python) or "k" (Go), 3, and a MultiIndex label as a tuple.
func (d *valueDiff) literal(k any) string {
	switch x := k.(type) {
	case string:
		if d.goLang {
			return strconv.Quote(x)
		}
		return pyQuote(x)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		if d.goLang {
			return strconv.FormatBool(x)
		}
		return map[bool]string{true: "True", false: "False"}[x]
	case nil:
		if d.goLang {
			return "nil"
		}
		return "None"
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = d.literal(e)
		}
		if len(parts) == 1 {
			return "(" + parts[0] + ",)"
		}
		return "(" + strings.Join(parts, ", ") + ")"
	default:
		b, _ := json.Marshal(x)
		return string(b)
	}
}

// pyQuote is Python's repr of a str (single quotes unless the text has one).
func pyQuote(s string) string {
	q := "'"
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		q = `"`
	}
	r := strings.NewReplacer(`\`, `\\`, q, `\`+q, "\n", `\n`, "\r", `\r`, "\t", `\t`)
	return q + r.Replace(s) + q
}

func containsJSON(list []any, v any) bool {
	for _, e := range list {
		if sameJSON(e, v) {
			return true
		}
	}
	return false
}

// diffTable compares the cells of two DataFrames/Series held whole in
// their previews (same columns; rows matched by index label).
func (d *valueDiff) diffTable(expr string, xs, ys, xp, yp map[string]any) {
	whole := func(p map[string]any) bool {
		n, _ := p["omitted_rows"].(float64)
		tail, _ := p["tail"].([]any)
		return n == 0 && len(tail) == 0
	}
	if !whole(xp) || !whole(yp) {
		// Browsing works on every session with a probe (Python and Node):
		// the advice names the call.
		d.note(`%s: cells not compared (more than %d rows): compare pages, debug_inspect_variable {"expression": %q, "rows": {"offset": 0, "limit": 100}, "max_bytes": 102400} (with "sort" to line rows up)`, expr, maxCellRows, expr)
		return
	}
	xc, _ := xp["columns"].([]any)
	yc, _ := yp["columns"].([]any)
	if !sameJSON(xc, yc) {
		d.note("%s: cells not compared (the columns differ)", expr)
		return
	}
	series := xs["series_name"] != nil || len(xc) == 1 && xs["column_count"] == nil
	type row struct {
		label  any
		values []any
	}
	rows := func(p map[string]any) (map[string]row, []string) {
		out := map[string]row{}
		var order []string
		h, _ := p["head"].([]any)
		for _, r := range h {
			m, _ := r.(map[string]any)
			k := d.literal(m["index"])
			if _, dup := out[k]; dup {
				continue // a duplicate label: its first row stands for it
			}
			v, _ := m["values"].([]any)
			out[k], order = row{m["index"], v}, append(order, k)
		}
		return out, order
	}
	xr, xorder := rows(xp)
	yr, yorder := rows(yp)
	for _, k := range yorder {
		old, ok := xr[k]
		if !ok {
			d.add(expr+".loc["+k+"]", "", d.render(yr[k].values))
			continue
		}
		for c, v := range yr[k].values {
			if c >= len(old.values) || sameJSON(old.values[c], v) {
				continue
			}
			path := expr + ".loc[" + k + "]"
			if !series {
				path = expr + ".loc[" + k + ", " + d.literal(xc[c]) + "]"
			}
			d.add(path, d.render(old.values[c]), d.render(v))
		}
	}
	for _, k := range xorder {
		if _, ok := yr[k]; !ok {
			d.add(expr+".loc["+k+"]", d.render(xr[k].values), "")
		}
	}
}

// diffArray compares the elements of two 1-D/2-D arrays held whole.
func (d *valueDiff) diffArray(expr string, xs, ys, xp, yp map[string]any) {
	if !sameJSON(xs["shape"], ys["shape"]) {
		return // the shape change is reported by the shape diff
	}
	size, _ := xs["size"].(float64)
	xv, xok := xp["values"].([]any)
	yv, yok := yp["values"].([]any)
	shape, _ := xs["shape"].([]any)
	if !xok || !yok || size > maxCellArraySize || len(shape) > 2 || len(shape) == 0 || float64(len(xv)) != shape[0] {
		d.note("%s: elements not compared (only arrays of up to %d elements held whole are)", expr, maxCellArraySize)
		return
	}
	for i := range xv {
		if len(shape) == 1 {
			if !sameJSON(xv[i], yv[i]) {
				d.add(fmt.Sprintf("%s[%d]", expr, i), d.render(xv[i]), d.render(yv[i]))
			}
			continue
		}
		xrow, _ := xv[i].([]any)
		yrow, _ := yv[i].([]any)
		for j := range xrow {
			if j < len(yrow) && !sameJSON(xrow[j], yrow[j]) {
				d.add(fmt.Sprintf("%s[%d, %d]", expr, i, j), d.render(xrow[j]), d.render(yrow[j]))
			}
		}
	}
}

// reprOf is an attribute's repr (its type when the probe gave none).
func reprOf(m map[string]any) string {
	if r, ok := m["repr"].(string); ok {
		return r
	}
	t, _ := m["type"].(string)
	return "<" + t + ">"
}
