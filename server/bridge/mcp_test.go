// mcp_test.go: MCP agents on bridged sessions. A scripted VS Code
// (bridgetest.VSCode) debugs a program with a real adapter (the daptest
// client on the adapter's own connection, as VS Code talks to js-debug or
// the Python extension's debugpy), its tracker hands every event to the
// bridge, and the extension runs the bridge's requests on that adapter.
// The MCP tools then work on the session through the manager: Node with
// js-debug's ids (thread 0, frames from 0), and debugpy.

package bridge_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/mcp"
	"github.com/dapscope/dapscope/server/session"
)

// bridgeRig is the sidecar (manager + bridge + MCP server), an agent
// connected to its MCP server in process, and the scripted VS Code whose
// session the bridge reaches.
type bridgeRig struct {
	t   *testing.T
	mgr *session.Manager
	br  *bridge.Bridge
	x   *bridgetest.Extension
	ag  *mcpclient.Client
	vsc *bridgetest.VSCode
}

// newBridgeRig starts the sidecar, then VS Code's session ev on a real
// adapter kind (js-debug's numbering when jsDebug).
func newBridgeRig(t *testing.T, dir string, kind adapter.Kind, ev bridge.Event, jsDebug bool) *bridgeRig {
	r := &bridgeRig{t: t, x: &bridgetest.Extension{}}
	r.mgr = session.NewManager(session.ManagerOptions{Workspace: dir, Logger: testLogger(t)})
	r.br = bridge.New(bridge.Options{Manager: r.mgr, Editor: r.x, Logger: testLogger(t)})
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
	t.Cleanup(func() {
		_ = c.Close()
		ms.Close()
		if err := r.mgr.Close(); err != nil {
			t.Errorf("closing the sessions: %v", err)
		}
		r.br.Close()
	})
	r.vsc = bridgetest.NewVSCode(t, kind, ev, r.br.Handle, testLogger(t))
	if jsDebug {
		r.vsc.IDs = bridgetest.NewJSDebugIDs(0)
	}
	r.x.Answer = r.vsc.Answer
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
func (r *bridgeRig) refused(name string, args map[string]any, code errcode.Code) string {
	r.t.Helper()
	js, failed := r.tool(name, args)
	if !failed || !strings.Contains(js, `"code":"`+string(code)+`"`) {
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
	if len(ss.Sessions) != 1 || ss.Sessions[0].Origin != session.OriginBridged || ss.Sessions[0].Name != r.vsc.Event.Name ||
		ss.Sessions[0].DebugType != r.vsc.Event.DebugType || ss.Sessions[0].Adapter != r.vsc.Event.Adapter || ss.Sessions[0].Status != session.StatusPaused {
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
	r.refused("debug_set_breakpoints", map[string]any{"file": filepath.Base(program), "breakpoints": []any{map[string]any{"line": line}}}, errcode.NotSupported)
	r.refused("debug_set_variable", map[string]any{"name": "total", "value": "5"}, errcode.NotSupported)
	if js := r.refused("debug_terminate", map[string]any{"session_id": id}, errcode.NotSupported); !strings.Contains(js, "stop it in the editor") {
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
	commands, exprs := r.x.Commands(), r.x.Expressions()
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
	r := newBridgeRig(t, filepath.Dir(program), adapter.Node, bridge.Event{VSCodeSessionID: "js-child", DebugType: "pwa-node", Name: "agent.js [4242]", Adapter: "node"}, true)
	r.vsc.Notify("started", nil)
	r.vsc.Forward()
	d, _ := adapter.DriverFor(adapter.Node)
	r.vsc.DAP.LaunchTo(d.LaunchArgs(adapter.LaunchConfig{Program: program, Cwd: filepath.Dir(program)}), program, line)
	agentOnBridgedSession(t, r, program, line, "records", `"columns":["city","price","qty"]`, "rows 3")
}

func TestMCPOnBridgedDebugpySession(t *testing.T) {
	program, _ := filepath.Abs("testdata/agent.py")
	line := breakpointLine(t, program)
	r := newBridgeRig(t, filepath.Dir(program), adapter.Debugpy, bridge.Event{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: Current File", Adapter: "debugpy"}, false)
	r.vsc.Notify("started", nil)
	r.vsc.Forward()
	config := daptest.PythonLaunch(program)
	config["cwd"] = filepath.Dir(program)
	r.vsc.DAP.LaunchTo(config, program, line)
	agentOnBridgedSession(t, r, program, line, "df", `"detected_type":"dataframe"`, "rows 4")
}
