// peek_test.go: Peek against encoding/json as the reference (table and
// differential fuzz), and its cost beside json.Unmarshal on a 10 KB answer.

package dap

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// peekRef is Peek's meaning written with encoding/json: the body is one
// JSON object, routing keys match exactly, the last duplicate wins.
func peekRef(body []byte) (Envelope, error) {
	var e Envelope
	var m map[string]json.RawMessage
	if t := bytes.TrimLeft(body, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return e, &FrameError{Reason: "not an object"}
	}
	if err := json.Unmarshal(body, &m); err != nil {
		return e, err
	}
	for k, dst := range map[string]any{"seq": &e.Seq, "request_seq": &e.RequestSeq, "type": &e.Type, "command": &e.Command,
		"event": &e.Event, "message": &e.Message, "success": &e.Success} {
		if raw, ok := m[k]; ok {
			if err := json.Unmarshal(raw, dst); err != nil {
				return e, err
			}
		}
	}
	return e, nil
}

func samePeek(t *testing.T, in []byte) {
	t.Helper()
	got, gerr := peekFields(in, nil)
	want, werr := peekRef(in)
	if (gerr != nil) != (werr != nil) {
		t.Fatalf("%q: error %v, reference %v", in, gerr, werr)
	}
	if gerr != nil {
		return
	}
	if (got.Success == nil) != (want.Success == nil) || got.Success != nil && *got.Success != *want.Success {
		t.Fatalf("%q: success %v, reference %v", in, got.Success, want.Success)
	}
	got.Success, want.Success = nil, nil
	if got != want {
		t.Fatalf("%q:\n got %+v\nwant %+v", in, got, want)
	}
}

var peekCases = []string{
	`{"seq":1,"type":"event","event":"x"}`,
	` {"seq" : 7 , "type":"response","request_seq":3,"success":false,"command":"evaluate","message":"n\u00e9\"q","body":{"a":[1,2.5e-3,-0,true,null,{"b":"\\"}]}} `,
	`{"type":"request","command":"x","seq":1,"seq":2}`,
	`{"type":"request","command":"c","s\u0065q":9}`,
	`{"type":"request","command":"é☃","success":null}`,
	`{"seq":"3","type":"request","command":"x"}`,
	`{"seq":3.5,"type":"request","command":"x"}`,
	`{"seq":1e2,"type":"request","command":"x"}`,
	`{"seq":99999999999999999999,"type":"request","command":"x"}`,
	`{"type":null,"command":"x"}`,
	`{"success":1}`,
	`{"a":[1,]}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`, `{"a":1e}`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}",
	`{"a":tru}`, `{"a":1}x`, `{"a":1`, `{"a" 1}`, `{,}`, `{}`, `[]`, `null`, ``, `"s"`, `{"a":{"b":[{}]}}`,
	"{\"type\":\"request\",\"command\":\"\xff\"}",
}

func TestPeekMatchesEncodingJSON(t *testing.T) {
	for _, c := range peekCases {
		samePeek(t, []byte(c))
	}
	deep := strings.Repeat("[", maxDepth+5) + strings.Repeat("]", maxDepth+5)
	if _, err := peekFields([]byte(`{"a":`+deep+`}`), nil); err == nil {
		t.Fatal("nesting past the limit accepted")
	}
}

// PeekBody + ResponseOf give what encoding/json gives for a Response.
func TestResponseOf(t *testing.T) {
	for _, in := range []string{
		`{"seq":5,"type":"response","request_seq":3,"command":"evaluate","success":true,"body":{"result":"{\"a\": [1]}","variablesReference":0}}`,
		`{"body": [1, {"x": "y"}] , "seq":6,"type":"response","request_seq":4,"command":"x","success":false,"message":"no"}`,
		`{"seq":7,"type":"response","request_seq":5,"command":"next","success":true}`,
		`{"seq":8,"type":"response","request_seq":6,"command":"next","success":true,"body":null}`,
	} {
		env, raw, err := PeekBody([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		got := ResponseOf(env, raw)
		var want Response
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if string(want.Body) == "null" {
			want.Body = nil
		}
		if fmt.Sprint(*got) != fmt.Sprint(want) {
			t.Fatalf("%s:\n got %+v\nwant %+v", in, *got, want)
		}
	}
}

func FuzzPeek(f *testing.F) {
	for _, c := range peekCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) { samePeek(t, in) })
}

// evaluateAnswer is a response carrying a 10 KB JSON text as its result
// (what the probe returns for a page of rows).
func evaluateAnswer() []byte {
	var rows []any
	for i := 0; i < 100; i++ {
		rows = append(rows, []any{i, 1.2345 * float64(i), "Nice", nil, true, -3.5e-7})
	}
	inner, _ := json.Marshal(map[string]any{"page": map[string]any{"rows": rows}})
	body, _ := json.Marshal(map[string]any{"seq": 9, "type": "response", "request_seq": 8, "success": true, "command": "evaluate",
		"body": map[string]any{"result": strings.Repeat(string(inner), 4), "variablesReference": 0}})
	return body
}

func BenchmarkPeek(b *testing.B) {
	body := evaluateAnswer()
	b.Run("impl=peek", func(b *testing.B) {
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			if _, err := Peek(body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("impl=encoding_json", func(b *testing.B) { // what Peek was
		b.SetBytes(int64(len(body)))
		for b.Loop() {
			var e Envelope
			if err := json.Unmarshal(body, &e); err != nil {
				b.Fatal(err)
			}
		}
	})
}
