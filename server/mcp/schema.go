// schema.go: JSON Schemas derived from the Go argument and result types of
// the tools, and the strict argument decoder that enforces them: unknown
// fields are rejected by name, numeric fields also take numeric strings
// (some agents send "12"), required fields must be present, enums hold.
//
// Struct tags drive both: `json:"name,omitempty"` names a field,
// `desc:"…"` documents it, `mcp:"required"` requires it, `enum:"a,b"` lists
// its values.

package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

// fieldInfo is one JSON field of a struct type.
type fieldInfo struct {
	name      string
	index     []int
	typ       reflect.Type
	desc      string
	required  bool
	enum      []string
	omitempty bool
}

// jsonFields lists the JSON fields of struct type t (embedded structs
// flattened, `json:"-"` skipped).
func jsonFields(t reflect.Type) []fieldInfo {
	var out []fieldInfo
	var walk func(t reflect.Type, index []int)
	walk = func(t reflect.Type, index []int) {
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			tag := f.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if f.Anonymous && name == "" {
				ft := f.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					walk(ft, idx)
					continue
				}
			}
			if !f.IsExported() {
				continue
			}
			if name == "" {
				name = f.Name
			}
			fi := fieldInfo{name: name, index: idx, typ: f.Type, desc: f.Tag.Get("desc"),
				required: f.Tag.Get("mcp") == "required", omitempty: strings.Contains(opts, "omitempty")}
			if e := f.Tag.Get("enum"); e != "" {
				fi.enum = strings.Split(e, ",")
			}
			out = append(out, fi)
		}
	}
	walk(t, nil)
	return out
}

var (
	timeType = reflect.TypeFor[time.Time]()
	rawType  = reflect.TypeFor[json.RawMessage]()
)

// inputSchema is the strict schema of an arguments struct.
func inputSchema(t reflect.Type) map[string]any {
	return schemaOf(t, true, 0)
}

// outputSchema says that a tool's structured content is an object. Every
// agent pays for tools/list in every conversation (43.6 KB with detailed
// output schemas, 22.7 KB of them), so the result shapes are documented in
// docs/mcp.md and rendered in each result's text instead.
func outputSchema() map[string]any { return map[string]any{"type": "object"} }

// maxOutputDepth bounds how deep output schemas describe nested values (the
// tool list is read by agents: deeper values are typed, not detailed).
const maxOutputDepth = 1

func schemaOf(t reflect.Type, strict bool, depth int) map[string]any {
	if depth > 6 {
		return map[string]any{}
	}
	if !strict && depth > maxOutputDepth {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Struct, reflect.Map:
			if t != timeType {
				return map[string]any{"type": "object"}
			}
		case reflect.Slice, reflect.Array:
			if t != rawType {
				return map[string]any{"type": "array"}
			}
		}
	}
	if t == timeType {
		return map[string]any{"type": "string", "format": "date-time"}
	}
	if t == rawType {
		return map[string]any{}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), strict, depth)
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return map[string]any{"type": "integer"}
	case reflect.Float32, reflect.Float64:
		return map[string]any{"type": "number"}
	case reflect.String:
		return map[string]any{"type": "string"}
	case reflect.Slice, reflect.Array:
		return map[string]any{"type": "array", "items": schemaOf(t.Elem(), strict, depth+1)}
	case reflect.Map:
		return map[string]any{"type": "object", "additionalProperties": schemaOf(t.Elem(), strict, depth+1)}
	case reflect.Struct:
		props := map[string]any{}
		var req []string
		for _, f := range jsonFields(t) {
			ps := schemaOf(f.typ, strict, depth+1)
			if !strict && !f.omitempty {
				switch f.typ.Kind() {
				case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
					if ty, ok := ps["type"].(string); ok {
						ps["type"] = []string{ty, "null"}
					}
				}
			}
			if f.desc != "" {
				ps["description"] = f.desc
			}
			if len(f.enum) > 0 {
				ps["enum"] = f.enum
			}
			props[f.name] = ps
			if f.required {
				req = append(req, f.name)
			}
		}
		s := map[string]any{"type": "object", "properties": props}
		if strict {
			s["additionalProperties"] = false
		}
		if len(req) > 0 {
			s["required"] = req
		}
		return s
	}
	return map[string]any{} // interface{}: anything
}

// argError is a strict-decoding failure.
func argError(field, format string, args ...any) *errcode.Error {
	return &errcode.Error{Code: errcode.InvalidArgument, Field: field, Message: fmt.Sprintf(format, args...)}
}

