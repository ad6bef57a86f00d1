// This file builds a Result from the DAP variables tree, for adapters without
// a Python probe (Delve now, any adapter later): one evaluate of the parsed
// path (rebuilt in the adapter's syntax, never the user's text), then a few
// bounded variables requests. This file holds the requests, the
// not-found error with the frame's names, and the dispatch on the Go type
// (treeBuilder.build); the views are in variables_values.go (scalars,
// strings), variables_sequence.go (slices/arrays: len, cap, element type,
// head/tail, exact stats for numeric slices up to 1,000 elements) and
// variables_composite.go (maps, structs, pointers).

package inspect

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

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
	if t.Language() == Go {
		var err error
		if expr, err = path.GoExpr(); err != nil {
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
			e := &errcode.Error{Code: errcode.VariableNotFound, Message: msg}
			if len(path) == 1 {
				e.Hint = "pick one of available_variables, or another frame"
				e.AvailableVariables = frameNames(ctx, t, frameID)
			}
			return nil, e
		}
		return nil, &errcode.Error{Code: errcode.Internal, Message: msg}
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
			if v.Name != "" && !strings.HasPrefix(v.Name, "(") && !strings.HasPrefix(v.Name, "~") && !ipythonName(v.Name) {
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

// ipythonName says whether name is one of IPython's history names (_i1,
// _3, _oh, _dh, _ih, _ii...), never worth suggesting in place of a
// missing variable.
func ipythonName(name string) bool {
	switch name {
	case "_", "__", "___", "_i", "_ii", "_iii", "_oh", "_dh", "_ih":
		return true
	}
	rest := strings.TrimPrefix(strings.TrimPrefix(name, "_"), "i")
	if rest == name || rest == "" || !strings.HasPrefix(name, "_") {
		return false
	}
	for _, c := range rest {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
