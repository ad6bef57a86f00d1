// This file builds a Result from the DAP variables tree, for adapters without
// a Python probe (Delve now, any adapter later): one evaluate of the parsed
// path (rebuilt in the adapter's syntax, never the user's text), then a few
// bounded variables requests. Go slices/arrays (len, cap, element type,
// head/tail, exact stats for numeric slices up to 1,000 elements), maps,
// structs, strings, pointers and scalars.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// statsFetchLimit: numeric slices up to this length are fetched whole for
// exact statistics; longer ones only get a preview.
const statsFetchLimit = 1000

type dapEvalBody struct {
	Result             string `json:"result"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
	NamedVariables     int    `json:"namedVariables"`
	IndexedVariables   int    `json:"indexedVariables"`
}

type dapVariable struct {
	Name               string `json:"name"`
	Value              string `json:"value"`
	Type               string `json:"type"`
	VariablesReference int    `json:"variablesReference"`
	IndexedVariables   int    `json:"indexedVariables"`
	NamedVariables     int    `json:"namedVariables"`
}

type variablesArgs struct {
	VariablesReference int    `json:"variablesReference"`
	Filter             string `json:"filter,omitempty"`
	Start              int    `json:"start,omitempty"`
	Count              int    `json:"count,omitempty"`
}

type scopesArgs struct {
	FrameID int `json:"frameId"`
}

type dapScope struct {
	Name               string `json:"name"`
	VariablesReference int    `json:"variablesReference"`
	Expensive          bool   `json:"expensive"`
}

var (
	lenCapRe   = regexp.MustCompile(`len: (\d+)(?:, cap: (\d+))?`)
	moreRe     = regexp.MustCompile(`\.\.\.\+(\d+) more"?$`)
	notFoundRe = regexp.MustCompile(`(?i)could not find|not found|no field|undefined|out of (range|bounds)|unknown field|no member|does not exist|not defined`)
)

func variables(ctx context.Context, t Target, ref int, filter string, start, count int) ([]dapVariable, error) {
	var body struct {
		Variables []dapVariable `json:"variables"`
	}
	err := t.Request(ctx, "variables", variablesArgs{VariablesReference: ref, Filter: filter, Start: start, Count: count}, &body)
	return body.Variables, err
}

func inspectVariables(ctx context.Context, t Target, frameID int, path Path, opts Options) (*Result, error) {
	expr := path.String()
	if t.Adapter() == "dlv" {
		var err error
		if expr, err = path.goExpr(); err != nil {
			return nil, err
		}
	}
	var ev dapEvalBody
	if err := t.Request(ctx, "evaluate", evaluateArgs{Expression: expr, FrameID: frameID, Context: "watch"}, &ev); err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		msg := err.Error()
		if notFoundRe.MatchString(msg) {
			e := &Error{Code: CodeVariableNotFound, Message: msg}
			if len(path) == 1 {
				e.Hint = "pick one of available_variables, or another frame"
				e.AvailableVariables = frameNames(ctx, t, frameID)
			}
			return nil, e
		}
		return nil, &Error{Code: CodeInternal, Message: msg}
	}
	r := &Result{Name: path.String(), Type: ev.Type, Source: "variables", VariablesReference: ev.VariablesReference}
	b := &treeBuilder{ctx: ctx, t: t, opts: opts, r: r}
	b.build(ev)
	return r, nil
}

// frameNames lists the frame's variable names (cheap scopes only, bounded).
func frameNames(ctx context.Context, t Target, frameID int) []string {
	var body struct {
		Scopes []dapScope `json:"scopes"`
	}
	if err := t.Request(ctx, "scopes", scopesArgs{FrameID: frameID}, &body); err != nil {
		return nil
	}
	var names []string
	for _, sc := range body.Scopes {
		if sc.Expensive || sc.VariablesReference == 0 {
			continue
		}
		vars, err := variables(ctx, t, sc.VariablesReference, "", 0, 0)
		if err != nil {
			continue
		}
		for _, v := range vars {
			if len(names) >= 50 {
				return names
			}
			if v.Name != "" && !strings.HasPrefix(v.Name, "(") && !strings.HasPrefix(v.Name, "~") {
				names = append(names, v.Name)
			}
		}
	}
	return names
}

