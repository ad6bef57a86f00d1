// Tests of MCP agents on bridged sessions: a scripted VS Code debugs a
// program with a real adapter (the daptest client on the adapter's own
// connection, as VS Code talks to js-debug or the Python extension's
// debugpy), its tracker forwards every event as dapscope/bridgeEvent, and
// it runs the sidecar's dapscope/dapRequest calls on that adapter. The MCP
// tools then work on the session through the manager: Node with js-debug's
// ids (thread 0, frames from 0), and debugpy.

package editor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"go.lsp.dev/jsonrpc2"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/mcp"
	"github.com/dapscope/dapscope/server/session"
)

// notForwarded are the events the extension's tracker keeps to itself
// (bridge.ts): many, and of no use to a session.
var notForwarded = []string{"loadedSource", "module", "progressStart", "progressUpdate", "progressEnd", "initialized", "capabilities", "invalidated", "memory"}

// fakeVSCode is VS Code plus the extension for one bridged session.
type fakeVSCode struct {
	t   *testing.T
	id  string
	ev  BridgeEvent // the session's identity in bridge events
	ad  *adapter.Adapter
	dap *daptest.Client
	rpc jsonrpc2.Conn
	ids *jsDebugIDs // js-debug's numbering; nil: the adapter's own

	mu       sync.Mutex
	commands []string // commands the sidecar sent through the bridge
	exprs    []string // their evaluate expressions
	stop     chan struct{}
	fwd      sync.WaitGroup
}

// newFakeVSCode starts the adapter and connects the scripted editor to it.
func newFakeVSCode(t *testing.T, kind adapter.Kind, rpc jsonrpc2.Conn, ev BridgeEvent) *fakeVSCode {
	d, err := adapter.DriverFor(kind)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	ad, err := d.Start(ctx, adapter.StartConfig{Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeVSCode{t: t, id: ev.VSCodeSessionID, ev: ev, ad: ad, dap: daptest.New(t, ad.Conn()), rpc: rpc, stop: make(chan struct{})}
	t.Cleanup(func() { _ = ad.Close() })
	f.dap.Initialize(daptest.InitArgs("vscode", d.AdapterID()))
	return f
}

// notify sends a bridge event of this session.
func (f *fakeVSCode) notify(kind string, mod func(*BridgeEvent)) {
	ev := f.ev
	ev.Kind = kind
	if mod != nil {
		mod(&ev)
	}
	_ = f.rpc.Notify(context.Background(), "dapscope/bridgeEvent", ev)
}

// forward plays the tracker: every adapter event, in order, as bridge.ts
// reports it (polling the client's transcript; the scripted editor takes
// the messages it waits for from its own queue).
func (f *fakeVSCode) forward() {
	f.fwd.Add(1)
	go func() {
		defer f.fwd.Done()
		next := 0
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-f.stop:
				return
			case <-tick.C:
			}
			msgs := f.dap.Transcript()
			for ; next < len(msgs); next++ {
				m := msgs[next]
				if m.Env.Type == "event" && !slices.Contains(notForwarded, m.Env.Event) {
					f.forwardEvent(m.Env.Event, m.Body)
				}
			}
		}
	}()
	f.t.Cleanup(func() { close(f.stop); f.fwd.Wait() })
}

func (f *fakeVSCode) forwardEvent(name string, body json.RawMessage) {
	var b struct {
		ThreadID          int    `json:"threadId"`
		Reason            string `json:"reason"`
		AllThreadsStopped bool   `json:"allThreadsStopped"`
	}
	_ = json.Unmarshal(body, &b)
	if f.ids != nil && (name == "stopped" || name == "continued" || name == "thread") {
		f.ids.mu.Lock()
		f.ids.realThread = b.ThreadID
		f.ids.mu.Unlock()
		b.ThreadID = 0
		var m map[string]any
		_ = json.Unmarshal(body, &m)
		m["threadId"] = 0
		body, _ = json.Marshal(m)
	}
	switch name {
	case "stopped":
		f.notify("stopped", func(ev *BridgeEvent) {
			ev.ThreadID, ev.Reason, ev.AllThreadsStopped, ev.Body = b.ThreadID, b.Reason, b.AllThreadsStopped, body
		})
	case "continued":
		f.notify("continued", func(ev *BridgeEvent) { ev.ThreadID, ev.Body = b.ThreadID, body })
	case "terminated":
		f.notify("terminated", func(ev *BridgeEvent) { ev.Body = body })
	default:
		f.notify("event", func(ev *BridgeEvent) { ev.Event, ev.Body = name, body })
	}
}

