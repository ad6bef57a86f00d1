// schema_bounds_test.go: the derived input schemas against the limits they
// state (every bounded number has minimum and maximum, equal to the limits
// the code uses), the strict decoder's range and union errors, and the
// decoder against github.com/google/jsonschema-go's own validator: on
// well-typed arguments both accept and refuse the same inputs.

package mcp

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// argTypes: each tool's argument type (a tool added without an entry here
// fails TestDecoderAgreesWithJSONSchema).
var argTypes = map[string]reflect.Type{
	"code_inspect": reflect.TypeFor[codeInspectArgs](), "debug_attach": reflect.TypeFor[attachArgs](),
	"debug_breakpoints": reflect.TypeFor[breakpointsArgs](), "debug_continue": reflect.TypeFor[moveArgs](),
	"debug_diff": reflect.TypeFor[diffArgs](), "debug_evaluate": reflect.TypeFor[evaluateArgs](),
	"debug_inspect_variable": reflect.TypeFor[inspectArgs](), "debug_launch": reflect.TypeFor[launchArgs](),
	"debug_outcome": reflect.TypeFor[outcomeArgs](), "debug_output": reflect.TypeFor[outputArgs](),
	"debug_pause": reflect.TypeFor[moveArgs](), "debug_scopes": reflect.TypeFor[scopesArgs](),
	"debug_sessions": reflect.TypeFor[sessionsArgs](), "debug_set_breakpoints": reflect.TypeFor[setBreakpointsArgs](),
	"debug_set_variable": reflect.TypeFor[setVariableArgs](), "debug_snapshot": reflect.TypeFor[snapshotArgs](),
	"debug_stack": reflect.TypeFor[stackArgs](), "debug_step": reflect.TypeFor[stepArgs](),
	"debug_terminate": reflect.TypeFor[terminateArgs](), "debug_variables": reflect.TypeFor[variablesArgs](),
	"debug_wait": reflect.TypeFor[waitArgs](), "debug_watch": reflect.TypeFor[watchArgs](),
	"kernel_attach": reflect.TypeFor[kernelAttachArgs](), "kernel_list": reflect.TypeFor[kernelListArgs](),
	"ray_list": reflect.TypeFor[rayListArgs](),
}

// decodeAs decodes raw into a new value of type t.
func decodeAs(t reflect.Type, raw []byte) error {
	return decodeArgs(raw, reflect.New(t).Interface())
}

func TestSchemaBounds(t *testing.T) {
	prop := func(t reflect.Type, path ...string) *jsonschema.Schema {
		s := inputSchema(t)
		for _, p := range path {
			if p == "[]" {
				s = s.Items
			} else {
				s = s.Properties[p]
			}
		}
		return s
	}
	type bound struct {
		typ      reflect.Type
		path     []string
		min, max float64
	}
	for _, b := range []bound{
		{reflect.TypeFor[variablesArgs](), []string{"max_items"}, 1, maxVarItems},
		{reflect.TypeFor[variablesArgs](), []string{"depth"}, 1, 2},
		{reflect.TypeFor[stackArgs](), []string{"levels"}, 1, 200},
		{reflect.TypeFor[evaluateArgs](), []string{"timeout"}, 0, 60},
		{reflect.TypeFor[waitArgs](), []string{"timeout"}, 0, 600},
		{reflect.TypeFor[launchArgs](), []string{"timeout"}, 0, 600},
		{reflect.TypeFor[attachArgs](), []string{"port"}, 1, 65535},
		{reflect.TypeFor[codeInspectArgs](), []string{"max_neighbors"}, 0, 50},
		{reflect.TypeFor[inspectArgs](), []string{"max_preview_rows"}, 1, inspect.MaxPreview},
		{reflect.TypeFor[inspectArgs](), []string{"max_preview_items"}, 1, inspect.MaxPreview},
		{reflect.TypeFor[inspectArgs](), []string{"timeout"}, inspect.MinTimeout, inspect.MaxTimeout},
		{reflect.TypeFor[inspectArgs](), []string{"max_bytes"}, 2 << 10, DefaultMaxResponseBytes},
		{reflect.TypeFor[inspectArgs](), []string{"width"}, 40, 300},
		{reflect.TypeFor[inspectArgs](), []string{"rows", "limit"}, 0, inspect.MaxPageRows},
		{reflect.TypeFor[outputArgs](), []string{"limit"}, 1, 40 << 10},
	} {
		s := prop(b.typ, b.path...)
		if s.Minimum == nil || s.Maximum == nil || *s.Minimum != b.min || *s.Maximum != b.max {
			t.Errorf("%v %v: bounds %v..%v, want %v..%v", b.typ, b.path, s.Minimum, s.Maximum, b.min, b.max)
		}
	}
	if s := prop(reflect.TypeFor[snapshotArgs](), "inspect"); s.MaxItems == nil || *s.MaxItems != 10 {
		t.Errorf("snapshot inspect: maxItems %v, want 10", s.MaxItems)
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[launchArgs](), reflect.TypeFor[attachArgs](), reflect.TypeFor[setBreakpointsArgs]()} {
		if s := prop(typ, "breakpoints"); s.MaxItems == nil || *s.MaxItems != session.MaxBreakpoints {
			t.Errorf("%v breakpoints: maxItems %v, want %d", typ, s.MaxItems, session.MaxBreakpoints)
		}
	}
	if s := prop(reflect.TypeFor[attachArgs](), "connect_timeout"); s.Minimum == nil || s.Maximum == nil || *s.Maximum != 600 {
		t.Errorf("attach connect_timeout: bounds %v..%v", s.Minimum, s.Maximum)
	}
	for _, p := range [][]string{{"columns", "[]"}, {"sort", "[]", "column"}} {
		if s := prop(reflect.TypeFor[inspectArgs](), p...); fmt.Sprint(s.Types) != "[string integer]" {
			t.Errorf("inspect %v: types %v, want a name or a position", p, s.Types)
		}
	}
	// No tool schema holds a boolean subschema (`true`): several MCP
	// clients drop a server's whole tool list over one.
	for name, typ := range argTypes {
		b, _ := json.Marshal(inputSchema(typ))
		if rest := strings.ReplaceAll(string(b), `"additionalProperties":false`, ""); strings.Contains(rest, ":true") || strings.Contains(rest, ":false") {
			t.Errorf("%s: boolean subschema in %s", name, b)
		}
	}
}

