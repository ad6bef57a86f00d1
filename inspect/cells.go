// cells.go: Cells, the JSON cells of a page (rows and index labels)
// decoded in one pass with few allocations: numbers as json.Number
// (exact), plain strings without a second scan, nested values through
// encoding/json. A page of 100 rows × 10 columns took encoding/json's
// generic decoder 2,700 allocations and most of a page fetch's Go time.

package inspect

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Cells is a list of cells (one row, or a page's index labels).
type Cells []any

// Rows is a page's rows.
type Rows []Cells

// UnmarshalJSON decodes an array of arrays of cells.
func (r *Rows) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = nil
		return nil
	}
	out := Rows{}    // [] stays an empty list, never null (issue #28.7)
	all := string(b) // one copy: cells are substrings of it
	err := eachElem(all, func(row string) error {
		if row == "null" {
			out = append(out, nil)
			return nil
		}
		c, err := decodeCells(row)
		out = append(out, c)
		return err
	})
	*r = out
	return err
}

// UnmarshalJSON decodes an array of cells.
func (c *Cells) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*c = nil
		return nil
	}
	out, err := decodeCells(string(b))
	*c = out
	return err
}

func decodeCells(s string) (Cells, error) {
	out := make(Cells, 0, 16)
	err := eachElem(s, func(v string) error {
		x, err := cellValue(v)
		out = append(out, x)
		return err
	})
	return out, err
}

// cellValue is one JSON value as encoding/json with UseNumber gives it.
func cellValue(v string) (any, error) {
	switch v[0] {
	case 'n':
		return nil, nil
	case 't':
		return true, nil
	case 'f':
		return false, nil
	case '"':
		if s := v[1 : len(v)-1]; plainJSONString(s) {
			return s, nil
		}
		var s string
		err := json.Unmarshal([]byte(v), &s)
		return s, err
	case '{', '[':
		var x any
		d := json.NewDecoder(strings.NewReader(v))
		d.UseNumber()
		err := d.Decode(&x)
		return x, err
	}
	return json.Number(v), nil
}

// plainJSONString: no escapes, ASCII (the bytes are the string).
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// eachElem calls f with each element's raw bytes of the JSON array b. The
// caller's decoder has already checked that b is valid JSON, so this only
// finds the boundaries (strings and nesting).
func eachElem(b string, f func(string) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '[' {
		return fmt.Errorf("cells: want an array, got %.20q", b)
	}
	i = skipWS(b, i+1)
	if i < len(b) && b[i] == ']' {
		return nil
	}
	for i < len(b) {
		end := valueEnd(b, i)
		if err := f(b[i:end]); err != nil {
			return err
		}
		i = skipWS(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
			continue
		}
		return nil // ']'
	}
	return nil
}

func skipWS(b string, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\n' || b[i] == '\t' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd is the index just past the valid JSON value starting at i.
func valueEnd(b string, i int) int {
	depth := 0
	for ; i < len(b); i++ {
		switch b[i] {
		case '"':
			for i++; i < len(b) && b[i] != '"'; i++ {
				if b[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return i + 1
			}
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
			if depth < 0 { // the end of the enclosing array: a scalar ended here
				return i
			}
		case ',', ' ', '\n', '\t', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}
