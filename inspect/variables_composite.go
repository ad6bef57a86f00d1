// This file builds the view of Go maps, structs and pointers from the
// variables tree: key and element types, bounded items, fields with their
// values, and a pointer's target (Delve shows the pointee as one child).

package inspect

import (
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

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
