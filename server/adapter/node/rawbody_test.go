// rawbody_test.go: a clipboard answer's body written by appendJSON is the
// JSON encoding/json writes for it (the same bytes but that encoding/json
// also escapes <, > and & for HTML), for V8's string literals of every kind
// the inspector sends.

package node

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestClipboardBodyAppendJSON(t *testing.T) {
	for _, c := range []clipboardBody{
		{Result: json.RawMessage(`""`), Type: "string"},
		{Result: json.RawMessage(`"{\"page\":{\"rows\":[[1,\"Île\",null]]}}"`), Type: "string"},
		{Result: json.RawMessage(`"tab\there \u2028 \ud83d\ude00 \ufffd <>&"`), Type: "string"},
		{Result: json.RawMessage(`"x"`), Type: ""},
		{Result: json.RawMessage(`"x"`), Type: `odd "type"`, VariablesReference: 7},
	} {
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		got := c.appendJSON([]byte("prefix"))
		if string(got) != "prefix"+string(want) {
			t.Errorf("appendJSON:\n got %s\nwant prefix%s", got, want)
		}
		if !json.Valid(got[len("prefix"):]) {
			t.Errorf("not valid JSON: %s", got)
		}
	}
}
