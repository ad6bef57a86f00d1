// cdptext_fuzz_test.go: fuzz targets for the inspector's text (issue
// #28.1): any text the standard library reads as JSON (it replaces lone
// surrogates) decodes after fixSurrogates, which keeps the length and is
// idempotent; and an answer, whatever its result holds, always reaches the
// call that waits for it (its result, or an error), on the main thread and
// through a worker's session.
//
// go test -run '^$' -fuzz FuzzCDPText -fuzztime 30s ./server/adapter/node/

package node

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
)

var surrogateSeeds = []string{
	`{"id":1,"result":{"result":{"type":"string","value":"\ud83d"}}}`,
	`{"id":2,"result":{"value":"\ud83d\ude00 \ude00 \\ud83d \ud83d\u0041 \uDBFF\uDFFF \uD800"}}`,
	`{"method":"Debugger.paused","params":{"data":{"description":"Error: bad \ud83d"}}}`,
	`{"id":3,"result":"\\\ud83d\\"}`,
	`{"id":4,"result":"\ud83d\"}`,
	`{"id":5,"result":"a\xffb"}`,
	`{"id":6,"result":"\u12"}`,
}

func FuzzCDPText(f *testing.F) {
	for _, s := range surrogateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := bytes.Clone(b)
		out := fixSurrogates(b)
		if !bytes.Equal(b, in) {
			t.Fatal("fixSurrogates changed its input")
		}
		if len(out) != len(b) {
			t.Fatalf("length %d → %d", len(b), len(out))
		}
		if again := fixSurrogates(out); !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %q → %q → %q", b, out, again)
		}
		if !json.Valid(b) {
			return
		}
		var m message
		var v, v2 any
		if json.Unmarshal(b, &v) == nil {
			// (Duplicate names, which V8 never writes, stay an error.)
			if err := jsonv2.Unmarshal(out, &v2, lenient); err != nil && !strings.Contains(err.Error(), "duplicate") {
				t.Fatalf("%q: the standard library reads it, the lenient decoder does not: %v", b, err)
			}
		}
		if jsonv2.Unmarshal(out, &m, lenient) == nil && m.ID > 0 && bytes.HasPrefix(b, []byte(`{"id":`)) {
			if id, ok := headID(out); !ok || id != m.ID {
				t.Fatalf("headID(%q) = %d, %v; want %d", out, id, ok, m.ID)
			}
		}
	})
}

// newTestConn is a connection with no websocket: only dispatch is used.
func newTestConn() *conn {
	return &conn{pending: map[int64]chan reply{}, workers: map[string]*workerConn{}, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

func FuzzCDPAnswerNeverDropped(f *testing.F) {
	for _, s := range []string{`"\ud83d"`, `{"value":"\ude00x"}`, `"\ud83d\"`, `{"a":1`, `"a\xffb"`, `}{`, `"\u12`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, result string) {
		c := newTestConn()
		ch := make(chan reply, 1)
		c.pending[7] = ch
		c.dispatch([]byte(`{"id":7,"result":`+result+`}`), "")
		select {
		case <-ch:
		default:
			t.Fatalf("the answer to call 7 was dropped: result %q", result)
		}
		// The same answer from a worker, wrapped in an event as a string.
		w := c.attachWorker("s1")
		wch := make(chan reply, 1)
		w.pending[3] = wch
		inner := `{"id":3,"result":` + result + `}`
		c.dispatch([]byte(`{"method":"NodeWorker.receivedMessageFromWorker","params":{"sessionId":"s1","message":`+strconv.Quote(inner)+`}}`), "")
		select {
		case <-wch:
		default:
			if json.Valid([]byte(strconv.Quote(inner))) {
				t.Fatalf("the worker's answer to call 3 was dropped: result %q", result)
			}
		}
	})
}
