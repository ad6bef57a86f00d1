// format.go: JavaScript values as one line of text, the way a debugger
// shows them — strings quoted, numbers and BigInts as written, functions
// by their signature, objects, arrays, Maps and Sets from V8's preview
// ({a: 1, b: 'x'}, (3) [1, 2, 3], Map(1) {'k' => 1}), others by their
// description — bounded and never cut inside a character.

package node

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/runtime"

	"github.com/dapscope/dapscope/inspect/clip"
)

// Bounds of a value's text.
const (
	maxValue   = 1024    // variables and hovers
	maxFullStr = 1 << 20 // repl and clipboard evaluations of a string
)

// valueText is o as text, at most about max UTF-16 code units.
func valueText(o *runtime.RemoteObject, max int) string {
	if o == nil {
		return "undefined"
	}
	switch o.Type {
	case runtime.RemoteObjectTypeUndefined:
		return "undefined"
	case runtime.RemoteObjectTypeString:
		var str string
		_ = json.Unmarshal(o.Value, &str)
		return quote(clip.UTF16.Head(str, max))
	case runtime.RemoteObjectTypeNumber, runtime.RemoteObjectTypeBigint:
		if o.UnserializableValue != "" {
			return string(o.UnserializableValue)
		}
		if o.Description != "" {
			return o.Description
		}
		return string(o.Value)
	case runtime.RemoteObjectTypeBoolean:
		return string(o.Value)
	case runtime.RemoteObjectTypeSymbol:
		return o.Description
	case runtime.RemoteObjectTypeFunction:
		return clip.UTF16.Head(funcSignature(o.Description), max)
	}
	if o.Subtype == runtime.RemoteObjectSubtypeNull {
		return "null"
	}
	if o.Preview != nil {
		if s := previewText(o.Preview, o.ClassName); s != "" {
			return clip.UTF16.Head(s, max)
		}
	}
	return clip.UTF16.Head(firstLine(o.Description), max)
}

// typeName is the DAP type of o: the class of an object, else its type. A
// Proxy is "Proxy" (V8 names it by its target's class, which it hides; a
// nodejs-polars DataFrame is a Proxy over an "Object").
func typeName(o *runtime.RemoteObject) string {
	switch {
	case o == nil:
		return "undefined"
	case o.Subtype == runtime.RemoteObjectSubtypeNull:
		return "null"
	case o.Subtype == runtime.RemoteObjectSubtypeProxy:
		return "Proxy"
	case o.Type == runtime.RemoteObjectTypeObject && o.ClassName != "":
		return o.ClassName
	}
	return string(o.Type)
}

// quote writes a string the way JavaScript would, in single quotes.
func quote(s string) string {
	b, _ := json.Marshal(s)
	inner := string(b[1 : len(b)-1])
	inner = strings.ReplaceAll(inner, `\"`, `"`)
	inner = strings.ReplaceAll(inner, `'`, `\'`)
	inner = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(inner)
	return "'" + inner + "'"
}

func firstLine(s string) string {
	line, _, cut := strings.Cut(s, "\n")
	if cut {
		return line + " …"
	}
	return line
}

// funcSignature is a function's description cut to its head:
// "ƒ add(a, b)", "class Point", "(x) => …".
func funcSignature(desc string) string {
	head := firstLine(desc)
	if i := strings.Index(head, "{"); i > 0 {
		head = strings.TrimSpace(head[:i])
	}
	switch {
	case strings.HasPrefix(head, "class "):
		return head
	case strings.HasPrefix(head, "function"):
		return "ƒ " + strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(head, "function"), "*"))
	case strings.HasPrefix(head, "async function"):
		return "async ƒ " + strings.TrimSpace(strings.TrimPrefix(head, "async function"))
	}
	return head
}

var lengthRE = regexp.MustCompile(`\((\d+)\)$`)

// arrayLen is the length of an array or typed array ("Array(3)").
func arrayLen(o *runtime.RemoteObject) (int, bool) {
	if o == nil || o.Type != runtime.RemoteObjectTypeObject {
		return 0, false
	}
	if o.Subtype != runtime.RemoteObjectSubtypeArray && o.Subtype != runtime.RemoteObjectSubtypeTypedarray {
		return 0, false
	}
	m := lengthRE.FindStringSubmatch(o.Description)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// previewText renders V8's preview of an object ("" when it has nothing
// better than the description).
func previewText(p *runtime.ObjectPreview, class string) string {
	var items []string
	switch p.Subtype {
	case runtime.ObjectPreviewSubtypeArray, runtime.ObjectPreviewSubtypeTypedarray:
		n := ""
		if m := lengthRE.FindStringSubmatch(p.Description); m != nil {
			n = "(" + m[1] + ") "
		}
		if strings.HasPrefix(p.Description, "Array(") {
			class = ""
		} else {
			class, _, _ = strings.Cut(p.Description, "(")
			class += " "
		}
		for _, pp := range p.Properties {
			if _, err := strconv.Atoi(pp.Name); err == nil {
				items = append(items, propText(pp))
			} else {
				items = append(items, pp.Name+": "+propText(pp))
			}
		}
		return class + n + "[" + joinItems(items, p.Overflow) + "]"
	case runtime.ObjectPreviewSubtypeMap, runtime.ObjectPreviewSubtypeSet, runtime.ObjectPreviewSubtypeWeakmap, runtime.ObjectPreviewSubtypeWeakset:
		for _, e := range p.Entries {
			v := entryText(e.Value)
			if e.Key != nil {
				v = entryText(e.Key) + " => " + v
			}
			items = append(items, v)
		}
		return p.Description + " {" + joinItems(items, p.Overflow) + "}"
	case "":
		if p.Type != runtime.ObjectPreviewTypeObject {
			return ""
		}
		for _, pp := range p.Properties {
			items = append(items, pp.Name+": "+propText(pp))
		}
		prefix := ""
		if class != "" && class != "Object" {
			prefix = class + " "
		}
		return prefix + "{" + joinItems(items, p.Overflow) + "}"
	}
	return ""
}

// maxItems is how many items of a preview are shown.
const maxItems = 20

func joinItems(items []string, overflow bool) string {
	if len(items) > maxItems {
		items, overflow = items[:maxItems], true
	}
	if overflow {
		items = append(items, "…")
	}
	return strings.Join(items, ", ")
}

// propText is one property of a preview.
func propText(pp *runtime.PropertyPreview) string {
	switch {
	case pp.Type == runtime.PropertyPreviewTypeString:
		return quote(pp.Value)
	case pp.Type == runtime.PropertyPreviewTypeFunction:
		return "ƒ"
	case pp.Type == runtime.PropertyPreviewTypeAccessor:
		return "(…)"
	case pp.Type == runtime.PropertyPreviewTypeObject && pp.Subtype == runtime.PropertyPreviewSubtypeNull:
		return "null"
	case pp.Type == runtime.PropertyPreviewTypeObject && pp.Subtype == runtime.PropertyPreviewSubtypeArray:
		return pp.Value // "Array(3)"
	case pp.Type == runtime.PropertyPreviewTypeObject && pp.Value == "Object":
		return "{…}"
	}
	return pp.Value
}

// entryText is a Map or Set entry's key or value in a preview.
func entryText(p *runtime.ObjectPreview) string {
	if p == nil {
		return "undefined"
	}
	if p.Type == runtime.ObjectPreviewTypeString {
		return quote(p.Description)
	}
	if p.Type == runtime.ObjectPreviewTypeObject && p.Subtype == "" && len(p.Properties) > 0 {
		if s := previewText(p, ""); s != "" && len(s) < 80 {
			return s
		}
	}
	return p.Description
}
