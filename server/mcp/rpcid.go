// rpcid.go: JSON-RPC ids, in front of mcp-go on both transports. The
// specification allows a string, a number or null; mcp-go decodes a number
// through float64 (a 30-digit id came back as 1.2345678901234568e+29) and
// took other kinds. An id mcp-go would not give back byte for byte is
// replaced on the way in by a token, and the token by the client's own
// bytes on the way out (the id is echoed verbatim); an object, array or
// boolean id is refused with -32600 Invalid Request and id null. A
// message without an id (a notification) or without a method (a client's
// answer to the server) passes as it is.

package mcp

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// invalidRequest is the answer to a request whose id is not a string, a
// number or null.
var invalidRequest = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: the id must be a string, a number or null"}}`)

// rpcIDs maps the tokens given to mcp-go to the clients' ids.
type rpcIDs struct {
	prefix string
	mu     sync.Mutex
	next   int
	byTok  map[string][]byte
}

func newRPCIDs() *rpcIDs {
	raw := make([]byte, 8)
	_, _ = rand.Read(raw)
	return &rpcIDs{prefix: "dapscope-rpcid-" + hex.EncodeToString(raw) + "-", byTok: map[string][]byte{}}
}

// in is the message mcp-go gets for msg, or reject: the answer to send
// the client instead.
func (r *rpcIDs) in(msg []byte) (out, reject []byte) {
	var m map[string]json.RawMessage
	if json.Unmarshal(msg, &m) != nil {
		return msg, nil // not an object: mcp-go answers it (parse error)
	}
	// mcp-go decodes into structs, where "ID" or "Id" is the id too and
	// the last such key wins: read the id and the method the same way.
	var seen struct {
		ID     json.RawMessage `json:"id"`
		Method json.RawMessage `json:"method"`
	}
	if json.Unmarshal(msg, &seen) != nil {
		return msg, nil
	}
	id := bytes.TrimSpace(seen.ID)
	switch {
	case len(id) == 0:
		return msg, nil
	case string(id) == "null":
		return msg, nil
	case id[0] == '{' || id[0] == '[' || id[0] == 't' || id[0] == 'f':
		return nil, invalidRequest
	}
	if seen.Method == nil || safeID(id) {
		return msg, nil
	}
	for k := range m {
		if strings.EqualFold(k, "id") {
			delete(m, k)
		}
	}
	r.mu.Lock()
	r.next++
	tok := r.prefix + strconv.Itoa(r.next)
	r.byTok[tok] = append([]byte(nil), id...)
	r.mu.Unlock()
	m["id"], _ = json.Marshal(tok)
	b, err := json.Marshal(m)
	if err != nil {
		return msg, nil
	}
	return b, nil
}

// out puts the clients' ids back into b (a response, or a chunk of an
// event stream), in place of their tokens.
func (r *rpcIDs) out(b []byte) []byte {
	if !bytes.Contains(b, []byte(r.prefix)) {
		return b
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for tok, id := range r.byTok {
		q := []byte(strconv.Quote(tok))
		if bytes.Contains(b, q) {
			b = bytes.ReplaceAll(b, q, id)
			delete(r.byTok, tok)
		}
	}
	return b
}

// safeID says whether mcp-go gives id back as it came: a string that
// json.Marshal spells the same way (no escapes it would change), an
// integer within float64's exact range spelled plainly.
func safeID(id []byte) bool {
	if id[0] == '"' {
		var s string
		if json.Unmarshal(id, &s) != nil {
			return false
		}
		b, err := json.Marshal(s)
		return err == nil && bytes.Equal(b, id)
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && n > -1<<53 && n < 1<<53 && strconv.FormatInt(n, 10) == string(id)
}

// stdio: the client's lines through in, mcp-go's through out; a refusal
// is written through the same writer, under its lock (one writer).

// idReader is stdin as mcp-go reads it.
type idReader struct {
	ids  *rpcIDs
	src  *bufio.Reader
	w    *idWriter
	rest []byte
}

func (r *idReader) Read(p []byte) (int, error) {
	for len(r.rest) == 0 {
		line, err := r.src.ReadBytes('\n')
		if len(line) > 0 {
			body := bytes.TrimRight(line, "\r\n")
			out, reject := r.ids.in(body)
			if reject != nil {
				if _, werr := r.w.Write(append(reject, '\n')); werr != nil {
					return 0, werr
				}
			} else {
				r.rest = append(out, '\n')
			}
		}
		if err != nil {
			if len(r.rest) == 0 {
				return 0, err
			}
			break
		}
	}
	n := copy(p, r.rest)
	r.rest = r.rest[n:]
	return n, nil
}

// idWriter is stdout as mcp-go writes it (a line per message).
type idWriter struct {
	ids *rpcIDs
	mu  sync.Mutex
	dst io.Writer
	buf []byte
}

func (w *idWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	i := bytes.LastIndexByte(w.buf, '\n')
	if i < 0 {
		return len(p), nil
	}
	out := w.ids.out(w.buf[:i+1])
	w.buf = append(w.buf[:0], w.buf[i+1:]...)
	if _, err := w.dst.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// idHandler is the HTTP side: a POST's body in, its answer (JSON or an
// event stream) out.
func idHandler(ids *rpcIDs, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			h.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body) // bounded by limitBody
		if err != nil {
			http.Error(w, "reading request body: "+err.Error(), http.StatusBadRequest)
			return
		}
		out, reject := ids.in(body)
		if reject != nil {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(reject)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(out))
		r.ContentLength = int64(len(out))
		h.ServeHTTP(&idResponse{ResponseWriter: w, ids: ids}, r)
	})
}

// idResponse rewrites what mcp-go writes; a message is written whole in
// one Write (an event: one Fprintf), so a token is never split.
type idResponse struct {
	http.ResponseWriter
	ids *rpcIDs
}

func (w *idResponse) WriteHeader(code int) {
	w.Header().Del("Content-Length")
	w.ResponseWriter.WriteHeader(code)
}

func (w *idResponse) Write(b []byte) (int, error) {
	if _, err := w.ResponseWriter.Write(w.ids.out(b)); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (w *idResponse) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *idResponse) Unwrap() http.ResponseWriter { return w.ResponseWriter }
