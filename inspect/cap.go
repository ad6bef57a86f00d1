// This file bounds the serialized size of a Result (100 KB by default):
// it shrinks preview rows, then cells, then columns, and says in Warnings
// what was dropped. It never cuts a JSON string in the middle: it removes or
// shortens whole values, so the result always stays valid JSON.

package inspect

import (
	"encoding/json"
	"fmt"

	"github.com/dapscope/dapscope/inspect/clip"
)

// Size returns the length of r's JSON encoding.
func Size(r *Result) int {
	b, err := json.Marshal(r)
	if err != nil {
		return 1 << 30
	}
	return len(b)
}

// Cap shrinks r until its JSON encoding is at most limit bytes and reports
// whether anything was dropped.
func Cap(r *Result, limit int) bool {
	if Size(r) <= limit {
		return false
	}
	KeepProblems(r)        // named in the text whatever goes (problems.go)
	budget := limit - 1024 // room for the warnings we add
	fits := func() bool { return Size(r) <= budget }
	var notes []string
	defer func() { r.Warnings = append(r.Warnings, notes...) }()

	// 1. preview rows and items: halve until it fits, down to one.
	if p := r.Preview; p != nil {
		before := len(p.Head) + len(p.Tail) + len(p.Items) + len(p.TailItems)
		for !fits() && (len(p.Tail) > 0 || len(p.TailItems) > 0 || len(p.Head) > 1 || len(p.Items) > 1) {
			switch {
			case len(p.Tail) > 0:
				p.Tail = p.Tail[:len(p.Tail)/2]
			case len(p.TailItems) > 0:
				p.TailItems = p.TailItems[:len(p.TailItems)/2]
			case len(p.Head) > 1:
				p.Head = p.Head[:(len(p.Head)+1)/2]
			default:
				p.Items = p.Items[:(len(p.Items)+1)/2]
			}
			p.IsTruncated = true
		}
		if after := len(p.Head) + len(p.Tail) + len(p.Items) + len(p.TailItems); after < before {
			notes = append(notes, fmt.Sprintf("size cap: preview cut from %d to %d rows/items", before, after))
		}
	}
	if fits() {
		return true
	}
	// 2. cells: shorten strings and flatten nested values, 64 then 16 chars.
	for _, n := range []int{64, 16} {
		shrinkCells(r, n)
		if fits() {
			notes = append(notes, fmt.Sprintf("size cap: preview cells and reprs cut to %d characters", n))
			return true
		}
	}
	notes = append(notes, "size cap: preview cells and reprs cut to 16 characters")
	// 3. columns: keep the first k of structure, statistics and preview.
	total := columnCount(r)
	for k := total / 2; k >= 1 && !fits(); k /= 2 {
		keepColumns(r, k)
	}
	if kept := columnCount(r); kept < total {
		notes = append(notes, fmt.Sprintf("size cap: showing %d of %d columns", kept, total))
	}
	if fits() {
		return true
	}
	// 4. last resort: drop the preview, then the statistics, then attributes.
	if r.Preview != nil {
		r.Preview = nil
		notes = append(notes, "size cap: preview dropped")
	}
	if !fits() && r.Statistics != nil {
		r.Statistics = nil
		notes = append(notes, "size cap: statistics dropped")
	}
	if !fits() && r.Structure != nil {
		s := r.Structure
		s.Attributes, s.Columns, s.KeyTypes, s.ValueTypes, s.ElementTypes, s.Fields, s.Properties = nil, nil, nil, nil, nil, nil, nil
		s.Value = shrinkValue(s.Value, 64)
		notes = append(notes, "size cap: structure details dropped")
	}
	if !fits() {
		r.Warnings = r.Warnings[:0]
		r.Hint = clip.Bytes.Head(r.Hint, 200)
		r.Summary = clip.Bytes.Head(r.Summary, 200)
	}
	return true
}

func columnCount(r *Result) int {
	n := 0
	if r.Structure != nil {
		n = len(r.Structure.Columns)
	}
	if r.Statistics != nil {
		n = max(n, len(r.Statistics.Columns))
	}
	if r.Preview != nil {
		n = max(n, len(r.Preview.Columns))
	}
	return n
}

func keepColumns(r *Result, k int) {
	if s := r.Structure; s != nil && len(s.Columns) > k {
		if s.ColumnCount == nil {
			n := int64(len(s.Columns))
			s.ColumnCount = &n
		}
		s.Columns = s.Columns[:k]
	}
	if st := r.Statistics; st != nil && len(st.Columns) > k {
		st.Columns = st.Columns[:k]
	}
	if p := r.Preview; p != nil && len(p.Columns) > k {
		p.Columns = p.Columns[:k]
		for _, rows := range [][]Row{p.Head, p.Tail} {
			for i := range rows {
				if len(rows[i].Values) > k {
					rows[i].Values = rows[i].Values[:k]
				}
			}
		}
		p.IsTruncated = true
	}
}

func shrinkCells(r *Result, n int) {
	if p := r.Preview; p != nil {
		for _, rows := range [][]Row{p.Head, p.Tail} {
			for i := range rows {
				rows[i].Index = shrinkValue(rows[i].Index, n)
				for j := range rows[i].Values {
					rows[i].Values[j] = shrinkValue(rows[i].Values[j], n)
				}
			}
		}
		for _, items := range [][]Item{p.Items, p.TailItems} {
			for i := range items {
				items[i].Key = shrinkValue(items[i].Key, n)
				items[i].Value = shrinkValue(items[i].Value, n)
			}
		}
		p.Values = shrinkValue(p.Values, n)
		p.Text = clip.Runes.Head(p.Text, n*4)
		p.Repr = clip.Runes.Head(p.Repr, n*4)
		p.IsTruncated = true
	}
	if s := r.Structure; s != nil {
		for i := range s.Attributes {
			if c := clip.Runes.Head(s.Attributes[i].Repr, n); c != s.Attributes[i].Repr {
				s.Attributes[i].Repr, s.Attributes[i].IsTruncated = c, true
			}
		}
		s.Value = shrinkValue(s.Value, n*4)
	}
	if st := r.Statistics; st != nil {
		for i := range st.Columns {
			for j := range st.Columns[i].TopValues {
				st.Columns[i].TopValues[j].Value = shrinkValue(st.Columns[i].TopValues[j].Value, n)
			}
		}
	}
}

// shrinkValue shortens strings to n characters and replaces nested lists and
// objects by a short marker (top-level lists of edge items are kept, with
// their elements shrunk).
func shrinkValue(v any, n int) any {
	switch v := v.(type) {
	case string:
		return clip.Runes.Head(v, n)
	case []any:
		if n >= 64 {
			out := make([]any, len(v))
			for i, x := range v {
				out[i] = shrinkValue(x, n/2)
			}
			return out
		}
		return fmt.Sprintf("<list len=%d>", len(v))
	case map[string]any:
		return fmt.Sprintf("<dict len=%d>", len(v))
	}
	return v
}
