// Tests of the bridge for other debug types: the scripted extension reports
// a stop of a debugpy session it owns (here a real headless debugpy session
// of a separate manager) and answers dapscope/dapRequest by running the DAP
// request on it; hover and dapscope/inspect then work through the bridge.
// Also: a panicking handler becomes a JSON-RPC error and the channel lives on.

package editor

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/uri"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func TestBridgeInspectsAnotherDebugTypesSession(t *testing.T) {
	fixture, _ := filepath.Abs("testdata/hover.py")
	src, _ := os.ReadFile(fixture)
	lines := strings.Split(string(src), "\n")
	bpLine := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "total = ") {
			bpLine = i
		}
	}
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
	a, b := newPipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t)})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	var bridged []string
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(context.Background(), func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		if req.Method() != "dapscope/dapRequest" {
			return jsonrpc2.MethodNotFoundHandler(ctx, reply, req)
		}
		var p struct {
			VSCodeSessionID string          `json:"vscodeSessionId"`
			Command         string          `json:"command"`
			Arguments       json.RawMessage `json:"arguments"`
		}
		_ = json.Unmarshal(req.Params(), &p)
		bridged = append(bridged, p.Command)
		go func() { // like session.customRequest: answered asynchronously
			var body json.RawMessage
			err := os1.Request(ctx, p.Command, p.Arguments, &body)
			_ = reply(ctx, body, err)
		}()
		return nil
	})
	defer func() { _ = conn.Close(); <-conn.Done() }()
	call := func(method string, params, out any) error {
		cctx, ccancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer ccancel()
		_, err := conn.Call(cctx, method, params, out)
		return err
	}
	if err := call("initialize", map[string]any{}, nil); err != nil {
		t.Fatal(err)
	}
	ev := BridgeEvent{VSCodeSessionID: "py-1", DebugType: "debugpy", Name: "Python: current file", Adapter: "debugpy"}
	ev.Kind = "started"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)
	ev.Kind, ev.ThreadID, ev.Reason = "stopped", stop.Location.ThreadID, "breakpoint"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)

	var res inspect.Result
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "py-1", Expression: "df"}, &res); err != nil {
		t.Fatal(err)
	}
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
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", frameEv)
	before := len(bridged)
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "py-1", Expression: "df"}, &res); err != nil || res.DetectedType != "dataframe" {
		t.Fatalf("bridged inspect with the frame known: %+v %v", res, err)
	}
	if got := bridged[before:]; contains(got, "stackTrace") || !contains(got, "evaluate") {
		t.Fatalf("with the top frame known the inspection sent %v; want the evaluate alone", got)
	}
	var raw json.RawMessage
	col := strings.Index(lines[bpLine], "df") + 1
	if err := call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": string(uri.File(fixture))}, "position": map[string]any{"line": bpLine, "character": col}}, &raw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(raw), "DataFrame") {
		t.Fatalf("bridged hover = %s", raw)
	}
	// The hover found the hovered file in that frame (its path came with it).
	if got := bridged[before:]; contains(got, "stackTrace") {
		t.Fatalf("with the top frame and its file known, the inspection and hover sent %v; want no stackTrace", got)
	}
	var sess SessionsResult
	if err := call("dapscope/sessions", nil, &sess); err != nil {
		t.Fatal(err)
	}
	if len(sess.Bridged) != 1 || sess.Bridged[0].Status != "paused" {
		t.Fatalf("sessions = %+v", sess)
	}
	if len(bridged) == 0 || !contains(bridged, "evaluate") {
		t.Fatalf("no evaluate went through the bridge: %v", bridged)
	}
	// Continued: hover is null without any DAP traffic.
	ev.Kind = "continued"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)
	n := len(bridged)
	raw = nil
	if err := call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": string(uri.File(fixture))}, "position": map[string]any{"line": bpLine, "character": col}}, &raw); err != nil {
		t.Fatal(err)
	}
	if (len(raw) != 0 && string(raw) != "null") || len(bridged) != n {
		t.Fatalf("hover after continue = %s (bridge calls %d → %d)", raw, n, len(bridged))
	}
	ev.Kind = "terminated"
	_ = conn.Notify(context.Background(), "dapscope/bridgeEvent", ev)
	var gone inspect.Result
	if err := call("dapscope/inspect", InspectParams{VSCodeSessionID: "py-1", Expression: "df"}, &gone); err == nil {
		t.Fatalf("inspect on a terminated bridged session succeeded: %+v", gone)
	}
	if err := call("shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = conn.Notify(context.Background(), "exit", nil)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func TestPanicBecomesErrorAndChannelLives(t *testing.T) {
	mgr := session.NewManager(session.ManagerOptions{Logger: testLogger(t)})
	a, b := newPipe()
	srv := New(Options{Manager: mgr, Logger: testLogger(t)})
	srv.r.calls["test/panic"] = func(context.Context, json.RawMessage) (any, error) { panic("boom") }
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	conn.Go(context.Background(), jsonrpc2.MethodNotFoundHandler)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := conn.Call(ctx, "test/panic", nil, nil); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("panic → %v", err)
	}
	if _, err := conn.Call(ctx, "no/such", nil, nil); err == nil || !strings.Contains(err.Error(), "method not found") {
		t.Fatalf("unknown method → %v", err)
	}
	if _, err := conn.Call(ctx, "dapscope/inspect", map[string]any{"expression": 5}, nil); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Fatalf("bad params → %v", err)
	}
	var s SessionsResult
	if _, err := conn.Call(ctx, "dapscope/sessions", nil, &s); err != nil || len(s.Sessions) != 0 {
		t.Fatalf("sessions after panic: %+v %v", s, err)
	}
	// The stream ending (editor gone) also ends Serve cleanly.
	_ = conn.Close()
	<-conn.Done()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve after EOF: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return when the stream closed")
	}
}

