// cells_test.go: Rows/Cells decode exactly what encoding/json (UseNumber)
// decodes, on a table of cell kinds and under fuzzing; and the cost of a
// real page beside the generic decoder.

package inspect

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"
)

func genericRows(b []byte) ([][]any, error) {
	var out [][]any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	err := d.Decode(&out)
	return out, err
}

func sameRows(t *testing.T, in []byte) {
	t.Helper()
	want, err := genericRows(in)
	if err != nil || !json.Valid(in) {
		return // only valid documents reach Rows (the page decoder checks first)
	}
	var got Rows
	if err := json.Unmarshal(in, &got); err != nil {
		t.Fatalf("%s: %v", in, err)
	}
	if len(got) != len(want) {
		t.Fatalf("%s: %d rows, want %d", in, len(got), len(want))
	}
	for i := range want {
		if want[i] == nil && len(got[i]) == 0 {
			continue
		}
		if !reflect.DeepEqual([]any(got[i]), want[i]) {
			t.Fatalf("%s: row %d = %#v, want %#v", in, i, got[i], want[i])
		}
	}
}

var rowsCases = []string{
	`[[1,-2.5e-3,0,"a",null,true,false]]`,
	` [ [ "x,]\"y" , "\u00e9\\n" , "é☃", {"k":[1,{"a":"]"}]}, [1,[2]], 1e300 ] , [] , [ -0 ] ] `,
	`[]`, `[[]]`, `[["a]"],["b,"]]`, `[null]`, "[[\"\xff\"]]", `[[123456789012345678901234567890]]`,
}

func TestRowsMatchEncodingJSON(t *testing.T) {
	for _, c := range rowsCases {
		sameRows(t, []byte(c))
	}
}

// TestEmptyRowsStayAList: [] decodes to an empty list that encodes as []
// again, and null stays null (an empty page answered rows: null, issue
// #28.7).
func TestEmptyRowsStayAList(t *testing.T) {
	for in, want := range map[string]string{`[]`: `[]`, ` [ ] `: `[]`, `null`: `null`} {
		var r Rows
		if err := json.Unmarshal([]byte(in), &r); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		if b, _ := json.Marshal(r); string(b) != want {
			t.Errorf("%q decoded and encoded again = %s, want %s", in, b, want)
		}
	}
}

func FuzzRows(f *testing.F) {
	for _, c := range rowsCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) { sameRows(t, in) })
}

// BenchmarkPageDecode: a page of 100 rows × 10 columns as the probe writes
// it, decoded into a PageResult (by encoding/json with Rows, and as
// selectCall decodes it), beside the generic decoder's [][]any.
func BenchmarkPageDecode(b *testing.B) {
	rows := make([][]any, 100)
	for i := range rows {
		rows[i] = []any{i, 1.23457 * float64(i), -0.000123457, 3.25, 17.5, -2.75, 0.5, 42, "Nice", nil}
	}
	page, _ := json.Marshal(map[string]any{"name": "df", "page": map[string]any{"kind": "dataframe", "positions": make([]int, 100), "index": make([]int, 100), "rows": rows}})
	b.Run("impl=cells", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			var out PageResult
			d := json.NewDecoder(bytes.NewReader(page))
			d.UseNumber()
			if err := d.Decode(&out); err != nil || len(out.Page.Rows) != 100 {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=page_decode", func(b *testing.B) { // as selectCall decodes it: one scan of the rows
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			var out pageAnswer
			if err := decodePage(string(page), &out); err != nil || len(out.Page.Rows) != 100 {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=encoding_json", func(b *testing.B) { // the page with [][]any rows, as before
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			var out struct {
				Page struct {
					Positions []int64
					Index     []any
					Rows      [][]any
				}
			}
			d := json.NewDecoder(bytes.NewReader(page))
			d.UseNumber()
			if err := d.Decode(&out); err != nil || len(out.Page.Rows) != 100 {
				b.Fatal(err)
			}
		}
	})
}
