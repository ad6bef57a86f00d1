// page_decode_test.go: decodePage answers exactly what encoding/json
// (UseNumber) decodes of a probe's page answer, or fails where it fails.

package inspect

import (
	"reflect"
	"testing"
)

var pageDecodeCases = []string{
	`{"name":"big","type":"Array","probe_ms":0.25,"page":{"kind":"records","total_rows":3,"all_rows":3,"offset":0,"limit":2,"positions":[0,1],` +
		`"columns":[{"name":"id","dtype":"number"},{"name":"s","dtype":"string"}],"column_count":2,"cached":false,"rows":[[0,"a \"rows\":[1]"],[1,{"at":"é","b":[1,2.5e3,null]}]]}}`,
	` {"name":"x","page":{"rows":[],"kind":"list","columns":[],"positions":[]},"warnings":["w"]} `,
	`{"name":"x","page":{"kind":"list","rows":[["\ud800","\u00e9\n",-0,1e400]],"positions":[0]},"partial":true,"timed_out":["selection"]}`,
	`{"page":{"rows":null}}`, `{"page":null}`, `{"error":{"code":"INVALID_ARGUMENT","message":"no"}}`,
	`{"filter_needed":{"expression":"(() => 1)()"}}`, `{"page":{"rows":[[1]]},"page":{"rows":[[2]]}}`,
	`{"page":{"rows":[[1]],"rows":[[2]]}}`, `{"page":{"rows":[[1]]}`, `{"page":{"rows":[[1,]]}}`, `[1]`, ``, `{"page":{"kind":1,"rows":[[1]]}}`,
}

func samePage(t *testing.T, raw string) {
	t.Helper()
	var want, got pageAnswer
	werr := decodeNumbers(raw, &want)
	gerr := decodePage(raw, &got)
	if (werr == nil) != (gerr == nil) {
		t.Fatalf("%s: error %v, encoding/json's %v", raw, gerr, werr)
	}
	if werr == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%s:\n got %#v\nwant %#v", raw, got, want)
	}
}

func TestPageDecodeMatchesEncodingJSON(t *testing.T) {
	for _, c := range pageDecodeCases {
		samePage(t, c)
	}
}

func FuzzPageDecode(f *testing.F) {
	for _, c := range pageDecodeCases {
		f.Add(c)
	}
	f.Fuzz(func(t *testing.T, raw string) { samePage(t, raw) })
}
