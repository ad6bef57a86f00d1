// Tests of the channel's side of the bridge, with the fake editor playing
// the extension: its tracker reports a stop of a debugpy session it owns
// (here a real headless debugpy session of a separate manager) and it
// answers dapscope/dapRequest by running the DAP request on it; hover,
// dapscope/inspect and dapscope/sessions then work through the bridge.
// Also: the bridge's requests on the wire, and the sidecar's shutdown
// forgetting a live bridged session.

package editor_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/editor"
	"github.com/dapscope/dapscope/editor/editortest"
	"github.com/dapscope/dapscope/server/bridge"
	"github.com/dapscope/dapscope/server/bridge/bridgetest"
	"github.com/dapscope/dapscope/server/session"
)

func TestBridgeInspectsAnotherDebugTypesSession(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, _ := os.ReadFile(fixture)
	lines := strings.Split(string(src), "\n")
	bpLine := lineWith(t, src, "total = ")
	// The "Python extension's" session: debugpy driven by another manager.
	other := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	defer other.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	os1, err := other.Launch(ctx, session.LaunchSpec{Program: "hover.py", Breakpoints: []session.Breakpoint{{File: "hover.py", Line: bpLine + 1}}})
	if err != nil {
		t.Fatal(err)
	}
	stop, err := os1.Wait(ctx, 60*time.Second)
	if err != nil || stop.Location == nil {
		t.Fatalf("wait: %+v %v", stop, err)
	}

	mgr := session.NewManager(session.ManagerOptions{Workspace: filepath.Dir(fixture), Logger: testLogger(t)})
	x := &bridgetest.Extension{Answer: bridgetest.OnSession(os1, nil)}
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t)}), editortest.Options{Extension: x})
	ed.Initialize()
	ev := bridge.Event{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: current file", Adapter: "debugpy"}
	ev.Kind = "started"
	ed.BridgeEvent(ev)
	ev.Kind, ev.ThreadID, ev.Reason = "stopped", stop.Location.ThreadID, "breakpoint"
	ed.BridgeEvent(ev)

	res := ed.Inspect(editor.InspectParams{VSCodeSessionID: "py-1", Expression: "df"})
	if res.DetectedType != "dataframe" || res.Structure == nil || res.Structure.Shape[0] != 4 {
		t.Fatalf("bridged inspect = %+v", res)
	}
	// The editor's own stackTrace of the stop tells the top frame (kind
	// frame: id, line, file): the next inspection and hover ask no
	// stackTrace through the bridge.
	top, err := os1.TopFrame(ctx)
	if err != nil {
		t.Fatal(err)
	}
	frameEv := ev
	frameEv.Kind, frameEv.FrameID, frameEv.Line = "frame", top.Id, top.Line
	if top.Source != nil {
		frameEv.Path = top.Source.Path
	}
	ed.BridgeEvent(frameEv)
	before := len(x.Commands())
	if res := ed.Inspect(editor.InspectParams{VSCodeSessionID: "py-1", Expression: "df"}); res.DetectedType != "dataframe" {
		t.Fatalf("bridged inspect with the frame known: %+v", res)
	}
	if got := x.Commands()[before:]; slices.Contains(got, "stackTrace") || !slices.Contains(got, "evaluate") {
		t.Fatalf("with the top frame known the inspection sent %v; want the evaluate alone", got)
	}
	col := strings.Index(lines[bpLine], "df") + 1
	if h := ed.Hover(fixture, bpLine, col); h == nil || !strings.Contains(h.Contents.Value, "DataFrame") {
		t.Fatalf("bridged hover = %+v", h)
	}
	// The hover found the hovered file in that frame (its path came with it).
	if got := x.Commands()[before:]; slices.Contains(got, "stackTrace") {
		t.Fatalf("with the top frame and its file known, the inspection and hover sent %v; want no stackTrace", got)
	}
	if sess := ed.Sessions(); len(sess.Bridged) != 1 || sess.Bridged[0].Status != "paused" {
		t.Fatalf("sessions = %+v", sess)
	}
	if got := x.Commands(); len(got) == 0 || !slices.Contains(got, "evaluate") {
		t.Fatalf("no evaluate went through the bridge: %v", got)
	}
	// Continued: hover is null without any DAP traffic.
	ev.Kind = "continued"
	ed.BridgeEvent(ev)
	n := len(x.Commands())
	if h := ed.Hover(fixture, bpLine, col); h != nil || len(x.Commands()) != n {
		t.Fatalf("hover after continue = %+v (bridge calls %d → %d)", h, n, len(x.Commands()))
	}
	ev.Kind = "terminated"
	ed.BridgeEvent(ev)
	var gone json.RawMessage
	if err := ed.Call("dapscope/inspect", editor.InspectParams{VSCodeSessionID: "py-1", Expression: "df"}, &gone); err == nil {
		t.Fatalf("inspect on a terminated bridged session succeeded: %s", gone)
	}
	if err := ed.Shutdown(); err != nil {
		t.Fatal(err)
	}
}

