// cells.go: Cells, the JSON cells of a page (rows and index labels)
// decoded in one pass with few allocations: numbers as json.Number
// (exact), plain strings (no escape, valid UTF-8) without a second scan,
// nested arrays and objects by the same pass, a page's cells in one
// backing array; only a string with escapes goes through encoding/json.
// A page of 100 rows × 10 columns took encoding/json's generic decoder
// 2,700 allocations and most of a page fetch's Go time.

package inspect

import (
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// Cells is a list of cells (one row, or a page's index labels).
type Cells []any

// Rows is a page's rows.
type Rows []Cells

// UnmarshalJSON decodes an array of arrays of cells, all the cells in one
// backing array (a page's rows are alike: the first row's length sizes it).
func (r *Rows) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*r = nil
		return nil
	}
	all := string(b) // one copy: cells are substrings of it
	var cells Cells
	var ends []int // each row's end in cells; -1: a null row
	err := eachElem(all, func(row string) error {
		if row == "null" {
			ends = append(ends, -1)
			return nil
		}
		err := eachElem(row, func(v string) error {
			x, err := cellValue(v)
			cells = append(cells, x)
			return err
		})
		if len(ends) == 0 && len(cells) > 0 { // room for as many rows like it as the text holds
			cells = append(make(Cells, 0, len(cells)*(len(all)/(len(row)+1)+1)), cells...)
		}
		ends = append(ends, len(cells))
		return err
	})
	out := make(Rows, len(ends)) // [] stays an empty list, never null (issue #28.7)
	if cells == nil {
		cells = Cells{} // a row [] is an empty list too
	}
	start := 0
	for i, end := range ends {
		if end < 0 {
			continue
		}
		out[i] = cells[start:end:end]
		start = end
	}
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
		return stringValue(v)
	case '[':
		out := []any{}
		err := eachElem(v, func(e string) error {
			x, err := cellValue(e)
			out = append(out, x)
			return err
		})
		return out, err
	case '{':
		out := map[string]any{}
		err := eachMember(v, func(k, e string) error {
			key, err := stringValue(k)
			if err != nil {
				return err
			}
			x, err := cellValue(e)
			out[key] = x
			return err
		})
		return out, err
	}
	return json.Number(v), nil
}

// stringValue is the JSON string v (quoted) as encoding/json gives it.
func stringValue(v string) (string, error) {
	if s := v[1 : len(v)-1]; plainJSONString(s) {
		return s, nil
	}
	var s string
	err := json.Unmarshal([]byte(v), &s)
	return s, err
}

// plainJSONString: no escapes, valid UTF-8 (the bytes are the string).
func plainJSONString(s string) bool {
	ascii := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\\' {
			return false
		} else if c >= 0x80 {
			ascii = false
		}
	}
	return ascii || utf8.ValidString(s)
}

// eachMember calls f with each member's raw key (quoted) and value of the
// JSON object b (valid JSON, as for eachElem).
func eachMember(b string, f func(k, v string) error) error {
	i := skipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return fmt.Errorf("cells: want an object, got %.20q", b)
	}
	i = skipWS(b, i+1)
	for i < len(b) && b[i] == '"' {
		kend := valueEnd(b, i)
		j := skipWS(b, kend)
		if j >= len(b) || b[j] != ':' {
			return fmt.Errorf("cells: want a colon in %.20q", b)
		}
		j = skipWS(b, j+1)
		end := valueEnd(b, j)
		if err := f(b[i:kend], b[j:end]); err != nil {
			return err
		}
		i = skipWS(b, end)
		if i < len(b) && b[i] == ',' {
			i = skipWS(b, i+1)
		}
	}
	return nil
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
