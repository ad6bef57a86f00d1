// variables.go: variable references and the variables request — a scope's
// variables (with `this` and a return value in the local scope), an
// object's own properties (getters listed, never invoked), its internal
// ones ([[Prototype]], [[Entries]] of a Map or Set, [[PromiseState]]…) and
// private ones, and arrays paged by index (indexed/named filters, start,
// count) so a million-element array costs one page. A string too long to
// read whole (a 300 MB local) is read cut: V8 never sends it whole.

package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strconv"

	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// objectGroup holds the objects the adapter asked for; released whenever
// the program runs again.
const objectGroup = "dapscope"

// maxUnpaged is how many elements a variables request without a count
// returns for an array.
const maxUnpaged = 1000

// varRef is a variables reference: a scope of a frame or an object.
type varRef struct {
	object   runtime.RemoteObjectID
	frame    *debugger.CallFrame // the scope's frame
	scope    int                 // the scope's index in the frame's chain
	isScope  bool
	this     *runtime.RemoteObject // local scope: the frame's this
	ret      *runtime.RemoteObject // local scope: the value being returned
	length   int                   // arrays: their length
	array    bool
	evalName string // an expression for the object ("": none)
	long     bool   // a scope with strings too long to read whole (countScope)
}

// extras counts the variables a scope adds to its object's properties.
func (r *varRef) extras() int {
	n := 0
	if r.this != nil && r.this.Type != runtime.RemoteObjectTypeUndefined {
		n++
	}
	if r.ret != nil {
		n++
	}
	return n
}

func (s *Server) variables(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.VariablesArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	ref, th, err := live[*varRef](s, "variablesReference", a.VariablesReference)
	if err != nil {
		return nil, err
	}
	var out []godap.Variable
	switch {
	case ref.array && a.Filter != "named":
		count := a.Count
		if count <= 0 {
			count = maxUnpaged
		}
		if out, err = s.arrayPage(ctx, th, ref, a.Start, count); err != nil {
			return nil, err
		}
		if a.Filter == "" {
			named, err := s.properties(ctx, th, ref, true)
			if err != nil {
				return nil, err
			}
			out = append(out, named...)
		}
	case a.Filter == "indexed":
		out = []godap.Variable{}
	default:
		if out, err = s.properties(ctx, th, ref, ref.array); err != nil {
			return nil, err
		}
		if a.Start > 0 || a.Count > 0 {
			out = page(out, a.Start, a.Count)
		}
	}
	if out == nil {
		out = []godap.Variable{}
	}
	return godap.VariablesResponseBody{Variables: out}, nil
}

func page(vs []godap.Variable, start, count int) []godap.Variable {
	start = min(max(start, 0), len(vs))
	end := len(vs)
	if count > 0 {
		end = min(start+count, end)
	}
	return vs[start:end]
}

// sliceFn copies elements [s, s+c) of an array-like into a plain array
// (no species constructor, no user code but getters on the elements), a
// string longer than m cut to its first k code units.
const sliceFn = `function(s, c, m, k) { const n = Math.max(0, Math.min(c, this.length - s)); const o = new Array(n); for (let i = 0; i < n; i++) { const v = this[s + i]; o[i] = typeof v === 'string' && v.length > m ? v.slice(0, k) : v; } return o; }`

// longString is the length past which a string is read cut, to cutString
// code units (a variable shows at most maxValue; one more marks the cut).
const (
	longString = maxFullStr + 1
	cutString  = maxValue + 1
)

// countFn counts an object's own properties (a scope's variables) and says
// whether one is a string longer than m, without reading any value out.
const countFn = `function(m) { const names = Object.getOwnPropertyNames(this); let long = false; for (const k of names) { const d = Object.getOwnPropertyDescriptor(this, k); if (d && typeof d.value === 'string' && d.value.length > m) { long = true; break; } } return [names.length, long]; }`

// boundedFn copies an object's own properties into a new one, each string
// longer than m cut to its first c code units; accessors are copied as
// accessors (never run).
const boundedFn = `function(m, c) { const o = Object.create(null); for (const k of Object.getOwnPropertyNames(this)) { const d = Object.getOwnPropertyDescriptor(this, k); if (!d) continue; if ('value' in d && typeof d.value === 'string' && d.value.length > m) d.value = d.value.slice(0, c); Object.defineProperty(o, k, d); } return o; }`

// countScope counts a scope's variables; long says whether a string among
// them is too long to read whole (the scope's variables are then read
// through boundedFn).
func countScope(ctx context.Context, c caller, obj runtime.RemoteObjectID) (n int, long bool, err error) {
	res, err := call(ctx, c, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: countFn,
		ObjectID: obj, Silent: ptr(true), ReturnByValue: ptr(true),
		Arguments: []*runtime.CallArgument{{Value: []byte(strconv.Itoa(longString))}}})
	if err != nil {
		return 0, false, err
	}
	if res.ExceptionDetails != nil {
		return 0, false, errors.New(exceptionMessage(res.ExceptionDetails))
	}
	var v [2]any
	if err := json.Unmarshal(res.Result.Value, &v); err != nil {
		return 0, false, err
	}
	f, _ := v[0].(float64)
	b, _ := v[1].(bool)
	return int(f), b, nil
}

// bounded is a copy of obj whose long strings are cut (boundedFn).
func bounded(ctx context.Context, c caller, obj runtime.RemoteObjectID) (runtime.RemoteObjectID, error) {
	res, err := call(ctx, c, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: boundedFn,
		ObjectID: obj, ObjectGroup: objectGroup, Silent: ptr(true),
		Arguments: []*runtime.CallArgument{{Value: []byte(strconv.Itoa(longString))}, {Value: []byte(strconv.Itoa(cutString))}}})
	if err != nil {
		return "", err
	}
	if res.ExceptionDetails != nil {
		return "", fmt.Errorf("reading properties: %s", exceptionMessage(res.ExceptionDetails))
	}
	return res.Result.ObjectID, nil
}

