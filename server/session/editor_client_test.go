// editor_client_test.go: a scripted DAP "editor" for the proxy tests. It
// records its transcript (every message it receives, in order) and checks
// that it never receives a response it did not cause.

package session

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap"
)

type editorClient struct {
	t    testing.TB
	conn io.ReadWriteCloser
	w    *dap.Writer

	mu         sync.Mutex
	seq        int
	sent       map[int]string
	transcript []map[string]any
	inbox      chan map[string]any
	foreign    []string         // responses the editor did not cause
	held       []map[string]any // received but not yet expected
	readErr    error
	done       chan struct{}
}

func newEditorClient(t testing.TB, conn io.ReadWriteCloser) *editorClient {
	c := &editorClient{t: t, conn: conn, w: dap.NewWriter(conn), sent: map[int]string{}, inbox: make(chan map[string]any, 1024), done: make(chan struct{})}
	go c.readLoop()
	return c
}

func (c *editorClient) readLoop() {
	defer close(c.done)
	r := dap.NewReader(c.conn)
	for {
		b, err := r.ReadFrame()
		if err != nil {
			c.mu.Lock()
			c.readErr = err
			c.mu.Unlock()
			close(c.inbox)
			return
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.mu.Lock()
			c.foreign = append(c.foreign, "undecodable: "+string(b))
			c.mu.Unlock()
			continue
		}
		c.mu.Lock()
		if m["type"] == "response" {
			rs := int(m["request_seq"].(float64))
			if cmd, ok := c.sent[rs]; !ok || cmd != m["command"] {
				c.foreign = append(c.foreign, fmt.Sprintf("%v", m))
			}
			delete(c.sent, rs)
		}
		c.transcript = append(c.transcript, m)
		c.mu.Unlock()
		c.inbox <- m
	}
}

// request sends a request and returns its seq.
func (c *editorClient) request(command string, args any) int {
	c.mu.Lock()
	c.seq++
	seq := c.seq
	c.sent[seq] = command
	c.mu.Unlock()
	msg := map[string]any{"seq": seq, "type": "request", "command": command}
	if args != nil {
		msg["arguments"] = args
	}
	b, _ := json.Marshal(msg)
	if err := c.w.WriteFrame(b); err != nil {
		c.t.Fatalf("editor send %s: %v", command, err)
	}
	return seq
}

// expect waits for a message matching pred, keeping others in order for
// later expects (a small mailbox).
func (c *editorClient) expect(what string, pred func(map[string]any) bool) map[string]any {
	c.t.Helper()
	for i, m := range c.held {
		if pred(m) {
			c.held = append(c.held[:i], c.held[i+1:]...)
			return m
		}
	}
	deadline := time.After(60 * time.Second)
	for {
		select {
		case m, ok := <-c.inbox:
			if !ok {
				c.t.Fatalf("editor connection closed while waiting for %s (%v)", what, c.readErr)
			}
			if pred(m) {
				return m
			}
			c.held = append(c.held, m)
		case <-deadline:
			c.t.Fatalf("editor: no %s within 60s", what)
		}
	}
}

func (c *editorClient) response(seq int) map[string]any {
	c.t.Helper()
	m := c.expect(fmt.Sprintf("response to %d", seq), func(m map[string]any) bool {
		return m["type"] == "response" && int(m["request_seq"].(float64)) == seq
	})
	if m["success"] != true {
		c.t.Fatalf("request %d (%v) failed: %v", seq, m["command"], m["message"])
	}
	return m
}

func (c *editorClient) event(name string) map[string]any {
	c.t.Helper()
	return c.expect("event "+name, func(m map[string]any) bool { return m["type"] == "event" && m["event"] == name })
}

func (c *editorClient) call(command string, args any) map[string]any {
	c.t.Helper()
	return c.response(c.request(command, args))
}

func (c *editorClient) close() {
	_ = c.conn.Close()
	<-c.done
}

func body(m map[string]any) map[string]any {
	b, _ := m["body"].(map[string]any)
	return b
}

// initialize sends the editor's standard initialize request.
func (c *editorClient) initialize() {
	c.t.Helper()
	c.call("initialize", map[string]any{"clientID": "test-editor", "adapterID": "python", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"})
}

// launchTo runs the editor side of a debugpy launch of program to a
// breakpoint at line and returns the stopped thread; extra launch arguments
// are added to the standard ones. Wire sequence (after initialize):
//
//	→ launch               (answered after configurationDone)
//	← initialized
//	→ setBreakpoints(line) ← response
//	→ configurationDone    ← response, ← launch response
//	← stopped
func (c *editorClient) launchTo(program string, line int, extra map[string]any) (threadID any) {
	c.t.Helper()
	args := map[string]any{"type": "python", "request": "launch", "program": program, "console": "internalConsole"}
	maps.Copy(args, extra)
	launch := c.request("launch", args)
	c.event("initialized")
	c.call("setBreakpoints", map[string]any{"source": map[string]any{"path": program}, "breakpoints": []map[string]any{{"line": line}}})
	c.call("configurationDone", nil)
	c.response(launch)
	return body(c.event("stopped"))["threadId"]
}