type treeBuilder struct {
	ctx  context.Context
	t    Target
	opts Options
	r    *Result
}

func (b *treeBuilder) warn(format string, args ...any) {
	b.r.Warnings = append(b.r.Warnings, fmt.Sprintf(format, args...))
}

func (b *treeBuilder) children(ref int, filter string, start, count int) []dapVariable {
	if ref == 0 {
		return nil
	}
	vars, err := variables(b.ctx, b.t, ref, filter, start, count)
	if err != nil {
		b.warn("variables request failed: %v", err)
		b.r.Partial = true
	}
	return vars
}

func (b *treeBuilder) build(ev dapEvalBody) {
	typ := ev.Type
	s := &Structure{}
	b.r.Structure = s
	switch {
	case strings.HasPrefix(typ, "[]"):
		b.r.DetectedType = TypeSlice
		b.sequence(ev, typ[2:])
	case strings.HasPrefix(typ, "[") && strings.Contains(typ, "]"):
		b.r.DetectedType = TypeArray
		b.sequence(ev, typ[strings.Index(typ, "]")+1:])
	case strings.HasPrefix(typ, "map["):
		b.r.DetectedType = TypeMap
		b.mapping(ev)
	case strings.HasPrefix(typ, "*"):
		b.r.DetectedType = TypePointer
		b.pointer(ev)
	case typ == "string":
		b.r.DetectedType = TypeStr
		b.str(ev.Result)
	case typ == "bool":
		b.r.DetectedType = TypeBool
		s.Value = ev.Result == "true"
	case isGoInt(typ):
		b.r.DetectedType = TypeInt
		s.Value = numberCell(ev.Result)
	case strings.HasPrefix(typ, "float"):
		b.r.DetectedType = TypeFloat
		s.Value = numberCell(ev.Result)
	case strings.HasPrefix(typ, "complex"):
		b.r.DetectedType = TypeComplex
		s.Value = ev.Result
	case ev.VariablesReference > 0 && ev.IndexedVariables > 0:
		b.r.DetectedType = TypeList
		b.sequence(ev, "")
	case ev.VariablesReference > 0 && !strings.HasPrefix(typ, "interface") && typ != "error":
		b.r.DetectedType = TypeStruct
		b.structure(ev.VariablesReference, typ)
	default:
		b.r.DetectedType = TypeUnknown
		b.r.Preview = &Preview{Repr: clip.Bytes.Head(ev.Result, 256)}
		b.r.Hint = "no specialised view for " + typ + "; drill down with variables_reference"
	}
}

func isGoInt(t string) bool {
	switch t {
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "uintptr", "byte", "rune":
		return true
	}
	return false
}

func isGoNumeric(t string) bool { return isGoInt(t) || t == "float32" || t == "float64" }

// numberCell keeps a numeric literal exact (json.Number), or the text.
func numberCell(v string) any {
	if _, err := strconv.ParseFloat(v, 64); err == nil {
		if !strings.ContainsAny(v, "IN") { // +Inf, NaN are not JSON numbers
			return json.Number(v)
		}
	}
	return v
}

// cellOf turns a DAP value into a JSON-safe preview cell.
func cellOf(v dapVariable) any {
	switch {
	case v.Type == "bool":
		return v.Value == "true"
	case isGoNumeric(v.Type) || strings.HasSuffix(v.Type, ": int") || strings.HasSuffix(v.Type, ": float64"):
		return numberCell(v.Value)
	case v.Type == "string" || strings.HasSuffix(v.Type, ": string"):
		if s, _, ok := unquoteShown(v.Value); ok {
			return clip.Runes.Head(s, 256)
		}
	}
	return clip.Runes.Head(v.Value, 256)
}

// unquoteShown decodes a Go string as Delve shows it ("…"...+N more) and
// returns the shown part and the count of bytes not shown.
func unquoteShown(v string) (string, int64, bool) {
	var more int64
	if m := moreRe.FindStringSubmatch(v); m != nil {
		more, _ = strconv.ParseInt(m[1], 10, 64)
		v = strings.TrimSuffix(v[:len(v)-len(m[0])], `"`) + `"`
		if !strings.HasPrefix(v, `"`) {
			v = `"` + v
		}
	}
	s, err := strconv.Unquote(v)
	if err != nil {
		return v, more, false
	}
	return s, more, true
}

