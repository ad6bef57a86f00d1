// cmd_inspect_dap_test.go drives an editor-like DAP client through the
// sidecar proxy (Manager.ServeEditor over an in-memory pipe, real debugpy
// behind it) and sends the custom request dapscope/inspect: the sidecar
// answers it itself with an inspect.Result.

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

type rawMsg struct {
	Seq        int             `json:"seq"`
	Type       string          `json:"type"`
	Command    string          `json:"command"`
	Event      string          `json:"event"`
	RequestSeq int             `json:"request_seq"`
	Success    bool            `json:"success"`
	Message    string          `json:"message"`
	Body       json.RawMessage `json:"body"`
}

type rawClient struct {
	t    *testing.T
	conn net.Conn
	r    *bufio.Reader
	seq  int
	msgs chan rawMsg
}

func (c *rawClient) send(command string, args any) int {
	c.seq++
	b, _ := json.Marshal(map[string]any{"seq": c.seq, "type": "request", "command": command, "arguments": args})
	if _, err := fmt.Fprintf(c.conn, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		c.t.Fatal(err)
	}
	return c.seq
}

func (c *rawClient) readLoop() {
	defer close(c.msgs)
	for {
		n := -1
		for {
			line, err := c.r.ReadString('\n')
			if err != nil {
				return
			}
			line = strings.TrimSpace(line)
			if line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
				n, _ = strconv.Atoi(strings.TrimSpace(v))
			}
		}
		buf := make([]byte, n)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			return
		}
		var m rawMsg
		if json.Unmarshal(buf, &m) == nil {
			c.msgs <- m
		}
	}
}

// wait returns the first message matching ok, within 60 s.
func (c *rawClient) wait(what string, ok func(rawMsg) bool) rawMsg {
	timeout := time.After(60 * time.Second)
	for {
		select {
		case m, open := <-c.msgs:
			if !open {
				c.t.Fatalf("connection closed waiting for %s", what)
			}
			if ok(m) {
				return m
			}
		case <-timeout:
			c.t.Fatalf("timed out waiting for %s", what)
		}
	}
}

func (c *rawClient) response(seq int) rawMsg {
	return c.wait("response "+strconv.Itoa(seq), func(m rawMsg) bool { return m.Type == "response" && m.RequestSeq == seq })
}

func TestDapscopeInspectRequestThroughProxy(t *testing.T) {
	root, _ := os.Getwd()
	mgr := session.NewManager(session.ManagerOptions{Workspace: root, Custom: customRequests(),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer mgr.Close()
	editor, side := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- mgr.ServeEditor(t.Context(), side, session.ProxySpec{}) }()
	c := &rawClient{t: t, conn: editor, r: bufio.NewReader(editor), msgs: make(chan rawMsg, 256)}
	go c.readLoop()

	program := filepath.Join(root, "testdata/python/example.py")
	c.response(c.send("initialize", map[string]any{"clientID": "test", "adapterID": "python", "linesStartAt1": true, "columnsStartAt1": true, "pathFormat": "path"}))
	launch := c.send("launch", map[string]any{"type": "python", "request": "launch", "program": program, "console": "internalConsole", "python": []string{"/usr/bin/python3"}})
	c.wait("initialized", func(m rawMsg) bool { return m.Event == "initialized" })
	c.response(c.send("setBreakpoints", map[string]any{"source": map[string]any{"path": program}, "breakpoints": []map[string]any{{"line": 34}}}))
	c.response(c.send("configurationDone", nil))
	c.response(launch)
	c.wait("stopped", func(m rawMsg) bool { return m.Event == "stopped" })

	r := c.response(c.send("dapscope/inspect", map[string]any{"expression": "sales", "options": map[string]any{"max_preview_rows": 2}}))
	if !r.Success {
		t.Fatalf("dapscope/inspect failed: %s", r.Message)
	}
	var res inspect.Result
	if err := json.Unmarshal(r.Body, &res); err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != inspect.TypeDataFrame || len(res.Preview.Head) != 2 || !strings.HasPrefix(res.Summary, "DataFrame 1,000 rows × 6 columns") {
		t.Fatalf("unexpected result: %s %q", res.DetectedType, res.Summary)
	}
	r = c.response(c.send("dapscope/inspect", map[string]any{"expression": "sales.head()"}))
	if r.Success || !strings.Contains(r.Message+string(r.Body), "INVALID_EXPRESSION") {
		t.Fatalf("want an INVALID_EXPRESSION error response, got success=%v %s %s", r.Success, r.Message, r.Body)
	}
	c.response(c.send("disconnect", map[string]any{"terminateDebuggee": true}))
	editor.Close()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("ServeEditor did not return after disconnect")
	}
}
