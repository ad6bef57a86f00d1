// utf8_test.go: an editor request that is not valid UTF-8 is answered by
// the sidecar with an error and never reaches the adapter; the session
// goes on.

package mux

import (
	"strings"
	"sync"
	"testing"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestEditorInvalidUTF8Request(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	m, _, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		mu.Lock()
		seen = append(seen, req.Env.Command)
		mu.Unlock()
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()

	// → evaluate whose expression holds the bytes 0xff 0xfe (not UTF-8)
	// ← error response from the sidecar, the adapter sees nothing
	bad := []byte(`{"seq":1,"type":"request","command":"evaluate","arguments":{"expression":"x` + "\xff\xfe" + `"}}`)
	ed.SetNextSeq(2)
	ed.WriteFrame(bad)
	msg := ed.Recv()
	if msg.Env.Type != "response" || msg.Success() || msg.Env.RequestSeq != 1 || msg.Env.Command != "evaluate" {
		t.Fatalf("want an error response to seq 1, got %s", msg)
	}
	if text := msg.Env.Message; !strings.Contains(text, "not valid UTF-8") || !strings.Contains(text, "offset 75") {
		t.Fatalf("message should name the problem and the offset: %q", text)
	}

	// → a valid request afterwards  ← the adapter's answer: the stream goes on
	if seq := ed.Send("threads", nil); seq != 2 || !ed.Recv().IsResponse(2) {
		t.Fatal("want the adapter's answer to seq 2")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) != 1 || seen[0] != "threads" {
		t.Fatalf("the adapter must see only the valid request, saw %v", seen)
	}
}
