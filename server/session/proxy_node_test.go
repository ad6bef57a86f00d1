// proxy_node_test.go: an editor's Node session through the private
// transport ListenEditor opens — a unix socket in a 0700 directory, a named
// pipe on Windows (run under Wine by testdata/windows/run.sh) — against real
// node: launch to a breakpoint, evaluate, one connection only, and the
// session ends with the editor's disconnect.

package session

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestNodeThroughEditorProxy(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	addr, err := m.ListenEditor(testCtx(t), ProxySpec{Adapter: "node"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(addr, platform.UnixPrefix) && !strings.HasPrefix(addr, platform.PipePrefix) {
		t.Fatalf("ListenEditor = %q, want a private socket or pipe", addr)
	}
	conn, err := DialProxy(addr)
	if err != nil {
		t.Fatal(err)
	}
	ed := daptest.New(t, conn)
	// → initialize, launch, setBreakpoints(@square), configurationDone ← stopped
	ed.Initialize(daptest.InitArgs("test-editor", "node"))
	prog := filepath.Join(repoRoot(t), "testdata", "node", "basic.js")
	_, frame := ed.LaunchToFrame(map[string]any{"type": "node", "request": "launch", "program": prog},
		prog, markerLine(t, "testdata/node/basic.js", "square"))
	if !platform.Host.Same(frame.Source.Path, prog) {
		t.Fatalf("stopped in %q, want %q", frame.Source.Path, prog)
	}
	// → evaluate ← the value in the paused frame
	if r := ed.Evaluate("x + 10", frame.Id, "repl"); r.Result != "10" {
		t.Fatalf("evaluate x + 10 (x is 0) = %+v", r)
	}
	// The proxy took its one connection: no one else gets in.
	// (Bounded: a pipe whose one instance is taken answers "busy", which a
	// Windows client waits on.)
	short, cancel := context.WithTimeout(testCtx(t), time.Second)
	defer cancel()
	if c2, err := platform.Dial(short, addr); err == nil {
		c2.Close()
		t.Fatal("a second connection to the editor's proxy was accepted")
	}
	// → disconnect: the session ends.
	sessions := m.List()
	if len(sessions) != 1 {
		t.Fatalf("%d sessions, want the editor's one", len(sessions))
	}
	ed.Disconnect(true)
	ed.Close()
	select {
	case <-sessions[0].Done():
	case <-time.After(30 * time.Second):
		t.Fatalf("the session did not end with the editor (status %s)", sessions[0].Status())
	}
}