// serve answers dapscope/dapRequest by running the request on the adapter,
// as session.customRequest does (the adapter's error message on failure).
func (f *fakeVSCode) serve(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
	if req.Method() != "dapscope/dapRequest" {
		return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
	}
	var p DapRequestParamsForTest
	_ = json.Unmarshal(req.Params(), &p)
	go func() {
		args := any(p.Arguments)
		f.mu.Lock()
		f.commands = append(f.commands, p.Command)
		if p.Command == "evaluate" {
			var e struct {
				Expression string `json:"expression"`
			}
			_ = json.Unmarshal(p.Arguments, &e)
			f.exprs = append(f.exprs, e.Expression)
		}
		f.mu.Unlock()
		if f.ids != nil && len(p.Arguments) > 0 {
			a, err := f.ids.args(p.Arguments)
			if err != nil {
				_ = reply(ctx, nil, err)
				return
			}
			args = a
		}
		m := f.dap.Response(f.dap.Send(p.Command, args))
		if !m.Success() {
			_ = reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.Code(-32603), m.Env.Message))
			return
		}
		body := m.Body
		if f.ids != nil {
			body = f.ids.body(p.Command, body)
		}
		_ = reply(ctx, body, nil)
	}()
	return nil
}

// DapRequestParamsForTest is dapscope/dapRequest's params as the extension reads them.
type DapRequestParamsForTest struct {
	VSCodeSessionID string          `json:"vscodeSessionId"`
	Command         string          `json:"command"`
	Arguments       json.RawMessage `json:"arguments"`
}

func (f *fakeVSCode) sent() ([]string, []string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.commands), slices.Clone(f.exprs)
}

// bridgeRig is the sidecar (editor server + manager + MCP server) and an
// agent connected to its MCP server in process.
type bridgeRig struct {
	t    *testing.T
	mgr  *session.Manager
	rpc  jsonrpc2.Conn
	done chan error
	ag   *mcpclient.Client
	vsc  *fakeVSCode
}

func newBridgeRig(t *testing.T, dir string) *bridgeRig {
	r := &bridgeRig{t: t, done: make(chan error, 1)}
	r.mgr = session.NewManager(session.ManagerOptions{Workspace: dir, Logger: testLogger(t)})
	a, b := newPipe()
	srv := New(Options{Manager: r.mgr, Logger: testLogger(t)})
	go func() { r.done <- srv.Serve(context.Background(), a) }()
	r.rpc = jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	r.rpc.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if r.vsc == nil {
			return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
		}
		return r.vsc.serve(ctx, reply, req)
	})
	ms := mcp.New(r.mgr, mcp.Options{Logger: testLogger(t)})
	c, err := mcpclient.NewInProcessClient(ms.MCP())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = mcpgo.LATEST_LEGACY_PROTOCOL_VERSION
	init.Params.ClientInfo = mcpgo.Implementation{Name: "bridge-test", Version: "1"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	r.ag = c
	var caps json.RawMessage
	if _, err := r.rpc.Call(ctx, "initialize", map[string]any{}, &caps); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = c.Close()
		ms.Close()
		cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer ccancel()
		_, _ = r.rpc.Call(cctx, "shutdown", nil, nil)
		_ = r.rpc.Notify(cctx, "exit", nil)
		if err := <-r.done; err != nil {
			t.Errorf("Serve: %v", err)
		}
		_ = r.rpc.Close()
		<-r.rpc.Done()
	})
	return r
}

