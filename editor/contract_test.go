// The editor channel's contract, Go side: TestContract drives the real
// Server with the fake editor (editortest) through every method of its
// table (a proxied debugpy session paused at a breakpoint, a bridged
// session answered through dapscope/dapRequest) and records the JSON shape
// of each method's params and result in testdata/contract/<method>.json.
// Run with -update to rewrite them; otherwise they are compared. The
// extension's tests (vscode-extension/test/contract.test.ts) check the same
// files against its TypeScript types, so a change on either side fails a
// test. TestBridgeCommandsFile keeps the list of commands the extension
// lets dapscope/dapRequest run (testdata/bridge_commands.json, read by
// vscode-extension/test/bridge.test.ts) the session manager's.

package editor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/internal/golden"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/allprocs"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/kernel/kerneltest"
	"github.com/dapscope/dapscope/server/session"
)

// The extension reads the same list (vscode-extension/test/bridge.test.ts).
func TestBridgeCommandsFile(t *testing.T) {
	got, _ := json.MarshalIndent(session.BridgeCommands(), "", "  ")
	golden.Check(t, "testdata/bridge_commands.json", append(got, '\n'))
}

const contractDir = "testdata/contract"

// contractEntry is one fixture file: a method with the distinct shapes of its
// params and results seen in the run.
type contractEntry struct {
	Method string `json:"method"`
	From   string `json:"from"` // extension | sidecar
	Kind   string `json:"kind"` // request | notification
	Params []any  `json:"params"`
	Result []any  `json:"result,omitempty"`
}

// contractRecorder collects the shapes of every message on the channel.
type contractRecorder struct {
	mu      sync.Mutex
	entries map[string]*contractEntry
	frozen  map[string]bool // methods no longer recorded (their later traffic is timing-dependent)
}

// opaque lists payload members that belong to another protocol (a VS Code
// launch configuration, DAP arguments and bodies): recorded as {}.
var opaque = map[string][]string{
	"dapscope/startProxy": {"configuration"},
	"dapscope/dapRequest": {"arguments"},
}

func (r *contractRecorder) record(method, from, kind string, params, result json.RawMessage, isResult bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.frozen[method] {
		return
	}
	e := r.entries[method]
	if e == nil {
		e = &contractEntry{Method: method, From: from, Kind: kind, Params: []any{}}
		r.entries[method] = e
	}
	if isResult {
		if method == "dapscope/dapRequest" {
			result = json.RawMessage(`{}`) // a DAP response body
		}
		e.Result = addDistinct(e.Result, shapeOfRaw(result, nil))
		return
	}
	e.Params = addDistinct(e.Params, shapeOfRaw(params, opaque[method]))
}

// shapeOfRaw decodes raw JSON and reduces it to its shape.
func shapeOfRaw(raw json.RawMessage, opaqueKeys []string) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "<invalid JSON>"
	}
	if m, ok := v.(map[string]any); ok {
		for _, k := range opaqueKeys {
			if _, has := m[k]; has {
				m[k] = map[string]any{}
			}
		}
	}
	return shapeOf(v)
}

// shapeOf keeps a value's structure and replaces each leaf by the zero value
// of its JSON type ("", 0, false, null); an array becomes its elements'
// distinct shapes, objects among them merged into one.
func shapeOf(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[k] = shapeOf(x)
		}
		return out
	case []any:
		out := []any{}
		for _, x := range v {
			out = addShape(out, shapeOf(x))
		}
		return out
	case string:
		return ""
	case float64:
		return 0
	case bool:
		return false
	}
	return nil
}

// addShape adds s to the shapes of an array's elements: objects merge into
// the first object of the list, other shapes are kept once each.
func addShape(list []any, s any) []any {
	if m, ok := s.(map[string]any); ok {
		for i, x := range list {
			if xm, ok := x.(map[string]any); ok {
				list[i] = mergeShapes(xm, m)
				return list
			}
		}
	}
	return addDistinct(list, s)
}

