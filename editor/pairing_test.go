// pairing_test.go: each dapscope debug session is paired with the sidecar
// session its own proxy connection became, by startProxy's token, never by
// arrival order (issue #28.5), against real debugpy and node through the
// fake editor: a startProxy that never connects (an aborted launch)
// followed by a real session, and two proxies (Python, JavaScript)
// connecting in the reverse order of their startProxy, as a compound launch
// may. The session events carry the right VS Code id, and dapscope/inspect
// by VS Code id answers from the right session (a proxy not connected yet:
// NOT_FOUND, never another session).

package editor_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/dap/daptest"
	"github.com/dapscope/dapscope/server/session"
)

// breakpointLine is the 1-based line of file ending with marker.
func breakpointLine(t *testing.T, file, marker string) int {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return slices.IndexFunc(strings.Split(string(src), "\n"), func(l string) bool { return strings.HasSuffix(l, marker) }) + 1
}

// pairingFixture is a program of the fixtures and how to stop in it.
type pairingFixture struct {
	adapter, program, marker string
	launch                   map[string]any
}

func pagePy(t *testing.T) pairingFixture {
	p, _ := filepath.Abs("testdata/page.py")
	return pairingFixture{"debugpy", p, "# BREAKPOINT", map[string]any{"program": p, "console": "internalConsole", "cwd": filepath.Dir(p), "justMyCode": true}}
}

func pageJS(t *testing.T) pairingFixture {
	p, _ := filepath.Abs("testdata/page.js")
	return pairingFixture{"node", p, "// BREAKPOINT", map[string]any{"program": p, "cwd": filepath.Dir(p)}}
}

func (f pairingFixture) startProxy(c *editortest.Editor, vscodeID string) string {
	return c.StartProxy(editor.StartProxyParams{VSCodeSessionID: vscodeID, Configuration: map[string]any{
		"type": "dapscope", "request": "launch", "adapter": f.adapter, "program": f.program}}).Address
}

// run connects VS Code's DAP client to addr, launches to the breakpoint and
// returns the sidecar session id the connection itself reports
// (dapscope/session on that connection: the ground truth).
func (f pairingFixture) run(t *testing.T, c *editortest.Editor, addr string) string {
	t.Helper()
	ed := c.DialProxy(addr)
	ed.Initialize(daptest.InitArgs("vscode", "dapscope"))
	ed.LaunchToFrame(f.launch, f.program, breakpointLine(t, f.program, f.marker))
	var info struct {
		ID string `json:"id"`
	}
	if err := ed.Call("dapscope/session", nil).Unmarshal(&info); err != nil || info.ID == "" {
		t.Fatalf("dapscope/session on the connection: %v %+v", err, info)
	}
	return info.ID
}

// stoppedOf waits for the stopped notification of sidecar session id and
// checks every stopped notification on the way carries the VS Code id
// paired with its session (want: sidecar id → VS Code id).
func stoppedOf(t *testing.T, c *editortest.Editor, id string, want map[string]string) {
	t.Helper()
	for {
		ev := c.SessionEvent("stopped")
		if ev.VSCodeSessionID != want[ev.SessionID] {
			t.Errorf("session %s stopped with vscodeSessionId %q, want %q", ev.SessionID, ev.VSCodeSessionID, want[ev.SessionID])
		}
		if ev.SessionID == id {
			return
		}
	}
}

func newPairingEditor(t *testing.T) *editortest.Editor {
	mgr := session.NewManager(session.ManagerOptions{Workspace: "testdata", Logger: testLogger(t)})
	c := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t), Version: "test"}), editortest.Options{})
	c.Initialize()
	return c
}

func TestPairingAfterAbortedStartProxy(t *testing.T) {
	c := newPairingEditor(t)
	py := pagePy(t)
	// An aborted launch: VS Code asked for a proxy, then never connected.
	py.startProxy(c, "vs-aborted")
	addr := py.startProxy(c, "vs-real")
	id := py.run(t, c, addr)
	stoppedOf(t, c, id, map[string]string{id: "vs-real"})

	if r := c.Inspect(editor.InspectParams{VSCodeSessionID: "vs-real", Expression: "df"}); r.Error != nil || r.DetectedType != "dataframe" {
		t.Fatalf("inspect vs-real: %+v", r)
	}
	// The aborted session has no sidecar session: said so, not answered
	// from the real one.
	var r inspect.Result
	err := c.Call("dapscope/inspect", editor.InspectParams{VSCodeSessionID: "vs-aborted", Expression: "df"}, &r)
	if err == nil || !strings.Contains(err.Error(), "has not connected") {
		t.Fatalf("inspect vs-aborted = %+v, %v; want an error saying it has not connected", r, err)
	}
	if err := c.Shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}

func TestPairingProxiesConnectingInReverseOrder(t *testing.T) {
	c := newPairingEditor(t)
	py, js := pagePy(t), pageJS(t)
	// A compound launch: Python's startProxy first, JavaScript's second;
	// JavaScript's connection arrives first.
	pyAddr := py.startProxy(c, "vs-py")
	jsAddr := js.startProxy(c, "vs-js")

	jsID := js.run(t, c, jsAddr)
	want := map[string]string{jsID: "vs-js"}
	stoppedOf(t, c, jsID, want)
	// Inspect by VS Code id before Python connects: JavaScript's own
	// session, and Python's is not answered by it.
	if r := c.Inspect(editor.InspectParams{VSCodeSessionID: "vs-js", Expression: "rows"}); r.Error != nil || r.Language != "javascript" {
		t.Fatalf("inspect vs-js: %+v", r)
	}
	var r inspect.Result
	if err := c.Call("dapscope/inspect", editor.InspectParams{VSCodeSessionID: "vs-py", Expression: "rows"}, &r); err == nil {
		t.Fatalf("inspect vs-py before it connected = %+v, want an error", r)
	} else if !strings.Contains(err.Error(), "has not connected") {
		t.Fatalf("inspect vs-py before it connected: %v", err)
	}

	pyID := py.run(t, c, pyAddr)
	want[pyID] = "vs-py"
	stoppedOf(t, c, pyID, want)
	// Each answers from its own session: pandas' DataFrame in Python (no
	// language: the Python probe's; pandas 3 names the class
	// pandas.DataFrame), an Array of records in JavaScript.
	for vs, w := range map[string]struct{ expr, lang, typ string }{
		"vs-py": {"df", "", "pandas.core.frame.DataFrame|pandas.DataFrame"},
		"vs-js": {"rows", "javascript", "Array"},
	} {
		r := c.Inspect(editor.InspectParams{VSCodeSessionID: vs, Expression: w.expr})
		if r.Error != nil || r.Language != w.lang || !slices.Contains(strings.Split(w.typ, "|"), r.Type) {
			t.Errorf("inspect %s %s: language %q, type %q, error %+v; want %q %s", vs, w.expr, r.Language, r.Type, r.Error, w.lang, w.typ)
		}
	}
	// The other's expression is unknown in each session: each answers from its own.
	if r := c.Inspect(editor.InspectParams{VSCodeSessionID: "vs-py", Expression: "rows"}); r.Error == nil || r.Error.Code != errcode.VariableNotFound {
		t.Errorf("inspect vs-py rows: %+v, want VARIABLE_NOT_FOUND", r)
	}
	if err := c.Shutdown(); err != nil {
		t.Fatalf("Serve: %v", err)
	}
}
