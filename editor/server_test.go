// Tests of the editor channel with a scripted JSON-RPC client (the
// extension's side) and a scripted DAP editor (VS Code's side) against real
// debugpy: initialize, startProxy, hover on a paused DataFrame, null when
// nothing is paused or running, dapscope/inspect, dapscope/sessions, session
// notifications, and shutdown/exit leaving no processes.

package editor

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
	"go.uber.org/goleak"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/platform"
	"github.com/dapscope/dapscope/server/session"
)

// TestMain checks for leaked goroutines; go-winio's one I/O completion
// goroutine (Windows: the editor's named pipe) lives as long as the process.
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.IgnoreAnyFunction("github.com/Microsoft/go-winio.ioCompletionProcessor"))
}

// rpcClient is the extension's side of the channel.
type rpcClient struct {
	conn   jsonrpc2.Conn
	mu     sync.Mutex
	events []SessionEvent
	evCh   chan SessionEvent
}

func startChannel(t *testing.T, mgr *session.Manager) (*rpcClient, chan error) {
	t.Helper()
	a, b := net.Pipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t), Version: "test"})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	c := &rpcClient{conn: jsonrpc2.NewConn(jsonrpc2.NewStream(b)), evCh: make(chan SessionEvent, 64)}
	c.conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() == "dapscope/sessionEvent" {
			var ev SessionEvent
			_ = json.Unmarshal(req.Params(), &ev)
			c.mu.Lock()
			c.events = append(c.events, ev)
			c.mu.Unlock()
			select {
			case c.evCh <- ev:
			default:
			}
			return nil
		}
		return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
	})
	t.Cleanup(func() { _ = c.conn.Close(); <-c.conn.Done() })
	return c, done
}

func (c *rpcClient) call(t *testing.T, method string, params, out any) error {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := c.conn.Call(ctx, method, params, out)
	return err
}

func (c *rpcClient) waitEvent(t *testing.T, kind string) SessionEvent {
	t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case ev := <-c.evCh:
			if ev.Kind == kind {
				return ev
			}
		case <-deadline:
			t.Fatalf("no %s notification", kind)
		}
	}
}

// dialEditor connects a scripted VS Code (the daptest DAP client) to the
// proxy address; its waits are bounded by 90 s.
func dialEditor(t *testing.T, addr string) *daptest.Client {
	t.Helper()
	conn, err := session.DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	ed := daptest.New(t, conn)
	ed.Timeout = 90 * time.Second
	return ed
}

func hoverAt(t *testing.T, c *rpcClient, file, line string, lineNo int, word string) *protocol.Hover {
	t.Helper()
	return hoverAtCol(t, c, file, lineNo, strings.Index(line, word)+1)
}

func hoverAtCol(t *testing.T, c *rpcClient, file string, lineNo, col int) *protocol.Hover {
	t.Helper()
	var raw json.RawMessage
	err := c.call(t, "textDocument/hover", map[string]any{
		"textDocument": map[string]any{"uri": string(uri.File(file))},
		"position":     map[string]any{"line": lineNo, "character": col},
	}, &raw)
	if err != nil {
		t.Fatalf("hover: %v", err)
	}
	if string(raw) == "null" || len(raw) == 0 {
		return nil
	}
	var h protocol.Hover
	if err := json.Unmarshal(raw, &h); err != nil {
		t.Fatal(err)
	}
	return &h
}

func processGone(pid int) bool {
	_, running := platform.ProcessStart(pid)
	return !running
}