// addDistinct adds s to a list of distinct shapes (a method's params or
// results: each variant kept whole, so a field that is sometimes absent
// shows), in a stable order.
func addDistinct(list []any, s any) []any {
	enc, _ := json.Marshal(s)
	for _, x := range list {
		if xe, _ := json.Marshal(x); string(xe) == string(enc) {
			return list
		}
	}
	list = append(list, s)
	slices.SortStableFunc(list, func(a, b any) int {
		ea, _ := json.Marshal(a)
		eb, _ := json.Marshal(b)
		return strings.Compare(string(ea), string(eb))
	})
	return list
}

func mergeShapes(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		old, ok := out[k]
		if !ok {
			out[k] = v
			continue
		}
		om, ok1 := old.(map[string]any)
		vm, ok2 := v.(map[string]any)
		ol, ok3 := old.([]any)
		vl, ok4 := v.([]any)
		switch {
		case ok1 && ok2:
			out[k] = mergeShapes(om, vm)
		case ok3 && ok4:
			for _, x := range vl {
				ol = addShape(ol, x)
			}
			out[k] = ol
		case old == nil:
			out[k] = v
		}
	}
	return out
}

func TestContract(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(src), "\n")
	bpLine := slices.IndexFunc(lines, func(l string) bool { return strings.HasPrefix(l, "total = ") })
	docURI := string(uri.File(fixture))
	hoverDF := map[string]any{"textDocument": map[string]any{"uri": docURI}, "position": map[string]any{"line": bpLine, "character": strings.Index(lines[bpLine], "df") + 1}}

	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	srv := editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test",
		MCPEndpoint: func(context.Context) (editor.Endpoint, error) {
			return editor.Endpoint{URL: "http://127.0.0.1:1/mcp", Token: "token"}, nil
		}})
	rec := &contractRecorder{entries: map[string]*contractEntry{}, frozen: map[string]bool{}}
	var bridgeTo sync.Map // VS Code session id → *session.Session answering its dapRequests
	x := &bridgetest.Extension{Answer: func(ctx context.Context, r bridgetest.Request) (json.RawMessage, error) {
		ss, ok := bridgeTo.Load(r.VSCodeSessionID)
		if !ok {
			return nil, fmt.Errorf("no session %s", r.VSCodeSessionID)
		}
		return bridgetest.OnSession(ss.(*session.Session), nil)(ctx, r)
	}}
	trace := func(m editortest.Message) { rec.record(m.Method, m.From, m.Kind, m.Params, m.Result, m.IsResult) }
	c := editortest.Connect(t, srv, editortest.Options{Extension: x, Trace: trace})
	call := func(method string, params, out any) {
		t.Helper()
		if err := c.Call(method, params, out); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}

	// Lifecycle and documents; hover with nothing paused answers null.
	call("initialize", map[string]any{"processId": os.Getpid(), "clientInfo": map[string]any{"name": "contract", "version": "1"}, "rootUri": nil, "capabilities": map[string]any{}}, nil)
	c.Notify("initialized", map[string]any{})
	doc := map[string]any{"uri": docURI, "languageId": "python", "version": 1, "text": string(src)}
	c.Notify("textDocument/didOpen", map[string]any{"textDocument": doc})
	c.Notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": docURI, "version": 2}, "contentChanges": []any{map[string]any{"text": string(src)}}})
	call("textDocument/hover", hoverDF, nil)

	contractKernel(t, rec)
	contractRay(t, call) // ray_test.go

	// A dapscope session: startProxy, then VS Code's DAP through the proxy.
	var proxy editor.StartProxyResult
	call("dapscope/startProxy", editor.StartProxyParams{VSCodeSessionID: "vs-1", Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "name": "contract", "adapter": "debugpy", "program": fixture}}, &proxy)
	vs := c.DialProxy(proxy.Address)
	vs.Initialize(daptest.InitArgs("vscode", "dapscope"))
	vs.LaunchTo(map[string]any{"program": fixture, "console": "internalConsole", "cwd": filepath.Dir(fixture), "justMyCode": true}, fixture, bpLine+1)
	stopped := c.SessionEvent("stopped")

	// Paused: hover, inspect (a result and a typed error), sessions.
	opts := map[string]any{"max_preview_rows": 5, "timeout": 10} // the full budget: shapes must not depend on machine speed
	call("textDocument/hover", hoverDF, nil)
	call("dapscope/inspect", map[string]any{"vscodeSessionId": "vs-1", "expression": "df", "options": opts}, nil)
	call("dapscope/inspect", map[string]any{"sessionId": stopped.SessionID, "vscodeSessionId": "vs-1", "frameId": 0, "expression": "missing_name", "options": opts}, nil)
	call("dapscope/page", map[string]any{"vscodeSessionId": "vs-1", "expression": "df", "columns": []any{"price", "city"},
		"rows": map[string]any{"offset": 0, "limit": 10}, "sort": []any{map[string]any{"column": "price", "descending": true}}, "filter": "price > 1", "timeout": 10}, nil)
	call("dapscope/page", map[string]any{"sessionId": stopped.SessionID, "vscodeSessionId": "vs-1", "frameId": 0, "expression": "df", "filter": "price >", "timeout": 10}, nil)
	// A page without rows: rows and positions are empty lists (issue #28.7).
	call("dapscope/page", map[string]any{"vscodeSessionId": "vs-1", "expression": "df", "filter": "price > 1e300", "timeout": 10}, nil)
	contractPending(t, vs, stopped.Stop.ThreadID, call)
	call("dapscope/sessions", nil, nil)

	// A bridged session (another debug type): its DAP requests come back to
	// the extension, answered here by the paused sidecar session.
	ss, err := mgr.Get(stopped.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	bridgeTo.Store("py-1", ss)
	ev := bridge.Event{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: current file", Adapter: "debugpy", Kind: "started"}
	c.Notify("dapscope/bridgeEvent", ev)
	ev.Kind, ev.ThreadID, ev.Reason, ev.AllThreadsStopped = "stopped", stopped.Stop.ThreadID, "breakpoint", true
	ev.Body = json.RawMessage(fmt.Sprintf(`{"reason":"breakpoint","threadId":%d,"allThreadsStopped":true}`, stopped.Stop.ThreadID))
	c.Notify("dapscope/bridgeEvent", ev)
	out := bridge.Event{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: current file", Adapter: "debugpy", Kind: "event",
		Event: "output", Body: json.RawMessage(`{"category":"stdout","output":"x\n"}`)}
	c.Notify("dapscope/bridgeEvent", out)
	ev.Body = nil
	var bridgedRes map[string]any
	call("dapscope/inspect", map[string]any{"vscodeSessionId": "py-1", "expression": "df", "options": opts}, &bridgedRes)
	if bridgedRes["detected_type"] != "dataframe" {
		t.Fatalf("bridged inspect = %v", bridgedRes)
	}
	var bridgedPage inspect.PageResult
	call("dapscope/page", map[string]any{"vscodeSessionId": "py-1", "expression": "df", "sort": []any{map[string]any{"column": "city"}}, "rows": map[string]any{"offset": 1, "limit": 2}, "timeout": 10}, &bridgedPage)
	if bridgedPage.Page == nil || fmt.Sprint(bridgedPage.Page.Positions) != "[2 0]" {
		t.Fatalf("bridged page = %+v", bridgedPage)
	}
	// One question to every process of the editor's tree (processes.go):
	// the proxied session, the bridged one, and one the sidecar does not know.
	var procs allprocs.Table
	call("dapscope/inspectProcesses", map[string]any{"vscodeSessionIds": []string{"vs-1", "py-1", "vs-none"}, "sessionId": stopped.SessionID,
		"frameIds": map[string]any{"vs-1": 0}, "expression": "df", "options": opts, "maxBytes": 65536}, &procs)
	if len(procs.Rows) != 3 || !strings.HasPrefix(procs.Rows[0].Summary, "DataFrame") || !strings.HasPrefix(procs.Rows[1].Summary, "DataFrame") ||
		procs.Rows[2].Error == "" || procs.Rows[0].VSCodeSessionID != "vs-1" || procs.Rows[1].Name != "Python: current file" {
		t.Fatalf("dapscope/inspectProcesses = %+v", procs)
	}
	call("dapscope/sessions", nil, nil)
	rec.mu.Lock()
	rec.frozen["dapscope/dapRequest"] = true
	rec.mu.Unlock()
	ev.Kind, ev.ThreadID, ev.Reason, ev.AllThreadsStopped = "continued", stopped.Stop.ThreadID, "", false
	c.Notify("dapscope/bridgeEvent", ev)
	ev.Kind, ev.ThreadID = "terminated", 0
	c.Notify("dapscope/bridgeEvent", ev)

	// Continue: the continued notification; then the MCP endpoint and the end.
	vs.Continue(stopped.Stop.ThreadID)
	c.SessionEvent("continued")
	rec.mu.Lock()
	rec.frozen["dapscope/sessionEvent"] = true // terminated comes while the channel closes
	rec.mu.Unlock()
	call("dapscope/mcpEndpoint", nil, nil)
	c.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": docURI}})
	call("shutdown", nil, nil)
	c.Notify("exit", nil)
	if err := c.Wait(); err != nil {
		t.Fatalf("Serve: %v", err)
	}

	// Every method of the table (and the two the sidecar sends) has a fixture.
	want := append([]string{"dapscope/sessionEvent", "dapscope/dapRequest"}, srv.Methods()...)
	slices.Sort(want)
	var got []string
	for m := range rec.entries {
		got = append(got, m)
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("recorded methods %v, want the channel's %v", got, want)
	}
	checkContract(t, rec.entries)
}

// contractKernel records the kernel methods on a channel of its own (its
// session notifications are then the kernel session's alone, in a known
// order): a real kernel listed, attached, its variables listed (the
// user's, then all), inspected, a user's cell run (continued, stopped).
func contractKernel(t *testing.T, rec *contractRecorder) {
	k := kerneltest.Start(t, "contract")
	k.Run(t, "import pandas as pd\ndf = pd.DataFrame({'price': [1.5, None, 3.0], 'city': ['a', 'b', None]})\nprice = df['price']\nwords = ['a', 'b']")
	mgr := session.NewManager(session.ManagerOptions{Workspace: k.Dir, Logger: testLogger(t)})
	srv := editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test",
		Kernels: kernel.ListOptions{RuntimeDir: k.Dir, NoProcesses: true}})
	var (
		mu   sync.Mutex
		done bool
	)
	trace := func(m editortest.Message) {
		mu.Lock()
		skip := done && m.Method == "dapscope/sessionEvent" // the detach's terminated comes while the channel closes
		mu.Unlock()
		if !skip {
			rec.record(m.Method, m.From, m.Kind, m.Params, m.Result, m.IsResult)
		}
	}
	c := editortest.Connect(t, srv, editortest.Options{Trace: trace})
	call := func(method string, params, out any) {
		t.Helper()
		if err := c.Call(method, params, out); err != nil {
			t.Fatalf("%s: %v", method, err)
		}
	}
	var list editor.KernelsResult
	call("dapscope/kernels", nil, &list)
	if len(list.Kernels) != 1 || list.Kernels[0].ID != "contract" || list.Kernels[0].Language != "python" || list.Kernels[0].State != "idle" {
		t.Fatalf("dapscope/kernels = %+v", list)
	}
	var at editor.KernelAttachResult
	call("dapscope/kernelAttach", map[string]any{"kernel": "contr"}, &at)
	if at.Adapter != "kernel" || at.Status != session.StatusPaused || at.Stop == nil || at.Kernel.ConnectionFile != k.File {
		t.Fatalf("dapscope/kernelAttach = %+v", at)
	}
	c.SessionEvent("stopped")
	var vars editor.KernelVariablesResult
	call("dapscope/kernelVariables", map[string]any{"sessionId": at.SessionID}, &vars)
	if len(vars.Items) != 3 || vars.Items[0].Name != "df" || !strings.HasPrefix(vars.Items[0].Summary, "DataFrame 3 × 2") || vars.Items[1].Dtype != "float64" {
		t.Fatalf("dapscope/kernelVariables = %+v", vars)
	}
	call("dapscope/kernelVariables", map[string]any{"sessionId": at.SessionID, "all": true}, &vars)
	if len(vars.Items) <= 3 {
		t.Fatalf("dapscope/kernelVariables all = %+v", vars)
	}
	var res inspect.Result
	call("dapscope/inspect", map[string]any{"sessionId": at.SessionID, "expression": "df", "options": map[string]any{"max_preview_rows": 5, "timeout": 10}}, &res)
	if res.DetectedType != "dataframe" {
		t.Fatalf("dapscope/inspect on a kernel = %+v", res)
	}
	call("dapscope/kernelVariables", map[string]any{"sessionId": at.SessionID}, &vars)
	before := map[string]editor.KernelVariable{}
	for _, v := range vars.Items {
		before[v.Name] = v
	}
	// a cell that writes one value of df in place: its summary stays, its fingerprint does not
	k.Run(t, "words.append('c'); df.iloc[0, 0] = 2.5")
	c.SessionEvent("continued")
	if ev := c.SessionEvent("stopped"); ev.Stop == nil || ev.Stop.Description != "after In[2]" {
		t.Fatalf("the stop after a cell = %+v", ev)
	}
	call("dapscope/kernelVariables", map[string]any{"sessionId": at.SessionID}, &vars)
	for _, v := range vars.Items {
		b := before[v.Name]
		if v.Fingerprint == "" || b.Fingerprint == "" {
			t.Fatalf("no fingerprint: %+v, before %+v", v, b)
		}
		// price: a view of df's column before pandas 3 (written too), a copy since (copy-on-write)
		if changed := v.Fingerprint != b.Fingerprint; v.Name != "price" && changed != (v.Name == "df" || v.Name == "words") {
			t.Errorf("%s: changed %v (%s → %s)", v.Name, changed, b.Fingerprint, v.Fingerprint)
		}
		if v.Name == "df" && v.Summary != b.Summary {
			t.Errorf("df's summary changed too (%q → %q): the check needs a write the summary does not show", b.Summary, v.Summary)
		}
	}
	mu.Lock()
	done = true
	mu.Unlock()
	call("shutdown", nil, nil)
	c.Notify("exit", nil)
	if err := c.Wait(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

// contractFile names a method's fixture: dapscope/startProxy → dapscope_startProxy.json.
func contractFile(method string) string {
	return filepath.Join(contractDir, strings.ReplaceAll(method, "/", "_")+".json")
}

// checkContract compares (or with -update rewrites) the fixtures; a fixture
// of a method the channel no longer has fails too.
func checkContract(t *testing.T, entries map[string]*contractEntry) {
	t.Helper()
	files := map[string]bool{}
	for m, e := range entries {
		path := contractFile(m)
		files[path] = true
		got, err := json.MarshalIndent(e, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		// A change of shape means: rerun with -update if intended, then fix
		// vscode-extension/src/protocol.ts.
		golden.Check(t, path, append(got, '\n'))
	}
	old, _ := filepath.Glob(filepath.Join(contractDir, "*.json"))
	for _, f := range old {
		if files[f] {
			continue
		}
		if golden.Update() {
			_ = os.Remove(f)
			continue
		}
		t.Errorf("stale contract fixture %s: the channel has no such method", f)
	}
}

// contractPending: a page whose totals an engine counts on request (a
// filtered Dask frame, made in the paused frame through VS Code's DAP):
// total_rows absent and total_pending first, then count: true with
// rows.limit 0, the count alone.
func contractPending(t *testing.T, vs *daptest.Client, threadID int, call func(string, any, any)) {
	t.Helper()
	testpython.Require(t, "dask")
	frame := vs.TopFrame(threadID)
	vs.Call("evaluate", map[string]any{"expression": "import dask.dataframe as _dd; ddf = _dd.from_pandas(df, npartitions=2)", "frameId": frame.Id, "context": "repl"})
	var first, count inspect.PageResult
	sel := map[string]any{"vscodeSessionId": "vs-1", "expression": "ddf", "filter": "price > 1", "rows": map[string]any{"offset": 0, "limit": 2}, "timeout": 10}
	call("dapscope/page", sel, &first)
	if first.Page == nil || first.Page.TotalRows != nil || first.Page.TotalPending == "" || len(first.Page.Rows) != 2 {
		t.Fatalf("a page counted on request: %+v", first)
	}
	sel["count"], sel["rows"] = true, map[string]any{"offset": 0, "limit": 0}
	call("dapscope/page", sel, &count)
	if count.Page == nil || count.Page.Total() != 3 || count.Page.All() != 4 || count.Page.FilterNA != 1 || count.Page.TotalPending != "" {
		t.Fatalf("the count: %+v", count)
	}
}