// arrayPage is elements [start, start+count) of an array.
func (s *Server) arrayPage(ctx context.Context, th *thread, ref *varRef, start, count int) ([]godap.Variable, error) {
	c := th.c
	start = max(start, 0)
	if start >= ref.length {
		return nil, nil
	}
	count = min(count, ref.length-start)
	res, err := call(ctx, c, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: sliceFn,
		ObjectID: ref.object, ObjectGroup: objectGroup, Silent: ptr(true),
		Arguments: []*runtime.CallArgument{{Value: []byte(strconv.Itoa(start))}, {Value: []byte(strconv.Itoa(count))}, {Value: []byte(strconv.Itoa(longString))}, {Value: []byte(strconv.Itoa(cutString))}}})
	if err != nil {
		return nil, err
	}
	if res.ExceptionDetails != nil {
		return nil, fmt.Errorf("reading elements: %s", exceptionMessage(res.ExceptionDetails))
	}
	props, err := call(ctx, c, runtime.GetProperties, runtime.GetPropertiesParams{ObjectID: res.Result.ObjectID,
		OwnProperties: ptr(true), GeneratePreview: ptr(true)})
	if err != nil {
		return nil, err
	}
	out := make([]godap.Variable, 0, count)
	for _, p := range props.Result {
		i, err := strconv.Atoi(p.Name)
		if err != nil || p.Value == nil {
			continue
		}
		name := strconv.Itoa(start + i)
		out = append(out, s.variable(th, name, p.Value, indexName(ref.evalName, name)))
	}
	return out, nil
}

// properties lists an object's own, internal and private properties (a
// scope's variables); nonIndexed leaves array elements out. Strings too
// long to read whole are read cut (a scope known to hold one, or an
// object whose answer was too large).
func (s *Server) properties(ctx context.Context, th *thread, ref *varRef, nonIndexed bool) ([]godap.Variable, error) {
	c := th.c
	get := func(obj runtime.RemoteObjectID) (runtime.GetPropertiesResult, error) {
		params := runtime.GetPropertiesParams{ObjectID: obj, OwnProperties: ptr(true), GeneratePreview: ptr(true)}
		if nonIndexed {
			params.NonIndexedPropertiesOnly = ptr(true)
		}
		return call(ctx, c, runtime.GetProperties, params)
	}
	var props runtime.GetPropertiesResult
	var err error
	if !ref.long {
		props, err = get(ref.object)
	}
	if ref.long || errors.Is(err, errTooLarge) {
		var obj runtime.RemoteObjectID
		if obj, err = bounded(ctx, c, ref.object); err == nil {
			props, err = get(obj)
		}
	}
	if err != nil {
		return nil, err
	}
	if props.ExceptionDetails != nil {
		return nil, fmt.Errorf("reading properties: %s", exceptionMessage(props.ExceptionDetails))
	}
	var out []godap.Variable
	if ref.isScope {
		if ref.this != nil && ref.this.Type != runtime.RemoteObjectTypeUndefined {
			out = append(out, s.variable(th, "this", ref.this, "this"))
		}
		if ref.ret != nil {
			v := s.variable(th, "Return value", ref.ret, "")
			v.PresentationHint = &godap.VariablePresentationHint{Kind: "virtual"}
			out = append(out, v)
		}
	}
	for _, p := range props.Result {
		name := p.Name
		switch {
		case p.Value != nil:
			ev := name
			if !ref.isScope {
				ev = memberName(ref.evalName, name)
			}
			out = append(out, s.variable(th, name, p.Value, ev))
		case p.Get != nil && p.Get.Type == runtime.RemoteObjectTypeFunction:
			// A getter is listed, never invoked behind the user's back.
			out = append(out, godap.Variable{Name: name, Value: "(getter)", Type: "accessor",
				PresentationHint: &godap.VariablePresentationHint{Kind: "property", Attributes: []string{"readOnly"}}})
		}
	}
	for _, p := range props.PrivateProperties {
		if p.Value != nil {
			out = append(out, s.variable(th, p.Name, p.Value, ""))
		}
	}
	for _, p := range props.InternalProperties {
		if p.Value == nil {
			continue
		}
		v := s.variable(th, p.Name, p.Value, "")
		v.PresentationHint = &godap.VariablePresentationHint{Kind: "virtual", Visibility: "internal"}
		out = append(out, v)
	}
	return out, nil
}

// variable is a DAP variable for o; objects get a reference, arrays (and a
// Map's or Set's [[Entries]]) an indexed count.
func (s *Server) variable(th *thread, name string, o *runtime.RemoteObject, evalName string) godap.Variable {
	v := godap.Variable{Name: name, Value: valueText(o, maxValue), Type: typeName(o), EvaluateName: evalName}
	if o.ObjectID != "" {
		ref := &varRef{object: o.ObjectID, evalName: evalName}
		if n, ok := arrayLen(o); ok {
			ref.array, ref.length = true, n
			v.IndexedVariables = n
		}
		v.VariablesReference = s.newHandle(th, ref)
	}
	return v
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// memberName is the expression of property name of parent ("": none).
func memberName(parent, name string) string {
	switch {
	case parent == "":
		return ""
	case identRE.MatchString(name):
		return parent + "." + name
	case len(name) > 0 && name[0] == '[':
		return "" // an internal property or a symbol
	}
	return parent + "[" + strconv.Quote(name) + "]"
}

// indexName is the expression of element index of parent ("": none).
func indexName(parent, index string) string {
	if parent == "" {
		return ""
	}
	return parent + "[" + index + "]"
}