func TestEditorChannelWithDebugpy(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	bpLine := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "total = ") {
			bpLine = i // 0-based
		}
	}
	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	c, done := startChannel(t, mgr)

	var init struct {
		Capabilities map[string]any        `json:"capabilities"`
		ServerInfo   struct{ Name string } `json:"serverInfo"`
	}
	if err := c.call(t, "initialize", map[string]any{"processId": os.Getpid(), "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "test"}}, &init); err != nil {
		t.Fatal(err)
	}
	if init.Capabilities["hoverProvider"] != true || init.ServerInfo.Name != "dapscope" {
		t.Fatalf("initialize: %+v", init)
	}
	_ = c.conn.Notify(context.Background(), "initialized", map[string]any{})
	_ = c.conn.Notify(context.Background(), "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": string(uri.File(fixture)), "languageId": "python", "version": 1, "text": string(src)}})

	// Nothing paused: hover answers null.
	if h := hoverAt(t, c, fixture, lines[bpLine], bpLine, "df"); h != nil {
		t.Fatalf("hover with no session = %+v, want null", h)
	}

	// startProxy: a loopback address that a (scripted) editor uses as its adapter.
	var proxy StartProxyResult
	if err := c.call(t, "dapscope/startProxy", map[string]any{"vscodeSessionId": "vs-1", "configuration": map[string]any{
		"type": "dapscope", "request": "launch", "adapter": "debugpy", "program": fixture}}, &proxy); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(proxy.Address, "unix:/") || proxy.Adapter != "debugpy" {
		t.Fatalf("startProxy = %+v", proxy)
	}
	ed := dialEditor(t, proxy.Address)
	// → initialize ← response
	// → launch ← initialized; → setBreakpoints ← response
	// → configurationDone ← response, ← launch response, ← stopped
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	// The proxy takes one connection: its listener is gone once the editor
	// is in, and the socket's directory is this user's only.
	if c2, err := session.DialProxy(proxy.Address); err == nil {
		c2.Close()
		t.Fatal("a second connection to the editor's proxy was accepted")
	}
	if st, err := os.Stat(filepath.Dir(strings.TrimPrefix(proxy.Address, "unix:"))); err != nil || st.Mode().Perm() != 0o700 {
		t.Fatalf("socket directory: %v %v, want 0700", st, err)
	}
	ed.LaunchTo(map[string]any{"program": fixture, "console": "internalConsole", "cwd": filepath.Dir(fixture), "justMyCode": true}, fixture, bpLine+1)
	stopped := c.waitEvent(t, "stopped")
	if stopped.VSCodeSessionID != "vs-1" || stopped.SessionID == "" {
		t.Fatalf("stopped notification = %+v, want the proxy's VS Code session paired", stopped)
	}

	// Hover df on the paused line: the markdown smart summary.
	h := hoverAt(t, c, fixture, lines[bpLine], bpLine, "df")
	if h == nil {
		t.Fatal("hover on a paused DataFrame returned null")
	}
	md := h.Contents.Value
	for _, want := range []string{"**df**", "DataFrame", "4 rows", "price", "city", "float64"} {
		if !strings.Contains(md, want) {
			t.Errorf("hover markdown lacks %q:\n%s", want, md)
		}
	}
	// Issue 11: the richer hover links to the webview for this expression.
	if !strings.HasSuffix(md, `[Open in dapscope](command:dapscope.inspectExpression?%5B%22df%22%5D "Open the dapscope view of df")`) {
		t.Errorf("hover markdown lacks the link to the webview:\n%s", md)
	}
	if h.Range == nil || h.Range.Start.Character != uint32(strings.Index(lines[bpLine], "df")) {
		t.Errorf("hover range = %+v", h.Range)
	}
	if len(md) > 2000 {
		t.Errorf("hover markdown is %d bytes; should be short", len(md))
	}
	// A name not yet in scope (assigned on this very line): null. A keyword: null.
	if h := hoverAt(t, c, fixture, lines[bpLine], bpLine, "total"); h != nil {
		t.Errorf("hover on a name not in scope = %+v, want null", h)
	}
	importLine := 5 // "import pandas as pd" → hovering "import" is a keyword
	if !strings.HasPrefix(lines[importLine], "import pandas") {
		t.Fatalf("fixture changed: line %d = %q", importLine, lines[importLine])
	}
	if h := hoverAt(t, c, fixture, lines[importLine], importLine, "import"); h != nil {
		t.Errorf("hover on a keyword = %+v, want null", h)
	}

	// dapscope/inspect by VS Code session id (the webview's data).
	var res inspect.Result
	if err := c.call(t, "dapscope/inspect", InspectParams{VSCodeSessionID: "vs-1", Expression: "df"}, &res); err != nil {
		t.Fatal(err)
	}
	if res.DetectedType != "dataframe" || res.Structure == nil || len(res.Structure.Columns) != 2 || res.Structure.Shape[0] != 4 {
		t.Fatalf("inspect df = %+v", res)
	}
	if res.Structure.Columns[0].NullCount == nil || *res.Structure.Columns[0].NullCount != 1 {
		t.Errorf("price nulls = %v, want 1", res.Structure.Columns[0].NullCount)
	}
	var missing inspect.Result
	if err := c.call(t, "dapscope/inspect", InspectParams{VSCodeSessionID: "vs-1", Expression: "missing_name"}, &missing); err != nil {
		t.Fatal(err)
	}
	if missing.Error == nil || missing.Error.Code != inspect.CodeVariableNotFound {
		t.Fatalf("inspect missing = %+v", missing)
	}
	var pidRes inspect.Result
	if err := c.call(t, "dapscope/inspect", InspectParams{VSCodeSessionID: "vs-1", Expression: "pid"}, &pidRes); err != nil {
		t.Fatal(err)
	}
	pidF, ok := pidRes.Structure.Value.(float64)
	if !ok || pidF <= 0 {
		t.Fatalf("pid = %#v", pidRes.Structure.Value)
	}
	pid := int(pidF)

	var sess SessionsResult
	if err := c.call(t, "dapscope/sessions", nil, &sess); err != nil {
		t.Fatal(err)
	}
	if len(sess.Sessions) != 1 || sess.Sessions[0].Origin != session.OriginEditor || sess.Sessions[0].Status != session.StatusPaused {
		t.Fatalf("sessions = %+v", sess)
	}

	// Continue: the program sleeps, so the session is running; hover is null.
	// → continue ← response
	ed.Continue(stopped.Stop.ThreadID)
	c.waitEvent(t, "continued")
	if h := hoverAt(t, c, fixture, lines[bpLine], bpLine, "df"); h != nil {
		t.Fatalf("hover while running = %+v, want null", h)
	}

	// mcpEndpoint without an MCP HTTP transport: a clear error.
	if err := c.call(t, "dapscope/mcpEndpoint", nil, nil); err == nil || !strings.Contains(err.Error(), "MCP") {
		t.Errorf("mcpEndpoint error = %v", err)
	}

	// shutdown + exit: every session and child process ends.
	if err := c.call(t, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.conn.Notify(context.Background(), "exit", nil)
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
	deadline := time.Now().Add(20 * time.Second)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("debuggee %d still alive after shutdown", pid)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// No child process of ours is left either (the debugpy adapter).
	for kids := children(); len(kids) > 0; kids = children() {
		if time.Now().After(deadline) {
			t.Fatalf("child processes left after shutdown: %v", kids)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// children lists live (non-zombie) processes whose parent is this process.
func children() []string {
	var out []string
	self := strconv.Itoa(os.Getpid())
	dirs, _ := os.ReadDir("/proc")
	for _, d := range dirs {
		b, err := os.ReadFile("/proc/" + d.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		st := string(b)
		i := strings.LastIndexByte(st, ')')
		if i < 0 {
			continue
		}
		f := strings.Fields(st[i+1:])
		if len(f) > 1 && f[1] == self && f[0] != "Z" {
			out = append(out, d.Name()+" "+st[:i+1])
		}
	}
	return out
}
