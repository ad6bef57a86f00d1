// rpcid_test.go: hostile JSON-RPC ids and requests (issue #37.13), one
// row per attack, over HTTP and stdio: every id comes back as the client
// spelled it (a 30-digit number used to come back as
// 1.2345678901234568e+29), an object, array or boolean id is refused with
// -32600 and id null, a GET without a session is answered at once (it
// hung), a DELETE of an unknown session is 404 (it was 200).

package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// hostileIDs are ping requests' ids: want is the id of the answer ("":
// refused with -32600 and id null).
var hostileIDs = []struct{ name, id, want string }{
	{"a plain number (control)", `7`, `7`},
	{"a plain string (control)", `"abc"`, `"abc"`},
	{"a 30-digit number", `123456789012345678901234567890`, `123456789012345678901234567890`},
	{"2^53+1", `9007199254740993`, `9007199254740993`},
	{"a negative number", `-12`, `-12`},
	{"a fraction", `1.50`, `1.50`},
	{"an exponent", `1e3`, `1e3`},
	{"a string with escapes", `"\u0041<\/>"`, `"\u0041<\/>"`},
	{"an object", `{"a":1}`, ""},
	{"an empty object", `{}`, ""},
	{"an array", `[1,2]`, ""},
	{"true", `true`, ""},
	{"false", `false`, ""},
	// mcp-go reads "ID" as the id too, and the last such key wins.
	{"a big id spelled ID", `1,"ID":9007199270000001`, `9007199270000001`},
	{"a big id spelled Id, then id", `9007199270000001,"Id":2`, `2`},
}

// answer is a JSON-RPC answer's id and error code.
type answer struct {
	ID    json.RawMessage `json:"id"`
	Error *struct {
		Code int `json:"code"`
	} `json:"error"`
}

// checkAnswer checks the answer to a ping with row's id.
func checkAnswer(t *testing.T, name, want string, raw []byte) {
	t.Helper()
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil {
		t.Errorf("%s: answer %q: %v", name, raw, err)
		return
	}
	switch {
	case want == "" && (a.Error == nil || a.Error.Code != -32600 || string(a.ID) != "null"):
		t.Errorf("%s: answer %s, want -32600 with id null", name, raw)
	case want != "" && (string(a.ID) != want || a.Error != nil):
		t.Errorf("%s: answer %s, want id %s", name, raw, want)
	}
}

// send is one HTTP request to the endpoint; an event stream's answer is
// its data line.
func send(t *testing.T, ep Endpoint, method, session, body string) (int, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(testCtx(t), method, ep.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+ep.Token)
	if session != "" {
		req.Header.Set(mcpserver.HeaderKeySessionID, session)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	for _, l := range strings.Split(string(b), "\n") {
		if d, ok := strings.CutPrefix(l, "data: "); ok {
			return resp.StatusCode, []byte(d)
		}
	}
	return resp.StatusCode, b
}

func TestHostileRPCOverHTTP(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t, Options{})
	ep, err := srv.ServeHTTP(testCtx(t), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	session := rawHTTP{t, ep}.initialize()
	for _, row := range hostileIDs {
		code, body := send(t, ep, http.MethodPost, session, `{"jsonrpc":"2.0","id":`+row.id+`,"method":"ping"}`)
		if row.want == "" && code != http.StatusBadRequest || row.want != "" && code != http.StatusOK {
			t.Errorf("%s: status %d", row.name, code)
		}
		checkAnswer(t, row.name, row.want, body)
	}
	// GET and DELETE: answered at once, by what they name.
	for _, row := range []struct {
		name, method, session string
		want                  int
	}{
		{"GET without a session", http.MethodGet, "", http.StatusBadRequest},
		{"GET of an unknown session", http.MethodGet, "mcp-session-00", http.StatusNotFound},
		{"DELETE without a session", http.MethodDelete, "", http.StatusBadRequest},
		{"DELETE of an unknown session", http.MethodDelete, "mcp-session-00", http.StatusNotFound},
		{"DELETE of the session", http.MethodDelete, session, http.StatusOK},
		{"DELETE of it again", http.MethodDelete, session, http.StatusNotFound},
		{"GET of the deleted session", http.MethodGet, session, http.StatusNotFound},
	} {
		if code, body := send(t, ep, row.method, row.session, ""); code != row.want {
			t.Errorf("%s: %d %s, want %d", row.name, code, body, row.want)
		}
	}
}

func TestHostileRPCOverStdio(t *testing.T) {
	t.Parallel()
	_, srv := newServer(t, Options{})
	ctx, cancel := context.WithCancel(testCtx(t))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.ServeStdio(ctx, inR, outW); _ = outW.Close() }()
	defer func() {
		cancel()
		_ = inW.Close()
		go func() { _, _ = io.Copy(io.Discard, outR) }()
		<-done
	}()
	lines := bufio.NewReader(outR)
	ask := func(msg string) []byte {
		t.Helper()
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			t.Fatal(err)
		}
		l, err := lines.ReadBytes('\n')
		if err != nil {
			t.Fatal(err)
		}
		return bytes.TrimSpace(l)
	}
	ask(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	_, _ = io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
	for _, row := range hostileIDs {
		checkAnswer(t, row.name, row.want, ask(`{"jsonrpc":"2.0","id":`+row.id+`,"method":"ping"}`))
	}
}

// FuzzRPCID: any message in, and an answer carrying the id mcp-go was
// given out, gives the client its own id back (or a refusal); nothing
// panics.
func FuzzRPCID(f *testing.F) {
	for _, row := range hostileIDs {
		f.Add([]byte(`{"jsonrpc":"2.0","id":` + row.id + `,"method":"ping"}`))
	}
	f.Add([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	f.Add([]byte(`{"jsonrpc":"2.0","id":1e400,"result":{}}`))
	f.Add([]byte(`[{"id":1}]`))
	f.Fuzz(func(t *testing.T, msg []byte) {
		ids := newRPCIDs()
		in, reject := ids.in(msg)
		if reject != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		if json.Unmarshal(in, &m) != nil || m.ID == nil || m.Method == nil {
			return
		}
		var orig struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(msg, &orig)
		// mcp-go answers with the id as it decoded it.
		var v any
		if json.Unmarshal(m.ID, &v) != nil {
			return
		}
		id, _ := json.Marshal(v)
		got := ids.out([]byte(`{"jsonrpc":"2.0","id":` + string(id) + `,"result":{}}`))
		var back struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(got, &back) != nil {
			t.Fatalf("answer %q is not JSON", got)
		}
		if string(id) != string(bytes.TrimSpace(orig.ID)) && string(back.ID) != string(bytes.TrimSpace(orig.ID)) {
			t.Fatalf("id %s came back as %s", orig.ID, back.ID)
		}
	})
}
