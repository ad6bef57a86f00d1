// Tests of a debugpy subprocess's child session through the proxy: the
// editor starts it on debugpy's own adapter (ProxySpec.Connect, the address
// in the debugpyAttach event), and the child gets the first-stop fixes and
// the attach semantics (the child is not ours to terminate).

package session

import (
	"context"
	"net"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestSubprocessChildThroughProxy(t *testing.T) {
	root := repoRoot(t)
	parent := filepath.Join(root, "testdata", "python", "subproc_parent.py")
	child := filepath.Join(root, "testdata", "python", "subproc_child.py")
	m := newTestManager(t, ManagerOptions{})

	// The parent, as an editor launches it:
	//   → initialize → launch ← initialized → configurationDone ← launch response
	edSide, muxSide := net.Pipe()
	served := make(chan error, 2)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
	ed := daptest.New(t, edSide)
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	launch := ed.StartLaunch(daptest.PythonLaunch(parent))
	ed.Event("initialized")
	ed.ConfigurationDone()
	ed.OK(launch)
	parentSession, err := m.Get("")
	if err != nil {
		t.Fatal(err)
	}

	//   ← debugpyAttach {request: attach, subProcessId, connect: {host, port}, …}
	var body map[string]any
	if err := ed.Event("debugpyAttach").Unmarshal(&body); err != nil {
		t.Fatal(err)
	}
	connect, _ := body["connect"].(map[string]any)
	port, _ := connect["port"].(float64)
	host, _ := connect["host"].(string)
	if port == 0 || body["subProcessId"] == nil {
		t.Fatalf("debugpyAttach body without connect/subProcessId: %v", body)
	}
	if host == "" {
		host = "127.0.0.1"
	}

	// The child session, as the extension starts it: a proxy that dials
	// debugpy's adapter instead of starting one.
	//   → initialize → attach(body) ← initialized → setBreakpoints → configurationDone ← attach response ← stopped
	cedSide, cmuxSide := net.Pipe()
	go func() {
		served <- m.ServeEditor(context.Background(), cmuxSide, ProxySpec{Connect: net.JoinHostPort(host, strconv.Itoa(int(port)))})
	}()
	ced := daptest.New(t, cedSide)
	ced.Initialize(daptest.InitArgs("test-editor", "python"))
	attach := ced.Send("attach", body)
	ced.Event("initialized")
	ced.SetBreakpoints(child, lineOf(t, child, "CHILD BREAKPOINT"))
	ced.ConfigurationDone()
	ced.OK(attach)
	stopped := ced.Stopped()

	var childSession *Session
	for _, s := range m.List() {
		if s != parentSession {
			childSession = s
		}
	}
	if childSession == nil {
		t.Fatal("the child session is not registered")
	}
	if !childSession.attached.Load() {
		t.Error("the child session is not marked attached: ending it would terminate a process that is not ours")
	}
	frame := waitStop(t, childSession).Location.FrameID // recorded after the first-stop fixes
	if got := ced.Evaluate(adapter.WakeMarkerExpr, frame, "watch").Result; got != wakeInstalled() {
		t.Fatalf("wake marker in the child = %s, want %s", got, wakeInstalled())
	}
	if got := ced.Evaluate(nodelayProbe, frame, "watch").Result; got == "0" {
		t.Fatalf("TCP_NODELAY in the child = %s, want on", got)
	}
	if got := ced.Evaluate("settings['mode']", frame, "watch").Result; got != "'child'" {
		t.Fatalf("settings['mode'] = %s", got)
	}

	//   → continue (child) … ← terminated (parent: the program ends)
	ced.Continue(stopped.Body.ThreadId)
	ed.Event("terminated")
	ced.Close()
	ed.Close()
	for range 2 {
		if err := <-served; err != nil {
			t.Logf("serve: %v", err)
		}
	}
}

// TestWakeUninstalledWhenEditorDetaches: an editor attaches through the
// proxy to a debuggee that runs debugpy.listen() (the proxy dials the
// debuggee's adapter, as the Python extension does), the first stop
// patches pydevd, and the editor's disconnect first undoes the patch: the
// debuggee goes on as it was.
func TestWakeUninstalledWhenEditorDetaches(t *testing.T) {
	port, cmd := startListening(t)
	rel := "testdata/python/wake_listen.py"
	file := filepath.Join(repoRoot(t), rel)
	line := lineOf(t, file, "BP_LOOP")
	m := newTestManager(t, ManagerOptions{})

	//   → initialize → attach{connect} ← initialized → setBreakpoints → configurationDone ← attach response ← stopped
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() {
		served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{Connect: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))})
	}()
	ed := daptest.New(t, edSide)
	ed.Initialize(daptest.InitArgs("test-editor", "python"))
	attach := ed.Send("attach", map[string]any{"type": "python", "request": "attach", "connect": map[string]any{"host": "127.0.0.1", "port": port}})
	ed.Event("initialized")
	ed.SetBreakpoints(file, line)
	ed.ConfigurationDone()
	ed.OK(attach)
	ed.Stopped()
	s, err := m.Get("")
	if err != nil {
		t.Fatal(err)
	}
	frame := waitStop(t, s).Location.FrameID
	if got := ed.Evaluate(adapter.WakeMarkerExpr, frame, "watch").Result; got != wakeInstalled() {
		t.Fatalf("wake marker = %s, want %s", got, wakeInstalled())
	}
	//   → setBreakpoints [] → disconnect (the sidecar undoes the patch first) ← response
	ed.SetBreakpoints(file)
	ed.Disconnect(false)
	ed.Close()
	<-served
	expectUnpatched(t, port, cmd, rel, []Breakpoint{{File: rel, Line: line}})
}

// TestProxyConnectLoopbackOnly: a proxy dials only loopback adapters (other
// hosts need --attach-hosts), and an address without a port is refused.
func TestProxyConnectLoopbackOnly(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	for addr, want := range map[string]string{"10.1.2.3:5678": "not a loopback address", "127.0.0.1": "not host:port"} {
		_, muxSide := net.Pipe()
		err := m.ServeEditor(context.Background(), muxSide, ProxySpec{Connect: addr})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Connect %s: err = %v, want %q", addr, err, want)
		}
	}
}