func TestDecodeArgsRanges(t *testing.T) {
	for _, c := range []struct {
		typ       reflect.Type
		in, field string
		want      string // "" = accepted
	}{
		{reflect.TypeFor[variablesArgs](), `{"depth":3}`, "depth", "must be 1 or 2 (got 3)"},
		{reflect.TypeFor[variablesArgs](), `{"max_items":0}`, "max_items", "must be 1..50 (got 0)"},
		{reflect.TypeFor[variablesArgs](), `{"max_items":"50"}`, "", ""},
		{reflect.TypeFor[waitArgs](), `{"timeout":600.5}`, "timeout", "at most 600 (got 600.5)"},
		{reflect.TypeFor[waitArgs](), `{"timeout":"-1"}`, "timeout", "must not be negative (got -1)"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","timeout":0.05}`, "timeout", "must be 0.1..10 (got 0.05)"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","rows":{"offset":-3}}`, "rows.offset", "must not be negative"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","columns":["3",2,"b*"],"sort":[{"column":0}]}`, "", ""},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","columns":[1.5]}`, "columns[0]", "expected an integer, got number 1.5"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","sort":[{"column":true}]}`, "sort[0].column", "expected string or integer, got boolean"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","sort":[{}]}`, "sort[0].column", "required"},
		{reflect.TypeFor[snapshotArgs](), `{"inspect":["a","b","c","d","e","f","g","h","i","j","k"]}`, "inspect", "at most 10 items (got 11)"},
		{reflect.TypeFor[attachArgs](), `{"port":70000}`, "port", "must be 1..65535"},
		{reflect.TypeFor[watchArgs](), `{"action":" "}`, "action", "must be one of add, remove"},
		{reflect.TypeFor[evaluateArgs](), `{"expression":"  "}`, "expression", "required (empty)"},
		{reflect.TypeFor[sessionsArgs](), `{"x":1}`, "x", `unknown field "x" (allowed: none)`},
		// 2^63-1 is an integer: a bound error, not "expected an integer" (issue 28).
		{reflect.TypeFor[outputArgs](), `{"offset":9223372036854775807}`, "offset", "at most 9007199254740992 in absolute value, the largest integer JSON carries exactly (got 9223372036854775807)"},
		{reflect.TypeFor[inspectArgs](), `{"expression":"df","rows":{"offset":9223372036854775807}}`, "rows.offset", "at most 9007199254740992 in absolute value"},
		{reflect.TypeFor[outputArgs](), `{"offset":9007199254740992}`, "", ""},
		{reflect.TypeFor[setBreakpointsArgs](), `{"file":"a.py","breakpoints":[` + strings.Repeat(`{"line":1},`, 1000) + `{"line":2}]}`, "breakpoints", "at most 1000 items (got 1001)"},
	} {
		var v = reflect.New(c.typ)
		err := decodeArgs([]byte(c.in), v.Interface())
		te := errcode.Error{}
		if err != nil {
			te = toolError(err)
		}
		if c.want == "" && err != nil || c.want != "" && (te.Field != c.field || !strings.Contains(te.Message, c.want)) {
			t.Errorf("%v %s: %+v; want %q on %q", c.typ, c.in, te, c.want, c.field)
		}
	}
	// A column that looks like a number stays a name.
	var p inspectArgs
	if err := decodeArgs([]byte(`{"expression":"df","columns":["3",3]}`), &p); err != nil || p.selection().Columns[0] != "3" || p.selection().Columns[1] != float64(3) {
		t.Fatalf("columns = %#v, %v", p.Columns, err)
	}
}