// tool calls an MCP tool; it returns the structured content as JSON and
// whether the call failed.
func (r *bridgeRig) tool(name string, args map[string]any) (string, bool) {
	r.t.Helper()
	req := mcpgo.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = name, args
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := r.ag.CallTool(ctx, req)
	if err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	b, _ := json.Marshal(res.StructuredContent)
	return string(b), res.IsError
}

// ok calls a tool that must succeed and decodes its result into out.
func (r *bridgeRig) ok(name string, args map[string]any, out any) string {
	r.t.Helper()
	js, failed := r.tool(name, args)
	if failed {
		r.t.Fatalf("%s(%v) failed: %s", name, args, js)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(js), out); err != nil {
			r.t.Fatalf("%s: %v\n%s", name, err, js)
		}
	}
	return js
}

// refused calls a tool that must fail with code.
func (r *bridgeRig) refused(name string, args map[string]any, code string) string {
	r.t.Helper()
	js, failed := r.tool(name, args)
	if !failed || !strings.Contains(js, `"code":"`+code+`"`) {
		r.t.Fatalf("%s(%v) = %s, want error %s", name, args, js, code)
	}
	return js
}

func breakpointLine(t *testing.T, path string) int {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(src), "\n") {
		if strings.Contains(l, "BREAKPOINT") {
			return i + 1
		}
	}
	t.Fatalf("no BREAKPOINT in %s", path)
	return 0
}

// agentOnBridgedSession is the agent's workflow, the same for every kind.
func agentOnBridgedSession(t *testing.T, r *bridgeRig, program string, line int, expr, wantInspect, wantOutput string) {
	var stop mcp.StopReport
	r.ok("debug_wait", map[string]any{"timeout": 60}, &stop)
	if stop.Status != session.StatusPaused || stop.Location == nil || stop.Location.Line != line {
		t.Fatalf("debug_wait = %+v", stop)
	}
	var ss mcp.SessionsResult
	r.ok("debug_sessions", nil, &ss)
	if len(ss.Sessions) != 1 || ss.Sessions[0].Origin != session.OriginBridged || ss.Sessions[0].Name != r.vsc.ev.Name ||
		ss.Sessions[0].DebugType != r.vsc.ev.DebugType || ss.Sessions[0].Adapter != r.vsc.ev.Adapter || ss.Sessions[0].Status != session.StatusPaused {
		t.Fatalf("debug_sessions = %+v", ss)
	}
	id := ss.Sessions[0].ID
	if js := r.ok("debug_stack", nil, nil); !strings.Contains(js, filepath.Base(program)) {
		t.Fatalf("debug_stack = %s", js)
	}
	if js := r.ok("debug_scopes", nil, nil); !strings.Contains(js, "variables_reference") {
		t.Fatalf("debug_scopes = %s", js)
	}
	if js := r.ok("debug_variables", map[string]any{"names": []string{expr}}, nil); !strings.Contains(js, `"name":"`+expr+`"`) {
		t.Fatalf("debug_variables = %s", js)
	}
	if js := r.ok("debug_evaluate", map[string]any{"expression": "1 + 2"}, nil); !strings.Contains(js, `"result":"3"`) {
		t.Fatalf("debug_evaluate = %s", js)
	}
	js := r.ok("debug_inspect_variable", map[string]any{"expression": expr}, nil)
	if !strings.Contains(js, wantInspect) {
		t.Fatalf("debug_inspect_variable %s = %s", expr, js)
	}
	t.Logf("debug_inspect_variable %s: %.300s", expr, js)
	r.ok("debug_watch", map[string]any{"action": "add", "expression": "total"}, nil)
	r.ok("debug_snapshot", map[string]any{"label": "before"}, nil)
	if js := r.ok("debug_output", nil, nil); !strings.Contains(js, wantOutput) {
		t.Fatalf("debug_output = %s", js)
	}
	// The agent may move the user's session: a step, seen like the editor's own.
	r.ok("debug_step", map[string]any{"direction": "over", "timeout": 60}, &stop)
	if stop.Status != session.StatusPaused || stop.Location.Line != line+1 {
		t.Fatalf("debug_step = %+v", stop)
	}
	r.ok("debug_step", map[string]any{"direction": "over", "timeout": 60}, &stop)
	if stop.Status != session.StatusPaused || len(stop.Watches) != 1 || stop.Watches[0].Value == "0" {
		t.Fatalf("second step: watches %+v (%+v)", stop.Watches, stop)
	}
	if js = r.ok("debug_diff", nil, nil); !strings.Contains(js, "total") {
		t.Fatalf("debug_diff = %s", js)
	}
	t.Logf("debug_diff: %.300s", js)
	// What a bridged session does not do, said clearly.
	r.refused("debug_set_breakpoints", map[string]any{"file": filepath.Base(program), "breakpoints": []any{map[string]any{"line": line}}}, session.CodeNotSupported)
	r.refused("debug_set_variable", map[string]any{"name": "total", "value": "5"}, session.CodeNotSupported)
	if js := r.refused("debug_terminate", map[string]any{"session_id": id}, session.CodeNotSupported); !strings.Contains(js, "stop it in the editor") {
		t.Fatalf("debug_terminate = %s", js)
	}
	// To the end: the outcome comes from the editor's events.
	r.ok("debug_continue", map[string]any{"timeout": 60}, &stop)
	if stop.Status != session.StatusCompleted {
		t.Fatalf("debug_continue to the end = %+v", stop)
	}
	if js := r.ok("debug_output", nil, nil); !strings.Contains(js, "total") {
		t.Fatalf("debug_output at the end = %s", js)
	}
	commands, exprs := r.vsc.sent()
	for _, c := range commands {
		if !slices.Contains(session.BridgeCommands(), c) {
			t.Errorf("the sidecar sent %s through the bridge", c)
		}
	}
	for _, e := range exprs {
		if strings.Contains(e, "dapscope_wake") || strings.Contains(e, "TCP_NODELAY") {
			t.Errorf("a first-stop fix reached the user's debuggee: %.80s", e)
		}
	}
	for _, want := range []string{"stackTrace", "evaluate", "next", "continue"} {
		if !slices.Contains(commands, want) {
			t.Errorf("no %s went through the bridge: %v", want, commands)
		}
	}
}

