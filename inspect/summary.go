// This file builds Result.Summary, the one human line of an inspection, from
// the structured fields (the same for probe and variables-tree results).

package inspect

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// Summarize returns a one-line description of r, e.g.
// "DataFrame 1,000 rows × 10 columns, 78.1 KB, 12 nulls in 2 columns".
func Summarize(r *Result) string {
	s := r.Structure
	if s == nil {
		s = &Structure{}
	}
	short := shortType(r.Type)
	var parts []string
	add := func(format string, args ...any) { parts = append(parts, fmt.Sprintf(format, args...)) }
	switch r.DetectedType {
	case TypeDataFrame, TypeArrow:
		if len(s.Shape) == 2 {
			parts = append(parts, fmt.Sprintf("%s %s × %s", short, plural(s.Shape[0], "row"), plural(s.Shape[1], "column")))
		} else {
			parts = append(parts, short)
		}
		if s.MemoryBytes != nil {
			add("%s", MemoryText(*s.MemoryBytes, s.MemoryEstimated))
		}
		var counts []int64
		for _, c := range s.Columns {
			if c.NullCount != nil && *c.NullCount > 0 {
				counts = append(counts, *c.NullCount)
			}
		}
		if len(counts) > 0 {
			add("%s", nullCellsText(counts))
		} else if len(s.Columns) > 0 && s.Columns[0].NullCount != nil {
			add("no nulls")
		}
	case TypeSeries, TypeIndex:
		head := short
		if s.SeriesName != nil {
			head += " " + cellText(s.SeriesName)
		}
		n := int64(0)
		if s.Length != nil {
			n = *s.Length
		}
		parts = append(parts, head+" "+plural(n, "value"))
		if s.Dtype != "" {
			parts = append(parts, s.Dtype)
		}
		if s.MemoryBytes != nil {
			add("%s", MemoryText(*s.MemoryBytes, s.MemoryEstimated))
		}
		if len(s.Columns) == 1 && s.Columns[0].NullCount != nil {
			if k := *s.Columns[0].NullCount; k > 0 {
				add("%s", plural(k, "null"))
			}
		}
	case TypeNDArray, TypeTensor, TypeDataArray:
		shape := tupleText(s.Shape)
		if len(s.Dims) > 0 {
			shape = dimsText(s.Dims)
		}
		head := short
		if s.ArrayName != "" {
			head += " " + quoteName(s.ArrayName)
		}
		parts = append(parts, fmt.Sprintf("%s %s %s", head, strings.TrimPrefix(s.Dtype, "torch."), shape))
		if s.Nbytes != nil {
			parts = append(parts, HumanBytes(*s.Nbytes))
		}
		if s.Device != "" {
			parts = append(parts, "on "+s.Device)
		}
		if s.RequiresGr != nil && *s.RequiresGr {
			parts = append(parts, "requires_grad")
		}
		parts = append(parts, s.tensorParts()...)
		if st := r.Statistics; st != nil && st.NaNCount != nil && *st.NaNCount > 0 {
			add("%s NaN", commas(*st.NaNCount))
		}
		if st := r.Statistics; st != nil && st.InfCount != nil && *st.InfCount > 0 {
			add("%s inf", commas(*st.InfCount))
		}
	case TypeModel, TypeStateDict:
		parts = append(parts, short)
		if s.Model != nil {
			parts = append(parts, s.Model.parts(r.DetectedType == TypeStateDict)...)
		}
	case TypeDataset:
		parts = append(parts, short+" "+dimsText(s.Dims))
		parts = append(parts, datasetParts(s)...)
	case TypeDict, TypeMap:
		n := int64(0)
		if s.Length != nil {
			n = *s.Length
		}
		desc := fmt.Sprintf("%s %s", short, plural(n, "key"))
		if kt, vt := typeList(s.KeyTypes, s.KeyType), typeList(s.ValueTypes, s.ElementType); kt != "" || vt != "" {
			desc += fmt.Sprintf(" (%s → %s)", kt, vt)
		}
		parts = append(parts, desc)
	case TypeList, TypeTuple, TypeSet, TypeFrozenSet, TypeDeque, TypeSlice, TypeArray:
		n := int64(0)
		if s.Length != nil {
			n = *s.Length
		}
		desc := fmt.Sprintf("%s %s", short, plural(n, "item"))
		if s.Cap != nil {
			desc += fmt.Sprintf(", cap %s", commas(*s.Cap))
		}
		if et := typeList(s.ElementTypes, s.ElementType); et != "" && r.DetectedType != TypeSlice && r.DetectedType != TypeArray {
			desc += " (" + et + ")"
		}
		parts = append(parts, desc)
		if s.Depth != nil && *s.Depth > 1 {
			add("depth %d", *s.Depth)
		}
		if s.SelfRef {
			parts = append(parts, "self-referencing")
		}
	case TypeStr, TypeBytes:
		n := int64(0)
		if s.Length != nil {
			n = *s.Length
		}
		unit := "char"
		if r.DetectedType == TypeBytes || strings.HasPrefix(r.Type, "string") {
			unit = "byte"
		}
		parts = append(parts, fmt.Sprintf("%s %s", short, plural(n, unit)))
		if s.LineCount != nil && *s.LineCount > 1 {
			parts = append(parts, plural(*s.LineCount, "line"))
		}
	case TypeInt, TypeFloat, TypeComplex, TypeBool:
		parts = append(parts, fmt.Sprintf("%s %s", short, clip.Bytes.Head(cellText(s.Value), 80)))
	case TypeNone:
		parts = append(parts, "None")
	case TypeObject, TypeStruct:
		desc := short
		if s.Kind != "" && s.Kind != "plain" {
			desc += " (" + s.Kind + ")"
		}
		n := int64(len(s.Attributes))
		if s.AttributeCount != nil {
			n = *s.AttributeCount
		}
		noun := "attribute"
		if r.DetectedType == TypeStruct {
			noun = "field"
		}
		parts = append(parts, desc+" "+plural(n, noun))
		if s.Length != nil {
			add("len %s", commas(*s.Length))
		}
	case TypeCallable:
		parts = append(parts, fmt.Sprintf("%s %s%s", short, s.Class, s.Signature))
	case TypeClass:
		desc := "class " + s.Class
		if len(s.Bases) > 0 {
			desc += "(" + strings.Join(s.Bases, ", ") + ")"
		}
		parts = append(parts, desc)
	case TypeModule:
		parts = append(parts, "module "+s.Module)
	case TypePointer:
		if s.Nil {
			parts = append(parts, short+" nil")
		} else {
			parts = append(parts, short+" → "+s.Target)
		}
	default:
		desc := short
		if s.Module != "" && !strings.Contains(r.Type, ".") {
			desc += " (" + s.Module + ")"
		}
		parts = append(parts, desc)
	}
	if r.Partial {
		parts = append(parts, "partial")
	}
	return strings.Join(parts, ", ")
}

