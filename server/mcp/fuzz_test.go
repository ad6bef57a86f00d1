// fuzz_test.go: tool arguments from outside go through the strict schema
// decoder; whatever the bytes, it returns a typed INVALID_ARGUMENT or a
// value that encodes and decodes again to itself, and its error message
// stays bounded once it reaches an agent.

package mcp

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func FuzzDecodeArgs(f *testing.F) {
	for _, s := range []string{
		`{}`, `null`, ``, `[]`, `"x"`, `{"program":"a.py","breakpoints":[{"file":"a.py","line":3}],"wait":false,"timeout":2.5}`,
		`{"program":"a.py","timeout":"2.5","stop_on_entry":"true","breakpoints":[{"file":"a.py","line":"7"}],"env":{"A":"1"}}`,
		`{"program":1}`, `{"nope":1}`, `{"breakpoints":[{"line":-1}]}`, `{"env":{"A":{"B":1}}}`, `{"timeout":1e400}`,
		`{"args":["a","b"],"module":"m"}`, "{\"program\":\"\xff\"}", `{"breakpoints":[null]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p launchArgs
		err := decodeArgs(raw, &p)
		if err != nil {
			var se *errcode.Error
			if !errors.As(err, &se) || se.Code != errcode.InvalidArgument {
				t.Fatalf("untyped error %v", err)
			}
			te := boundError(toolError(err))
			if len(te.Message) > maxErrorMessage+64 {
				t.Fatalf("unbounded error message: %d bytes", len(te.Message))
			}
			return
		}
		// A decoded value round-trips through the decoder unchanged.
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q launchArgs
		if err := decodeArgs(b, &q); err != nil {
			t.Fatalf("re-decoding %s: %v", b, err)
		}
		if b2, _ := json.Marshal(q); string(b) != string(b2) {
			t.Fatalf("round trip changed the value:\n%s\n%s", b, b2)
		}
	})
}

// TestNullArrayElementRefused: found by FuzzDecodeArgs — a null element
// decoded as a zero breakpoint and slipped past its required fields.
func TestNullArrayElementRefused(t *testing.T) {
	var p launchArgs
	err := decodeArgs([]byte(`{"program":"a.py","breakpoints":[null]}`), &p)
	var se *errcode.Error
	if !errors.As(err, &se) || se.Field != "breakpoints[0]" {
		t.Fatalf("got %v, want INVALID_ARGUMENT on breakpoints[0]", err)
	}
}
