// This file turns the DAP values of the variables tree into the model's
// cells: Go scalar types, exact numbers (json.Number), Delve's quoted
// strings ("…"...+N more), and the string view.

package inspect

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

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