// nullCellsText says how many nulls the columns with some hold, counting
// cells, never as if they were rows: "93 nulls in 1 column", "93 nulls in
// each of 3 columns", "279 null cells in 3 columns (12–93 per column)".
func nullCellsText(counts []int64) string {
	total, lo, hi := int64(0), counts[0], counts[0]
	for _, n := range counts {
		total += n
		lo, hi = min(lo, n), max(hi, n)
	}
	cols := plural(int64(len(counts)), "column")
	switch {
	case len(counts) == 1:
		return plural(total, "null") + " in 1 column"
	case lo == hi:
		return plural(lo, "null") + " in each of " + cols
	}
	return fmt.Sprintf("%s in %s (%s–%s per column)", plural(total, "null cell"), cols, commas(lo), commas(hi))
}

// shortType is the last dotted component of a Python type name, or a Go
// type as is.
func shortType(t string) string {
	if t == "" {
		return "value"
	}
	if strings.ContainsAny(t, "[]*() ") {
		return t
	}
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

func typeList(m map[string]int64, single string) string {
	if single != "" {
		return single
	}
	if len(m) == 0 {
		return ""
	}
	keys := byCount(m)
	if len(keys) > 3 {
		keys = append(keys[:3], "…")
	}
	return strings.Join(keys, "|")
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return commas(n) + " " + noun + "s"
}

func commas(n int64) string {
	s := itoa(n)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// HumanBytes renders a byte count as B, KB, MB, GB (powers of 1024).
func HumanBytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KB", "MB", "GB", "TB"} {
		f /= 1024
		if f < 1024 || u == "TB" {
			return fmt.Sprintf("%.1f %s", f, u)
		}
	}
	return ""
}

// cellText renders a JSON-safe cell for text output.
func cellText(v any) string {
	switch v := v.(type) {
	case nil:
		return "null"
	case string:
		return v
	case json.Number:
		return v.String()
	case bool:
		if v {
			return "True"
		}
		return "False"
	case float64:
		return fmt.Sprint(v)
	default:
		var b strings.Builder
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			return fmt.Sprint(v)
		}
		return strings.TrimSuffix(b.String(), "\n")
	}
}

// arrayText renders nested edge-item lists numpy-style, one outer element
// per line: [0, 1, …, 38, 39].
func arrayText(v any) string {
	list, ok := v.([]any)
	if !ok {
		return cellText(v)
	}
	nested := false
	for _, x := range list {
		if _, ok := x.([]any); ok {
			nested = true
		}
	}
	if !nested {
		return flatArray(list)
	}
	lines := make([]string, len(list))
	for i, x := range list {
		lines[i] = " " + flatArray(x)
		if i == 0 {
			lines[i] = "[" + flatArray(x)
		}
		if i < len(list)-1 {
			lines[i] += ","
		}
	}
	return strings.Join(lines, "\n") + "]"
}

func flatArray(v any) string {
	list, ok := v.([]any)
	if !ok {
		if s, ok := v.(string); ok && s == "…" {
			return s
		}
		return cellText(v)
	}
	parts := make([]string, len(list))
	nums := lineNumbers(list...) // one number format for the line
	for i, x := range list {
		parts[i] = flatArray(x)
		if _, ok := numberOf(x); ok {
			parts[i] = nums[i]
		}
	}
	return "[" + strings.Join(parts, ", ") + "]"
}
