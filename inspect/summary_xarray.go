// This file holds the parts of the one-line summary shared by array-like
// values (shapes) and specific to xarray (named dims, a Dataset's data
// variables).

package inspect

import (
	"strings"

	"github.com/dapscope/dapscope/inspect/clip"
)

// tupleText renders a shape as Python does: (2, 3), (5,) or ().
func tupleText(shape []int64) string {
	d := make([]string, len(shape))
	for i, n := range shape {
		d[i] = commas(n)
	}
	if len(d) == 1 {
		return "(" + d[0] + ",)"
	}
	return "(" + strings.Join(d, ", ") + ")"
}

// dimsText renders named dims as xarray does: (time: 3, city: 4).
func dimsText(dims []Dim) string {
	d := make([]string, len(dims))
	for i, x := range dims {
		d[i] = x.Name + ": " + commas(x.Size)
	}
	return "(" + strings.Join(d, ", ") + ")"
}

// quoteName quotes an xarray name (bounded).
func quoteName(n string) string { return "'" + clip.Bytes.Head(n, 40) + "'" }

// datasetParts: "3 data variables (temperature, rain, station)",
// "3 coordinates", memory, "2 nulls in 2 variables".
func datasetParts(s *Structure) []string {
	var parts []string
	names := make([]string, 0, 3)
	nulls, withNulls := int64(0), int64(0)
	for i, v := range s.DataVars {
		if i < 3 {
			names = append(names, v.Name)
		}
		if v.NullCount != nil && *v.NullCount > 0 {
			nulls += *v.NullCount
			withNulls++
		}
	}
	if len(s.DataVars) > 3 {
		names = append(names, "…")
	}
	vars := plural(int64(len(s.DataVars)), "data variable")
	if len(names) > 0 {
		vars += " (" + strings.Join(names, ", ") + ")"
	}
	parts = append(parts, vars)
	if len(s.Coords) > 0 {
		parts = append(parts, plural(int64(len(s.Coords)), "coordinate"))
	}
	if s.MemoryBytes != nil {
		parts = append(parts, MemoryText(*s.MemoryBytes, s.MemoryEstimated))
	}
	if withNulls > 0 {
		parts = append(parts, plural(nulls, "null")+" in "+plural(withNulls, "variable"))
	}
	return parts
}