// The sidecar's shutdown forgets a live bridged session: nothing is sent
// to the editor's session (no disconnect), and its record says how it was
// left.
func TestBridgedSessionForgottenAtShutdown(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	x := &bridgetest.Extension{Answer: func(context.Context, bridgetest.Request) (json.RawMessage, error) {
		return bridgetest.Body(map[string]any{"stackFrames": []any{}})
	}}
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t)}), editortest.Options{Extension: x})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ed.Initialize()
	ev := bridge.Event{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python", Adapter: "debugpy", Kind: "started"}
	ed.BridgeEvent(ev)
	ev.Kind, ev.ThreadID = "stopped", 1
	ed.BridgeEvent(ev)
	for len(mgr.List()) == 0 || mgr.List()[0].Status() != session.StatusPaused {
		select {
		case <-ctx.Done():
			t.Fatal("no paused bridged session")
		case <-time.After(5 * time.Millisecond):
		}
	}
	s := mgr.List()[0]
	// An unknown debug type stays an editor-only bridged session.
	ed.BridgeEvent(bridge.Event{VSCodeSessionID: "cpp-1", DebugType: "cppdbg", Name: "C++", Adapter: "cppdbg", Kind: "started"})
	if sess := ed.Sessions(); len(sess.Sessions) != 1 || len(sess.Bridged) != 2 {
		t.Fatalf("sessions = %+v", sess)
	}
	if err := ed.Call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	<-s.Done()
	for _, c := range x.Commands() {
		if c != "stackTrace" {
			t.Errorf("%s was sent at shutdown", c)
		}
	}
	ed.Notify("exit", nil)
	if err := ed.Wait(); err != nil {
		t.Fatal(err)
	}
}

// The bridge's requests through the channel: dapscope/dapRequest carries
// the command and the arguments as the session wrote them (js-debug's
// frame 0 kept, none for a request without), and the extension's JSON-RPC
// error comes back as the debug adapter's own words.
func TestBridgeRequestsOnTheWire(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	x := &bridgetest.Extension{Answer: func(_ context.Context, r bridgetest.Request) (json.RawMessage, error) {
		switch r.Command {
		case "stackTrace":
			return bridgetest.Body(map[string]any{"stackFrames": []any{map[string]any{"id": 0, "name": "main", "line": 3, "column": 1, "source": map[string]any{"path": "/w/app.js"}}}})
		case "threads":
			return bridgetest.Body(map[string]any{"threads": []any{map[string]any{"id": 0, "name": "main"}}})
		case "evaluate":
			if r.Args()["expression"] == "nope" {
				return nil, errors.New("ReferenceError: nope is not defined")
			}
			return bridgetest.Body(map[string]any{"result": "42", "variablesReference": 0})
		}
		return nil, errors.New("dapscope bridge: command " + r.Command + " is not allowed")
	}}
	ed := editortest.Connect(t, editor.New(editor.Options{Manager: mgr, Logger: testLogger(t)}), editortest.Options{Extension: x})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ed.Initialize()
	ev := bridge.Event{VSCodeSessionID: "js-1", DebugType: "pwa-node", Name: "app.js", Adapter: "node", Kind: "started"}
	ed.BridgeEvent(ev)
	ev.Kind, ev.Reason, ev.Body = "stopped", "breakpoint", json.RawMessage(`{"reason":"breakpoint","threadId":0}`)
	ed.BridgeEvent(ev)
	for len(mgr.List()) == 0 || mgr.List()[0].Status() != session.StatusPaused {
		select {
		case <-ctx.Done():
			t.Fatal("no paused bridged session")
		case <-time.After(5 * time.Millisecond):
		}
	}
	s := mgr.List()[0]
	if stop, err := s.Wait(ctx, 30*time.Second); err != nil || stop.Location == nil || stop.Location.Line != 3 {
		t.Fatalf("wait = %+v %v", stop, err)
	}
	if r, err := s.Evaluate(ctx, "answer", 0, "watch"); err != nil || r.Result != "42" {
		t.Fatalf("evaluate = %+v %v", r, err)
	}
	calls := x.Calls()
	if last := calls[len(calls)-1]; last.VSCodeSessionID != "js-1" || last.Command != "evaluate" || last.Args()["frameId"] != float64(0) || last.Args()["context"] != "watch" {
		t.Fatalf("evaluate on the wire = %+v %s", last, last.Arguments)
	}
	// The adapter's words alone, not the channel's wrapping of them.
	if _, err := s.Evaluate(ctx, "nope", 0, ""); err == nil || !strings.Contains(err.Error(), "ReferenceError: nope is not defined") || strings.Contains(err.Error(), "through the editor") {
		t.Fatalf("evaluate nope: %v", err)
	}
	var threads struct {
		Threads []struct {
			Name string `json:"name"`
		} `json:"threads"`
	}
	if err := s.Request(ctx, "threads", nil, &threads); err != nil || len(threads.Threads) != 1 || threads.Threads[0].Name != "main" {
		t.Fatalf("threads = %+v %v", threads, err)
	}
	calls = x.Calls()
	if last := calls[len(calls)-1]; last.Command != "threads" || len(last.Arguments) != 0 {
		t.Fatalf("threads on the wire = %+v %s, want no arguments", last, last.Arguments)
	}
	if err := ed.Shutdown(); err != nil {
		t.Fatal(err)
	}
}
