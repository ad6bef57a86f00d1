// httpsessions.go: MCP sessions over HTTP expire and are bounded in
// number. Each initialize opened a session that lived until the client sent
// DELETE: 20,000 initializes without one grew the sidecar from 16 to 274 MB.
// The table below is the streamable transport's session id manager: a
// session idle for HTTPSessionIdle is closed, and when a new one would pass
// MaxHTTPSessions the oldest idle ones are closed first. A session with a
// request in flight is never closed. A closed session's next request gets
// 404, which tells a client to initialize again (the MCP specification);
// its transport state is released through the transport's own DELETE.

package mcp

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"sort"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"
)

// Defaults of Options.HTTPSessionIdle and Options.MaxHTTPSessions.
const (
	DefaultHTTPSessionIdle = time.Hour
	DefaultMaxHTTPSessions = 64
)

// sessionIDPrefix starts every session id this server hands out.
const sessionIDPrefix = "mcp-session-"

// errSessionClosed: an unknown, expired or evicted session (HTTP 404).
var errSessionClosed = errors.New("unknown or expired MCP session: initialize again")

type httpSession struct {
	last     time.Time
	inflight int
}

// httpSessions is the session table of one HTTP endpoint; it implements
// mcp-go's SessionIdManager.
type httpSessions struct {
	idle time.Duration
	max  int
	now  func() time.Time

	mu     sync.Mutex
	byID   map[string]*httpSession
	closed []string // closed here, their transport state not released yet
}

func newHTTPSessions(idle time.Duration, max int) *httpSessions {
	return &httpSessions{idle: idle, max: max, now: time.Now, byID: map[string]*httpSession{}}
}

// Generate opens a session (initialize), closing the oldest idle ones
// past the cap.
func (t *httpSessions) Generate() string {
	raw := make([]byte, 16)
	_, _ = rand.Read(raw)
	id := sessionIDPrefix + hex.EncodeToString(raw)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.byID[id] = &httpSession{last: t.now()}
	t.trimLocked()
	return id
}

// Validate accepts an open session and marks it used.
func (t *httpSessions) Validate(id string) (bool, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	e, ok := t.byID[id]
	if !ok {
		return false, errSessionClosed
	}
	e.last = t.now()
	return false, nil
}

// Terminate closes a session (the client's DELETE, or ours).
func (t *httpSessions) Terminate(id string) (bool, error) {
	t.mu.Lock()
	delete(t.byID, id)
	t.mu.Unlock()
	return false, nil
}

// known says whether session id is open.
func (t *httpSessions) known(id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	_, ok := t.byID[id]
	return ok
}

// begin and end bracket a request of session id: a session is not idle
// while one runs.
func (t *httpSessions) begin(id string) {
	t.mu.Lock()
	if e, ok := t.byID[id]; ok {
		e.inflight++
		e.last = t.now()
	}
	t.mu.Unlock()
}

func (t *httpSessions) end(id string) {
	t.mu.Lock()
	if e, ok := t.byID[id]; ok {
		e.inflight--
		e.last = t.now()
	}
	t.mu.Unlock()
}

// sweep closes the sessions idle for longer than the idle time.
func (t *httpSessions) sweep() {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	for id, e := range t.byID {
		if e.inflight == 0 && now.Sub(e.last) >= t.idle {
			t.closeLocked(id)
		}
	}
}

// trimLocked closes the oldest idle sessions while there are too many.
func (t *httpSessions) trimLocked() {
	if len(t.byID) <= t.max {
		return
	}
	var idle []string
	for id, e := range t.byID {
		if e.inflight == 0 {
			idle = append(idle, id)
		}
	}
	sort.Slice(idle, func(i, j int) bool { return t.byID[idle[i]].last.Before(t.byID[idle[j]].last) })
	for _, id := range idle {
		if len(t.byID) <= t.max {
			return
		}
		t.closeLocked(id)
	}
}

func (t *httpSessions) closeLocked(id string) {
	delete(t.byID, id)
	t.closed = append(t.closed, id)
}

// open is the number of open sessions.
func (t *httpSessions) open() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.byID)
}

// release frees the transport state of the sessions closed here, through
// the transport's own DELETE.
func (t *httpSessions) release(transport http.Handler) {
	t.mu.Lock()
	ids := t.closed
	t.closed = nil
	t.mu.Unlock()
	for _, id := range ids {
		req, err := http.NewRequest(http.MethodDelete, "http://127.0.0.1"+endpointPath, nil)
		if err != nil {
			continue
		}
		req.Header.Set(mcpserver.HeaderKeySessionID, id)
		transport.ServeHTTP(discard{header: http.Header{}}, req)
	}
}

// track wraps the transport: requests are bracketed for the session they
// name, and the closed sessions' state is released after each one.
func (t *httpSessions) track(transport http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(mcpserver.HeaderKeySessionID)
		if r.Method == http.MethodGet || r.Method == http.MethodDelete {
			// A GET without a session would wait for ever, a DELETE of
			// an unknown one was answered 200.
			if id == "" {
				http.Error(w, r.Method+" needs the Mcp-Session-Id header of a session (initialize opens one)", http.StatusBadRequest)
				return
			}
			if !t.known(id) {
				http.Error(w, errSessionClosed.Error(), http.StatusNotFound)
				return
			}
		}
		if id != "" {
			t.begin(id)
		}
		transport.ServeHTTP(w, r)
		if id != "" {
			t.end(id)
		}
		t.release(transport)
	})
}

// discard is a ResponseWriter that drops the answer of our own DELETEs.
type discard struct{ header http.Header }

func (d discard) Header() http.Header         { return d.header }
func (d discard) Write(b []byte) (int, error) { return len(b), nil }
func (d discard) WriteHeader(int)             {}
