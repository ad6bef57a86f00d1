// schema.go: the tools' input schemas, derived from their Go argument types
// by github.com/google/jsonschema-go (the library mcp-go derives schemas
// with); decode.go enforces them.
//
// jsonschema-go gives the types, `additionalProperties: false` on every
// struct, required = the fields without omitempty, and descriptions from
// `jsonschema:"…"` tags. It has no tags for the rest, so dapscope's own tags
// name the JSON Schema keyword they set: `enum:"a,b"`, `minimum:"1"`,
// `maximum:"50"`, `maxItems:"10"`.

package mcp

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaOptions: a column of a table is a name (or glob) or a position.
var schemaOptions = &jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
	reflect.TypeFor[columnRef](): {Types: []string{"string", "integer"}},
}}

var schemaCache sync.Map // reflect.Type → *jsonschema.Schema

// inputSchema is the strict schema of an arguments struct (cached; it is
// never modified once built). A malformed tag is a programming error: it
// panics when the server registers its tools.
func inputSchema(t reflect.Type) *jsonschema.Schema {
	if s, ok := schemaCache.Load(t); ok {
		return s.(*jsonschema.Schema)
	}
	s, err := jsonschema.ForType(t, schemaOptions)
	if err == nil {
		err = tune(t, s)
	}
	if err != nil {
		panic(fmt.Sprintf("mcp: input schema of %v: %v", t, err))
	}
	s2, _ := schemaCache.LoadOrStore(t, s)
	return s2.(*jsonschema.Schema)
}

// outputSchema says that a tool's structured content is an object. Every
// agent pays for tools/list in every conversation (43.6 KB with detailed
// output schemas, 22.7 KB of them), so the result shapes are documented in
// docs/mcp.md and rendered in each result's text instead.
func outputSchema() map[string]any { return map[string]any{"type": "object"} }

// tune applies dapscope's tags to the schema jsonschema-go derived from t.
// It also writes a nullable type ["null", T] as T (null is read as absent,
// and the list stays small) and gives every object its properties, even
// none (some clients require them).
func tune(t reflect.Type, s *jsonschema.Schema) error {
	if s == nil {
		return nil
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return tune(t.Elem(), s.Items)
	case reflect.Map:
		return tune(t.Elem(), s.AdditionalProperties)
	case reflect.Struct:
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		for _, f := range reflect.VisibleFields(t) {
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			p := s.Properties[name]
			if p == nil || f.Anonymous {
				continue
			}
			if err := tune(f.Type, p); err != nil {
				return err
			}
			if e := f.Tag.Get("enum"); e != "" {
				for _, v := range strings.Split(e, ",") {
					p.Enum = append(p.Enum, v)
				}
			}
			lo, err1 := numberTag(f, "minimum")
			hi, err2 := numberTag(f, "maximum")
			items, err3 := numberTag(f, "maxItems")
			if err := errors.Join(err1, err2, err3); err != nil {
				return err
			}
			if lo != nil {
				p.Minimum = lo
			}
			if hi != nil {
				p.Maximum = hi
			}
			if items != nil {
				p.MaxItems = jsonschema.Ptr(int(*items))
			}
		}
	}
	return nil
}

// numberTag reads f's numeric tag (nil when f has none).
func numberTag(f reflect.StructField, tag string) (*float64, error) {
	v, ok := f.Tag.Lookup(tag)
	if !ok {
		return nil, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil {
		return nil, fmt.Errorf("field %s: %s tag: %v", f.Name, tag, err)
	}
	return &n, nil
}