func (b *treeBuilder) str(v string) {
	s, more, ok := unquoteShown(v)
	if !ok {
		b.r.Preview = &Preview{Text: clip.Bytes.Head(v, 512)}
		return
	}
	n := int64(len(s)) + more
	b.r.Structure.Length = &n
	p := &Preview{Text: s}
	if more > 0 || len(s) > 250 {
		p.Text = clip.Runes.Head(s, 250)
		p.IsTruncated = true
	}
	b.r.Preview = p
}

func (b *treeBuilder) sequence(ev dapEvalBody, elem string) {
	s := b.r.Structure
	s.ElementType = elem
	n := int64(ev.IndexedVariables)
	if m := lenCapRe.FindStringSubmatch(ev.Result); m != nil {
		n, _ = strconv.ParseInt(m[1], 10, 64)
		if m[2] != "" {
			c, _ := strconv.ParseInt(m[2], 10, 64)
			s.Cap = &c
		}
	} else if strings.HasPrefix(ev.Type, "[") {
		if k, err := strconv.ParseInt(ev.Type[1:strings.Index(ev.Type, "]")], 10, 64); err == nil {
			n = k
		}
	}
	s.Length = &n
	s.Shape = []int64{n}
	if strings.HasSuffix(ev.Result, " nil") {
		s.Nil = true
	}
	if depth := 1 + strings.Count(elem, "[]") + strings.Count(elem, "map["); depth > 1 {
		s.Depth = &depth
	}
	if ev.VariablesReference == 0 || n == 0 {
		return
	}
	items := int64(b.opts.MaxPreviewItems)
	wantAll := isGoNumeric(elem) && n <= statsFetchLimit && (b.opts.IncludeStatistics == nil || *b.opts.IncludeStatistics)
	headN := min(n, items)
	tailN := int64(0)
	if n > items {
		headN = items - max(1, items/3)
		tailN = items - headN
	}
	var all []dapVariable
	if wantAll {
		all = b.children(ev.VariablesReference, "indexed", 0, int(n))
	}
	head := all
	if head == nil {
		head = b.children(ev.VariablesReference, "indexed", 0, int(headN))
	}
	p := &Preview{}
	for i, v := range head {
		if int64(i) >= headN {
			break
		}
		idx := int64(i)
		p.Items = append(p.Items, Item{Index: &idx, Value: cellOf(v), Type: v.Type})
	}
	if tailN > 0 {
		tail := []dapVariable(nil)
		if all != nil && int64(len(all)) == n {
			tail = all[n-tailN:]
		} else {
			tail = b.children(ev.VariablesReference, "indexed", int(n-tailN), int(tailN))
		}
		for i, v := range tail {
			idx := n - tailN + int64(i)
			p.TailItems = append(p.TailItems, Item{Index: &idx, Value: cellOf(v), Type: v.Type})
		}
		p.IsTruncated = true
	}
	b.r.Preview = p
	switch {
	case wantAll && int64(len(all)) == n:
		b.r.Statistics = numericStats(all)
	case isGoNumeric(elem) && n > statsFetchLimit:
		b.r.Statistics = &Statistics{Skipped: fmt.Sprintf("over %s elements: not fetched through the variables tree", commas(statsFetchLimit))}
	}
}