// decodeArgs strictly decodes raw JSON arguments into out (a pointer to an
// arguments struct).
func decodeArgs(raw []byte, out any) error {
	raw = bytes.TrimSpace(raw)
	var v any = map[string]any{}
	if len(raw) > 0 && string(raw) != "null" {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&v); err != nil {
			return argError("", "arguments are not valid JSON: %v", err)
		}
	}
	rv := reflect.ValueOf(out).Elem()
	norm, err := normalize(v, rv.Type(), "")
	if err != nil {
		return err
	}
	b, err := json.Marshal(norm)
	if err != nil {
		return argError("", "%v", err)
	}
	if err := json.Unmarshal(b, out); err != nil {
		return argError("", "%v", err)
	}
	return nil
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func jsonKind(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number " + v.String()
	case string:
		if len(v) > 40 {
			v = v[:40] + "…"
		}
		return fmt.Sprintf("string %q", v)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// normalize checks v against t and returns it with numeric strings turned
// into numbers.
func normalize(v any, t reflect.Type, path string) (any, error) {
	if t.Kind() == reflect.Pointer {
		if v == nil {
			return nil, nil
		}
		return normalize(v, t.Elem(), path)
	}
	if t == rawType || t.Kind() == reflect.Interface {
		return v, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
				return b, nil
			}
		}
		return nil, argError(path, "expected a boolean, got %s", jsonKind(v))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		f, ok := finiteNumber(v)
		if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			return nil, argError(path, "expected an integer, got %s", jsonKind(v))
		}
		if f < 0 && t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64 {
			return nil, argError(path, "must not be negative")
		}
		return json.Number(strconv.FormatInt(int64(f), 10)), nil
	case reflect.Float32, reflect.Float64:
		f, ok := finiteNumber(v)
		if !ok {
			return nil, argError(path, "expected a number, got %s", jsonKind(v))
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return nil, argError(path, "expected a string, got %s", jsonKind(v))
		}
		return s, nil
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			if v == nil {
				return nil, nil
			}
			return nil, argError(path, "expected an array, got %s", jsonKind(v))
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			if k := t.Elem().Kind(); e == nil && k != reflect.Pointer && k != reflect.Interface {
				// A null element would decode as a zero value and slip past
				// the element's required fields.
				return nil, argError(fmt.Sprintf("%s[%d]", path, i), "expected a value, got null")
			}
			n, err := normalize(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i))
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			if v == nil {
				return nil, nil
			}
			return nil, argError(path, "expected an object, got %s", jsonKind(v))
		}
		out := map[string]any{}
		for k, e := range m {
			n, err := normalize(e, t.Elem(), join(path, k))
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			if v == nil && path != "" {
				return nil, nil
			}
			return nil, argError(path, "expected an object, got %s", jsonKind(v))
		}
		fields := jsonFields(t)
		known := map[string]fieldInfo{}
		var names []string
		for _, f := range fields {
			known[f.name] = f
			names = append(names, f.name)
		}
		var unknown []string
		for k := range m {
			if _, ok := known[k]; !ok {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			q := make([]string, len(unknown))
			for i, u := range unknown {
				q[i] = strconv.Quote(u)
			}
			word := "field"
			if len(unknown) > 1 {
				word = "fields"
			}
			allowed := "none"
			if len(names) > 0 {
				allowed = strings.Join(names, ", ")
			}
			return nil, argError(join(path, unknown[0]), "unknown %s %s (allowed: %s)", word, strings.Join(q, ", "), allowed)
		}
		out := map[string]any{}
		for _, f := range fields {
			e, present := m[f.name]
			if !present || e == nil {
				if f.required {
					return nil, argError(join(path, f.name), "required")
				}
				continue
			}
			n, err := normalize(e, f.typ, join(path, f.name))
			if err != nil {
				return nil, err
			}
			if len(f.enum) > 0 {
				if s, ok := n.(string); ok && !slices.Contains(f.enum, s) {
					return nil, argError(join(path, f.name), "must be one of %s (got %q)", strings.Join(f.enum, ", "), s)
				}
			}
			if s, ok := n.(string); ok && f.required && strings.TrimSpace(s) == "" {
				return nil, argError(join(path, f.name), "required (empty)")
			}
			out[f.name] = n
		}
		return out, nil
	}
	return v, nil
}

// finiteNumber reads a JSON number, or a numeric string (some agents send
// those), as a finite float64.
func finiteNumber(v any) (float64, bool) {
	var f float64
	var err error
	switch x := v.(type) {
	case json.Number:
		f, err = x.Float64()
	case string:
		f, err = strconv.ParseFloat(strings.TrimSpace(x), 64)
	default:
		return 0, false
	}
	return f, err == nil && !math.IsNaN(f) && !math.IsInf(f, 0)
}
