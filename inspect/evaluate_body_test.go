// evaluate_body_test.go: evaluateBody's one-pass decoding gives what
// encoding/json gives, for the bodies adapters send and for those the fast
// decoder refuses (invalid UTF-8, a repeated name), which fall back.

package inspect

import (
	"encoding/json"
	"testing"
)

func TestEvaluateBodyDecodesAsEncodingJSON(t *testing.T) {
	for _, body := range []string{
		`{"result":"{\"page\":{\"rows\":[[1,\"Île\",null]]}}","type":"string","variablesReference":0}`,
		`{"result":"","variablesReference":0}`,
		`{"variablesReference":3,"result":"tab\there \u2028 \ud83d\ude00 \\u0041","type":"string","presentationHint":{"kind":"data"}}`,
		"{\"result\":\"bad \xff utf-8\",\"variablesReference\":0}",    // encoding/json replaces it with U+FFFD
		`{"result":"\ud800 alone","variablesReference":0}`,            // a lone surrogate: U+FFFD as well
		`{"result":"first","result":"second","variablesReference":0}`, // the later one wins
		`{"result":null,"variablesReference":0}`,
	} {
		var want, got evaluateBody
		werr := json.Unmarshal([]byte(body), (*evaluateBodyFields)(&want))
		gerr := got.UnmarshalJSON([]byte(body))
		if (werr == nil) != (gerr == nil) || got != want {
			t.Errorf("%s:\n got %+v (%v)\nwant %+v (%v)", body, got, gerr, want, werr)
		}
	}
}

// evaluateBodyFields is evaluateBody without its UnmarshalJSON: what
// encoding/json alone makes of a body.
type evaluateBodyFields evaluateBody
