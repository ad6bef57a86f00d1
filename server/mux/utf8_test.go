// utf8_test.go: an editor request that is not valid UTF-8 is answered by
// the sidecar with an error and never reaches the adapter; the session
// goes on.

package mux

import (
	"strings"
	"sync"
	"testing"
)

func TestEditorInvalidUTF8Request(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	m, _, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		mu.Lock()
		seen = append(seen, req["command"].(string))
		mu.Unlock()
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()

	// → evaluate whose expression holds the bytes 0xff 0xfe (not UTF-8)
	// ← error response from the sidecar, the adapter sees nothing
	bad := []byte(`{"seq":1,"type":"request","command":"evaluate","arguments":{"expression":"x` + "\xff\xfe" + `"}}`)
	if err := ed.w.WriteFrame(bad); err != nil {
		t.Fatal(err)
	}
	msg := ed.recv(t)
	if msg["type"] != "response" || msg["success"] != false || msg["request_seq"] != float64(1) || msg["command"] != "evaluate" {
		t.Fatalf("want an error response to seq 1, got %v", msg)
	}
	text, _ := msg["message"].(string)
	if !strings.Contains(text, "not valid UTF-8") || !strings.Contains(text, "offset 75") {
		t.Fatalf("message should name the problem and the offset: %q", text)
	}

	// → a valid request afterwards  ← the adapter's answer: the stream goes on
	ed.send(t, map[string]any{"seq": 2, "type": "request", "command": "threads"})
	msg = ed.recv(t)
	if msg["request_seq"] != float64(2) || msg["success"] != true {
		t.Fatalf("want the adapter's answer to seq 2, got %v", msg)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "threads" {
		t.Fatalf("the adapter must see only the valid request, saw %v", seen)
	}
}
