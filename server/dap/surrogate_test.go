// surrogate_test.go: a DAP message holding lone UTF-16 surrogate escapes
// ("\ud83d", as V8 and JavaScript's JSON.stringify write half of a pair)
// is framed, routed and decoded like any other (issue #28.1): the
// envelope's scanner checks escapes for syntax only, and the standard
// library decodes a lone half as U+FFFD.

package dap

import (
	"bytes"
	"encoding/json"
	"testing"
)

func TestLoneSurrogatesPass(t *testing.T) {
	body := []byte(`{"seq":4,"type":"response","request_seq":3,"command":"evaluate","success":false,"message":"bad \ud83d","body":{"result":"'\ude00\ud83d'"}}`)
	var buf bytes.Buffer
	if err := NewWriter(&buf).WriteFrame(body); err != nil {
		t.Fatal(err)
	}
	got, err := NewReader(&buf).ReadFrame()
	if err != nil || !bytes.Equal(got, body) {
		t.Fatalf("ReadFrame = %q, %v", got, err)
	}
	env, raw, err := PeekBody(got)
	if err != nil || env.Command != "evaluate" || env.RequestSeq != 3 || env.Message != "bad \uFFFD" {
		t.Fatalf("PeekBody = %+v, %v", env, err)
	}
	var b struct{ Result string }
	if err := json.Unmarshal(raw, &b); err != nil || b.Result != "'\uFFFD\uFFFD'" {
		t.Fatalf("body = %q, %v", b.Result, err)
	}
}