// An inspection right after a stop waits for the editor's own stackTrace
// to tell the top frame (kind frame) instead of asking; it does not wait
// while the program runs, nor for an extension that never reports frames.
func TestKnownTopFrameWaitsForTheEditorsStackTrace(t *testing.T) {
	defer func(w time.Duration) { topFrameWait = w }(topFrameWait)
	topFrameWait = time.Minute // the frame event decides, not the clock
	b := &bridged{values: &sync.Map{}}
	if _, ok := b.KnownTopFrame(context.Background(), 1); ok {
		t.Fatal("a frame before any stop")
	}
	b.apply(BridgeEvent{Kind: "frame", ThreadID: 1, FrameID: 3}) // not stopped: only says frames are reported
	b.apply(BridgeEvent{Kind: "stopped", ThreadID: 1})
	got := make(chan int, 1)
	go func() {
		id, ok := b.KnownTopFrame(context.Background(), 1)
		if !ok {
			id = -1
		}
		got <- id
	}()
	b.apply(BridgeEvent{Kind: "frame", ThreadID: 1, FrameID: 7})
	if id := <-got; id != 7 {
		t.Fatalf("waited for the frame, got %d", id)
	}
	// A stop, then the program runs on: the waiting inspection is let go.
	b.apply(BridgeEvent{Kind: "stopped", ThreadID: 1})
	go func() {
		_, ok := b.KnownTopFrame(context.Background(), 1)
		got <- map[bool]int{true: 1, false: 0}[ok]
	}()
	b.apply(BridgeEvent{Kind: "continued", ThreadID: 1})
	if v := <-got; v != 0 {
		t.Fatal("a frame for a running thread")
	}
	// An extension that never reports frames: no wait at all.
	quiet := &bridged{values: &sync.Map{}}
	quiet.apply(BridgeEvent{Kind: "stopped", ThreadID: 1})
	if _, ok := quiet.KnownTopFrame(context.Background(), 1); ok {
		t.Fatal("a frame nobody reported")
	}
}
