// decodebody_test.go: a response body reaches a value that decodes itself
// as the bytes that came (already validated by dap.PeekBody), and any other
// value through encoding/json, as before.

package mux

import (
	"testing"

	"github.com/dapscope/dapscope/server/dap"
)

type gotBytes struct{ b []byte }

func (g *gotBytes) UnmarshalJSON(b []byte) error { g.b = append([]byte(nil), b...); return nil }

func TestDecodeBody(t *testing.T) {
	msg := []byte(`{"seq":4,"type":"response","request_seq":2,"command":"evaluate","success":true,"body":{"result":"\"x\" é","variablesReference":0}}`)
	env, raw, err := dap.PeekBody(msg)
	if err != nil {
		t.Fatal(err)
	}
	resp := dap.ResponseOf(env, raw)
	var g gotBytes
	if err := decodeBody(resp.Body, &g); err != nil || string(g.b) != `{"result":"\"x\" é","variablesReference":0}` {
		t.Errorf("self-decoding value got %q, %v", g.b, err)
	}
	var plain struct{ Result string }
	if err := decodeBody(resp.Body, &plain); err != nil || plain.Result != `"x" é` {
		t.Errorf("plain value got %q, %v", plain.Result, err)
	}
	if err := decodeBody([]byte(`{"result":`), &plain); err == nil {
		t.Error("a cut body decoded without an error")
	}
}
