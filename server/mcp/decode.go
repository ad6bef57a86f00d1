// decode.go: the strict decoder of tool arguments. It walks the input
// schema (schema.go), not the Go type, with dapscope's own coercions:
// numeric strings become numbers and "true"/"false" booleans (some agents
// send those), and null stands for an absent optional field. Every failure
// is an INVALID_ARGUMENT naming the field and what it allows: unknown fields
// with the allowed ones, the range of a bounded number, an enum's values.

package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/google/jsonschema-go/jsonschema"
)

// argError is a strict-decoding failure.
func argError(field, format string, args ...any) *errcode.Error {
	return &errcode.Error{Code: errcode.InvalidArgument, Field: field, Message: fmt.Sprintf(format, args...)}
}

// decodeArgs strictly decodes raw JSON arguments into out (a pointer to an
// arguments struct) against the struct's input schema.
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
	norm, err := normalize(v, inputSchema(reflect.TypeOf(out).Elem()), "")
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

// jsonKind names a decoded JSON value for an error message.
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

// normalize checks v against s and returns it with numeric and boolean
// strings turned into numbers and booleans. An empty schema takes anything.
func normalize(v any, s *jsonschema.Schema, path string) (any, error) {
	if s == nil {
		return v, nil
	}
	if len(s.Types) > 0 {
		return normalizeUnion(v, s, path)
	}
	switch s.Type {
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(strings.TrimSpace(x)); err == nil {
				return b, nil
			}
		}
		return nil, argError(path, "expected a boolean, got %s", jsonKind(v))
	case "integer", "number":
		f, ok := finiteNumber(v)
		if s.Type == "number" && !ok {
			return nil, argError(path, "expected a number, got %s", jsonKind(v))
		}
		if s.Type == "integer" && (!ok || f != math.Trunc(f)) {
			return nil, argError(path, "expected an integer, got %s", jsonKind(v))
		}
		if err := inRange(f, s, path); err != nil {
			return nil, err
		}
		if s.Type == "integer" && math.Abs(f) > maxExactInt {
			// 2^63-1 is an integer, but not one a JSON number carries
			// exactly: a bound, said as one (not "expected an integer").
			return nil, argError(path, "at most %d in absolute value, the largest integer JSON carries exactly (got %s)", int64(maxExactInt), numberText(v))
		}
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64)), nil
	case "string":
		x, ok := v.(string)
		if !ok {
			return nil, argError(path, "expected a string, got %s", jsonKind(v))
		}
		if len(s.Enum) > 0 && !slices.Contains(s.Enum, any(x)) {
			allowed := make([]string, len(s.Enum))
			for i, e := range s.Enum {
				allowed[i] = fmt.Sprint(e)
			}
			return nil, argError(path, "must be one of %s (got %q)", strings.Join(allowed, ", "), x)
		}
		return x, nil
	case "array":
		return normalizeArray(v, s, path)
	case "object":
		if s.AdditionalProperties != nil && s.AdditionalProperties.Not != nil {
			return normalizeStruct(v, s, path)
		}
		return normalizeMap(v, s, path)
	}
	return v, nil
}

// normalizeUnion checks a value of several allowed types (a column: a name
// or a position) by its own kind, without coercion: "3" stays a name.
func normalizeUnion(v any, s *jsonschema.Schema, path string) (any, error) {
	var kind string
	switch v.(type) {
	case string:
		kind = "string"
	case json.Number:
		kind = "number"
	}
	for _, t := range s.Types {
		if kind != "" && (t == kind || t == "integer" && kind == "number") {
			one := *s
			one.Type, one.Types = t, nil
			return normalize(v, &one, path)
		}
	}
	return nil, argError(path, "expected %s, got %s", strings.Join(s.Types, " or "), jsonKind(v))
}

func normalizeArray(v any, s *jsonschema.Schema, path string) (any, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, argError(path, "expected an array, got %s", jsonKind(v))
	}
	if s.MaxItems != nil && len(arr) > *s.MaxItems {
		return nil, argError(path, "at most %d items (got %d)", *s.MaxItems, len(arr))
	}
	out := make([]any, len(arr))
	for i, e := range arr {
		p := fmt.Sprintf("%s[%d]", path, i)
		if e == nil && s.Items != nil && (s.Items.Type != "" || len(s.Items.Types) > 0) {
			// A null element would decode as a zero value and slip past
			// the element's required fields.
			return nil, argError(p, "expected a value, got null")
		}
		n, err := normalize(e, s.Items, p)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// normalizeMap checks a map's values against additionalProperties.
func normalizeMap(v any, s *jsonschema.Schema, path string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, argError(path, "expected an object, got %s", jsonKind(v))
	}
	out := map[string]any{}
	for k, e := range m {
		n, err := normalize(e, s.AdditionalProperties, join(path, k))
		if err != nil {
			return nil, err
		}
		out[k] = n
	}
	return out, nil
}

// normalizeStruct checks a closed object: no unknown fields, the required
// ones present (a required string not blank), each property valid.
func normalizeStruct(v any, s *jsonschema.Schema, path string) (any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, argError(path, "expected an object, got %s", jsonKind(v))
	}
	var unknown []string
	for k := range m {
		if s.Properties[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		q := make([]string, len(unknown))
		for i, u := range unknown {
			q[i] = strconv.Quote(u)
		}
		word, allowed := "field", "none"
		if len(unknown) > 1 {
			word = "fields"
		}
		if len(s.PropertyOrder) > 0 {
			allowed = strings.Join(s.PropertyOrder, ", ")
		}
		return nil, argError(join(path, unknown[0]), "unknown %s %s (allowed: %s)", word, strings.Join(q, ", "), allowed)
	}
	out := map[string]any{}
	for _, name := range s.PropertyOrder {
		required := slices.Contains(s.Required, name)
		e := m[name]
		if e == nil { // absent, or null
			if required {
				return nil, argError(join(path, name), "required")
			}
			continue
		}
		n, err := normalize(e, s.Properties[name], join(path, name))
		if err != nil {
			return nil, err
		}
		if x, ok := n.(string); ok && required && strings.TrimSpace(x) == "" {
			return nil, argError(join(path, name), "required (empty)")
		}
		out[name] = n
	}
	return out, nil
}

// inRange checks a number against the schema's bounds. A range from 0 reads
// "at most N" / "must not be negative"; any other "must be A..B" (or "A or B").
func inRange(f float64, s *jsonschema.Schema, path string) error {
	lo, hi := s.Minimum, s.Maximum
	num := func(p *float64) string { return strconv.FormatFloat(*p, 'f', -1, 64) }
	got := strconv.FormatFloat(f, 'f', -1, 64)
	switch {
	case (lo == nil || f >= *lo) && (hi == nil || f <= *hi):
		return nil
	case lo != nil && *lo == 0 && f < 0:
		return argError(path, "must not be negative (got %s)", got)
	case lo != nil && hi != nil && *lo != 0:
		sep := ".."
		if s.Type == "integer" && *hi == *lo+1 {
			sep = " or "
		}
		return argError(path, "must be %s%s%s (got %s)", num(lo), sep, num(hi), got)
	case hi != nil && f > *hi:
		return argError(path, "at most %s (got %s)", num(hi), got)
	}
	return argError(path, "at least %s (got %s)", num(lo), got)
}

// maxExactInt is 2^53, past which a JSON number is not an exact integer.
const maxExactInt = 1 << 53

// numberText is a number argument as it was sent.
func numberText(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return fmt.Sprint(v)
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