// TestDecoderAgreesWithJSONSchema: for arguments of the right JSON types
// (no numeric strings, no nulls: dapscope's own coercions), the strict
// decoder accepts exactly what jsonschema-go's validator accepts against
// the same schema: at and past every bound, every enum, unknown and
// missing fields. The tools/list schema is the one the decoder enforces.
func TestDecoderAgreesWithJSONSchema(t *testing.T) {
	_, srv := newServer(t, Options{})
	for _, tl := range srv.MCP().ListTools() {
		typ, ok := argTypes[tl.Tool.Name]
		if !ok {
			t.Errorf("%s: no argument type in argTypes", tl.Tool.Name)
			continue
		}
		s := inputSchema(typ)
		if b, _ := json.Marshal(s); string(b) != string(tl.Tool.RawInputSchema) {
			t.Errorf("%s: tools/list schema is not the decoder's:\n%s\n%s", tl.Tool.Name, tl.Tool.RawInputSchema, b)
		}
		resolved, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", tl.Tool.Name, err)
		}
		cases := variants(valid(s), s)
		accepted := 0
		for _, c := range cases {
			raw, _ := json.Marshal(c)
			var v any
			_ = json.Unmarshal(raw, &v)
			libErr := resolved.Validate(v)
			ourErr := decodeAs(typ, raw)
			if (libErr == nil) != (ourErr == nil) {
				t.Errorf("%s %s: jsonschema-go says %v, the decoder %v", tl.Tool.Name, raw, libErr, ourErr)
			}
			if ourErr == nil {
				accepted++
			}
		}
		if accepted == 0 || accepted == len(cases) {
			t.Errorf("%s: %d of %d cases accepted; the cases test nothing", tl.Tool.Name, accepted, len(cases))
		}
	}
}

// valid builds a value that satisfies s: its required fields, each valid.
func valid(s *jsonschema.Schema) any {
	switch {
	case len(s.Types) > 0:
		return "a"
	case len(s.Enum) > 0:
		return s.Enum[0]
	}
	switch s.Type {
	case "string":
		return "a"
	case "integer", "number":
		if s.Minimum != nil {
			return *s.Minimum
		}
		return 1.0
	case "boolean":
		return true
	case "array":
		return []any{}
	case "object":
		m := map[string]any{}
		for _, r := range s.Required {
			m[r] = valid(s.Properties[r])
		}
		return m
	}
	return nil
}

// variants of the valid object base: base itself, with an unknown field,
// without each required field, and each property at and past its bounds,
// off its enum, of another type, and one level down for nested objects.
func variants(base any, s *jsonschema.Schema) []any {
	obj, ok := base.(map[string]any)
	if !ok {
		return nil
	}
	with := func(k string, v any) map[string]any {
		m := map[string]any{}
		for k, v := range obj {
			m[k] = v
		}
		if v == nil {
			delete(m, k)
		} else {
			m[k] = v
		}
		return m
	}
	out := []any{base, with("no_such_field", 1)}
	for _, r := range s.Required {
		out = append(out, with(r, nil))
	}
	for _, name := range s.PropertyOrder {
		p := s.Properties[name]
		step := 1.0
		if p.Type == "number" {
			step = 0.05
		}
		if p.Minimum != nil {
			out = append(out, with(name, *p.Minimum), with(name, *p.Minimum-step))
		}
		if p.Maximum != nil {
			out = append(out, with(name, *p.Maximum), with(name, *p.Maximum+step))
		}
		if p.Type == "integer" {
			out = append(out, with(name, valid(p).(float64)+0.5))
		}
		if len(p.Enum) > 0 {
			out = append(out, with(name, p.Enum[len(p.Enum)-1]), with(name, "no-such-value"))
		}
		if p.MaxItems != nil {
			items := make([]any, *p.MaxItems+1)
			for i := range items {
				items[i] = valid(p.Items)
			}
			out = append(out, with(name, items[1:]), with(name, items))
		}
		switch p.Type {
		case "string", "array", "object":
			out = append(out, with(name, 7))
		default:
			out = append(out, with(name, []any{}))
		}
		if p.Type == "object" && p.Properties != nil {
			for _, v := range variants(valid(p), p) {
				out = append(out, with(name, v))
			}
		}
		if p.Type == "array" && p.Items != nil && p.Items.Type == "object" {
			for _, v := range variants(valid(p.Items), p.Items) {
				out = append(out, with(name, []any{v}))
			}
		}
	}
	return out
}