func TestMCPOnBridgedJSDebugSession(t *testing.T) {
	program, _ := filepath.Abs("testdata/agent.js")
	line := breakpointLine(t, program)
	r := newBridgeRig(t, filepath.Dir(program))
	r.vsc = newFakeVSCode(t, adapter.Node, r.rpc, BridgeEvent{VSCodeSessionID: "js-child", DebugType: "pwa-node", Name: "agent.js [4242]", Adapter: "node"})
	r.vsc.ids = &jsDebugIDs{toReal: map[int]int{}, fromReal: map[int]int{}}
	r.vsc.notify("started", nil)
	r.vsc.forward()
	d, _ := adapter.DriverFor(adapter.Node)
	r.vsc.dap.LaunchTo(d.LaunchArgs(adapter.LaunchConfig{Program: program, Cwd: filepath.Dir(program)}), program, line)
	agentOnBridgedSession(t, r, program, line, "records", `"columns":["city","price","qty"]`, "rows 3")
}

func TestMCPOnBridgedDebugpySession(t *testing.T) {
	program, _ := filepath.Abs("testdata/agent.py")
	line := breakpointLine(t, program)
	r := newBridgeRig(t, filepath.Dir(program))
	r.vsc = newFakeVSCode(t, adapter.Debugpy, r.rpc, BridgeEvent{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: Current File", Adapter: "debugpy"})
	r.vsc.notify("started", nil)
	r.vsc.forward()
	config := daptest.PythonLaunch(program)
	config["cwd"] = filepath.Dir(program)
	r.vsc.dap.LaunchTo(config, program, line)
	agentOnBridgedSession(t, r, program, line, "df", `"detected_type":"dataframe"`, "rows 4")
}
