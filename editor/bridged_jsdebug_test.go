// Tests of the bridge with a session shaped like one of VS Code's
// JavaScript debugger (js-debug): adapter kind "node", its one thread
// numbered 0 and its frames numbered from 0. The fake editor's extension
// runs each bridged request on a real headless Node session (V8 through
// dapscope's Node adapter, a separate manager) and renumbers thread and
// frame ids the way js-debug does (bridgetest.JSDebugIDs), so hover and
// dapscope/inspect are checked against real JavaScript values with
// js-debug's ids.

package editor_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/session"
)

func TestBridgeJSDebugSession(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/records.js")
	src, _ := os.ReadFile(fixture)
	lines := strings.Split(string(src), "\n")
	bpLine := -1
	for i, l := range lines {
		if strings.Contains(l, "// BREAKPOINT") {
			bpLine = i
		}
	}
	// The "js-debug" session: a real Node program driven by another manager.
	other := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	js, err := other.Launch(ctx, session.LaunchSpec{Adapter: "node", Program: "records.js", Breakpoints: []session.Breakpoint{{File: "records.js", Line: bpLine + 1}}})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := js.Wait(ctx, 60*time.Second)
	if err != nil || stop.Location == nil || stop.Location.Line != bpLine+1 {
		t.Fatalf("wait: %+v %v", stop, err)
	}
	ids := bridgetest.NewJSDebugIDs(stop.Location.ThreadID)

	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	defer mgr.Close()
	var (
		mu       sync.Mutex
		contexts []string // evaluate contexts seen by the "extension"
		threads  []any    // threadIds asked for
	)
	onJS := bridgetest.OnSession(js, ids)
	x := &bridgetest.Extension{Answer: func(ctx context.Context, r bridgetest.Request) (json.RawMessage, error) {
		mu.Lock()
		if c, ok := r.Args()["context"].(string); ok && r.Command == "evaluate" {
			contexts = append(contexts, c)
		}
		if r.Command == "stackTrace" {
			threads = append(threads, r.Args()["threadId"])
		}
		mu.Unlock()
		return onJS(ctx, r)
	}}
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t)}), editortest.Options{Extension: x})
	ed.Initialize()
	// What the extension reports for js-debug's child session of a "node" launch.
	ev := bridge.Event{VSCodeSessionID: "js-child", DebugType: "pwa-node", Name: "records.js [4242]", Adapter: "node"}
	ev.Kind = "started"
	ed.BridgeEvent(ev)
	ev.Kind, ev.ThreadID, ev.Reason = "stopped", 0, "breakpoint"
	ed.BridgeEvent(ev)

	var sess editor.SessionsResult
	for i := 0; i < 100; i++ { // notifications are handled in order but asynchronously
		if sess = ed.Sessions(); len(sess.Bridged) == 1 && sess.Bridged[0].Status == "paused" {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if len(sess.Bridged) != 1 || sess.Bridged[0].Adapter != "node" || sess.Bridged[0].Status != "paused" {
		t.Fatalf("sessions = %+v", sess)
	}

	// dapscope/inspect on the top frame (frame id 0, which js-debug uses).
	res := ed.Inspect(editor.InspectParams{VSCodeSessionID: "js-child", Expression: "records"})
	// The same assertions hold for the DAP-variables fallback and the JS
	// probe: three rows whose values are the program's.
	js1, _ := json.Marshal(res)
	if res.Error != nil || res.Name != "records" || !strings.Contains(res.Summary, "3") || !strings.Contains(string(js1), "Nice") {
		t.Fatalf("bridged inspect of records = %s", js1)
	}
	row := ed.Inspect(editor.InspectParams{VSCodeSessionID: "js-child", FrameID: 0, Expression: "records[1].city"})
	if js2, _ := json.Marshal(row); row.Error != nil || !strings.Contains(string(js2), "Lyon") {
		t.Fatalf("records[1].city = %s", js2)
	}
	missing := ed.Inspect(editor.InspectParams{VSCodeSessionID: "js-child", Expression: "nope"})
	if missing.Error == nil || missing.Error.Code != errcode.VariableNotFound {
		t.Fatalf("inspect of an unknown name = %+v", missing.Error)
	}

	// Hover on records in the file the top frame (id 0) is in.
	col := strings.Index(lines[bpLine], "records") + 2
	if h := ed.Hover(fixture, bpLine, col); h == nil || !strings.Contains(h.Contents.Value, "records") || !strings.Contains(h.Contents.Value, "3") {
		t.Fatalf("hover on records in frame 0 = %+v", h)
	}
	mu.Lock()
	for _, th := range threads {
		if th != float64(0) {
			t.Errorf("stackTrace asked for thread %v, want js-debug's thread 0", th)
		}
	}
	if len(threads) == 0 || len(contexts) == 0 {
		t.Errorf("bridge traffic: stackTrace threads %v, evaluate contexts %v", threads, contexts)
	}
	mu.Unlock()

	ev.Kind = "terminated"
	ed.BridgeEvent(ev)
	if err := ed.Shutdown(); err != nil {
		t.Fatal(err)
	}
}