func numericStats(vars []dapVariable) *Statistics {
	var xs []float64
	for _, v := range vars {
		f, err := strconv.ParseFloat(v.Value, 64)
		if err != nil {
			return nil
		}
		xs = append(xs, f)
	}
	if len(xs) == 0 {
		return nil
	}
	n := int64(len(xs))
	st := &Statistics{Count: &n}
	mn, mx, sum := math.Inf(1), math.Inf(-1), 0.0
	var zeros, nan, inf int64
	var fin []float64
	for _, x := range xs {
		switch {
		case math.IsNaN(x):
			nan++
			continue
		case math.IsInf(x, 0):
			inf++
			continue
		}
		if x == 0 {
			zeros++
		}
		mn, mx, sum = math.Min(mn, x), math.Max(mx, x), sum+x
		fin = append(fin, x)
	}
	st.Zeros, st.NaNCount, st.InfCount = &zeros, &nan, &inf
	if len(fin) == 0 {
		return st
	}
	mean := sum / float64(len(fin))
	ss := 0.0
	for _, x := range fin {
		ss += (x - mean) * (x - mean)
	}
	st.Min, st.Max = round6(mn), round6(mx)
	st.Mean, st.Std = round6(mean), round6(math.Sqrt(ss/float64(len(fin))))
	sort.Float64s(fin)
	q := func(p float64) any { // linear interpolation, as numpy.percentile
		pos := p / 100 * float64(len(fin)-1)
		lo := int(math.Floor(pos))
		hi := min(lo+1, len(fin)-1)
		return round6(fin[lo] + (fin[hi]-fin[lo])*(pos-float64(lo)))
	}
	st.Quantiles = &Quantiles{P5: q(5), P25: q(25), P50: q(50), P75: q(75), P95: q(95)}
	distinct := int64(1)
	for i := 1; i < len(fin); i++ {
		if fin[i] != fin[i-1] {
			distinct++
		}
	}
	st.Distinct = &distinct
	return st
}

func round6(x float64) any {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return json.Number(strconv.FormatFloat(v, 'g', -1, 64))
}

func (b *treeBuilder) mapping(ev dapEvalBody) {
	s := b.r.Structure
	kt, vt := splitMapType(ev.Type)
	s.KeyType, s.ElementType = kt, vt
	n := int64(ev.IndexedVariables)
	if strings.HasSuffix(ev.Result, " nil") {
		s.Nil = true
	}
	items := b.opts.MaxPreviewItems
	var p Preview
	for _, v := range b.children(ev.VariablesReference, "", 0, items+1) {
		if v.Name == "len()" {
			if k, err := strconv.ParseInt(v.Value, 10, 64); err == nil {
				n = k
			}
			continue
		}
		if len(p.Items) >= items {
			break
		}
		key := any(v.Name)
		if s, _, ok := unquoteShown(v.Name); ok {
			key = s
		} else if isGoNumeric(kt) {
			key = numberCell(v.Name)
		}
		val := v
		val.Type = vt
		p.Items = append(p.Items, Item{Key: key, Value: cellOf(val), Type: vt})
	}
	s.Length = &n
	if int64(len(p.Items)) < n {
		p.IsTruncated = true
	}
	if len(p.Items) > 0 {
		b.r.Preview = &p
	}
}

// splitMapType splits "map[K]V" with nested brackets in K.
func splitMapType(t string) (string, string) {
	rest := strings.TrimPrefix(t, "map[")
	depth := 1
	for i, c := range rest {
		switch c {
		case '[':
			depth++
		case ']':
			depth--
			if depth == 0 {
				return rest[:i], rest[i+1:]
			}
		}
	}
	return "", ""
}

func (b *treeBuilder) structure(ref int, typ string) {
	s := b.r.Structure
	s.Class = typ
	s.Kind = "struct"
	vars := b.children(ref, "", 0, 0)
	n := int64(len(vars))
	s.AttributeCount = &n
	for i, v := range vars {
		s.Fields = append(s.Fields, Field{Name: v.Name, Dtype: v.Type})
		if i < b.opts.MaxPreviewItems {
			a := Attribute{Name: v.Name, Type: v.Type, Repr: clip.Runes.Head(v.Value, 256)}
			a.IsTruncated = a.Repr != v.Value
			s.Attributes = append(s.Attributes, a)
		}
	}
	if len(vars) > b.opts.MaxPreviewItems {
		b.warn("showing %d of %d fields", b.opts.MaxPreviewItems, len(vars))
	}
}

func (b *treeBuilder) pointer(ev dapEvalBody) {
	s := b.r.Structure
	s.Target = strings.TrimPrefix(ev.Type, "*")
	if ev.VariablesReference == 0 || strings.HasSuffix(ev.Result, " nil") {
		s.Nil = true
		return
	}
	kids := b.children(ev.VariablesReference, "", 0, 0)
	if len(kids) == 1 && kids[0].VariablesReference > 0 && kids[0].Name == "" {
		// Delve's single child is the pointee: show its fields.
		b.structure(kids[0].VariablesReference, kids[0].Type)
		s.Class = ev.Type
		return
	}
	b.r.Preview = &Preview{Repr: clip.Runes.Head(ev.Result, 256)}
}
