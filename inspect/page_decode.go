// page_decode.go: a probe's page answer decoded with one scan of its rows.
// The probe writes the page's rows last (page.rows, the page last of the
// answer); encoding/json would scan them twice before Rows decodes them
// (its Decoder reads the whole value, then skips the rows to hand them
// over), at ~10 ns a byte: most of a page's Go time. Here the answer is
// validated once by the jsontext scanner (a few times faster), the rows
// are cut out and decoded by Rows, and encoding/json decodes the rest
// (~1.5 KB). An answer that does not validate, or whose rows are not where
// the probe puts them, goes through encoding/json whole, as before.

package inspect

import (
	"encoding/json"
	"strings"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

// decodePage decodes a select answer into out (numbers of any-typed fields
// as json.Number).
func decodePage(raw string, out *pageAnswer) error {
	raw = strings.TrimSpace(raw)
	if !jsonv2.Value(raw).IsValid() {
		return decodeNumbers(raw, out)
	}
	if s, e, ok := pageRowsAt(raw); ok {
		if err := decodeNumbers(raw[:s]+"null"+raw[e:], out); err != nil {
			return err
		}
		if out.Page == nil {
			return decodeNumbers(raw, out)
		}
		return out.Page.Rows.UnmarshalJSON([]byte(raw[s:e]))
	}
	return decodeNumbers(raw, out)
}

func decodeNumbers(s string, out *pageAnswer) error {
	*out = pageAnswer{}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	return dec.Decode(out)
}

// pageRowsAt finds the bounds of the value of "rows" in the object "page"
// of the answer (the names unescaped, as the probe writes them), with the
// boundary scan of Rows (valueEnd): only for a valid answer (valueEnd
// trusts it).
func pageRowsAt(raw string) (int, int, bool) {
	ps, pe, ok := memberAt(raw, 0, `"page"`)
	if !ok || ps >= pe || raw[ps] != '{' {
		return 0, 0, false
	}
	return memberAt(raw[:pe], ps, `"rows"`)
}

// memberAt: the bounds of the value of the member named key (quoted) of
// the object starting at i in b.
func memberAt(b string, i int, key string) (int, int, bool) {
	i = skipWS(b, i)
	if i >= len(b) || b[i] != '{' {
		return 0, 0, false
	}
	i = skipWS(b, i+1)
	for i < len(b) && b[i] == '"' {
		kend := valueEnd(b, i)
		j := skipWS(b, kend)
		if j >= len(b) || b[j] != ':' {
			return 0, 0, false
		}
		j = skipWS(b, j+1)
		end := valueEnd(b, j)
		if end > len(b) {
			return 0, 0, false
		}
		if b[i:kend] == key {
			return j, end, true
		}
		i = skipWS(b, end)
		if i >= len(b) || b[i] != ',' {
			return 0, 0, false
		}
		i = skipWS(b, i+1)
	}
	return 0, 0, false
}
