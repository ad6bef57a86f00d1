// mux_test.go: routing, seq mapping, interception and failure handling of
// the multiplexer against an in-memory scripted adapter.

package mux

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// Editor and internal requests interleave; each response reaches the
// client that asked, the editor sees its own seq and no internal traffic,
// and events reach everyone.
func TestRoutingEditorAndInternal(t *testing.T) {
	m, fake, stop := startFake(t, nil)
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	sub := m.Subscribe(16)
	defer sub.Close()

	ctx := t.Context()
	var wg sync.WaitGroup
	internalErrs := make(chan error, 50)
	for i := 0; i < 50; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var body struct {
				Echo struct{ N int } `json:"echo"`
			}
			if err := m.Call(ctx, "threads", map[string]int{"N": i}, &body); err != nil {
				internalErrs <- err
				return
			}
			if body.Echo.N != i {
				internalErrs <- fmt.Errorf("internal %d got response for %d", i, body.Echo.N)
			}
		}()
	}
	// → editor requests seq 1..20 interleaved with the internal ones
	// (net.Pipe has no buffer: send from another goroutine while reading.)
	go func() {
		for i := 1; i <= 20; i++ {
			ed.send(t, map[string]any{"seq": i, "type": "request", "command": "threads", "arguments": map[string]int{"N": 1000 + i}})
		}
	}()
	got := map[float64]bool{}
	for len(got) < 20 {
		msg := ed.recv(t)
		if msg["type"] != "response" {
			t.Fatalf("editor got unexpected %v", msg)
		}
		rs := msg["request_seq"].(float64)
		if rs < 1 || rs > 20 || got[rs] {
			t.Fatalf("editor got a response it did not cause: %v", msg)
		}
		echo := msg["body"].(map[string]any)["echo"].(map[string]any)["N"].(float64)
		if echo != 1000+rs {
			t.Fatalf("editor response %v carries %v", rs, echo)
		}
		got[rs] = true
	}
	wg.Wait()
	close(internalErrs)
	for err := range internalErrs {
		t.Error(err)
	}
	// ← event: to the editor unchanged and to internal subscribers
	fake.event("debugpyAttach", map[string]any{"custom": true})
	if msg := ed.recv(t); msg["event"] != "debugpyAttach" || msg["body"].(map[string]any)["custom"] != true {
		t.Fatalf("editor event = %v", msg)
	}
	select {
	case ev := <-sub.C:
		if ev.Event != "debugpyAttach" {
			t.Fatalf("subscriber event = %+v", ev)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("subscriber got no event")
	}
}

// Internal requests use the disjoint seq range; editor bytes pass untouched.
func TestSeqMapping(t *testing.T) {
	seen := make(chan map[string]any, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		seen <- req
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	if err := m.Call(t.Context(), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
	if req := <-seen; int(req["seq"].(float64)) <= InternalSeqBase {
		t.Fatalf("internal request went upstream with seq %v", req["seq"])
	}
	ed.send(t, map[string]any{"seq": 7, "type": "request", "command": "threads", "arguments": map[string]any{"weird": []int{1, 2}}})
	req := <-seen
	if req["seq"].(float64) != 7 || req["arguments"].(map[string]any)["weird"] == nil {
		t.Fatalf("editor request changed on the way: %v", req)
	}
	if resp := ed.recv(t); resp["request_seq"].(float64) != 7 {
		t.Fatalf("editor response = %v", resp)
	}
}

func TestCancelNeverForwardedWithoutSupport(t *testing.T) {
	forwarded := make(chan string, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		forwarded <- req["command"].(string)
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	ed.send(t, map[string]any{"seq": 1, "type": "request", "command": "cancel", "arguments": map[string]any{"requestId": 1}})
	resp := ed.recv(t)
	if resp["success"] != false || resp["command"] != "cancel" || resp["request_seq"].(float64) != 1 {
		t.Fatalf("cancel response = %v", resp)
	}
	if _, err := m.Do(t.Context(), "cancel", nil); err == nil {
		t.Fatal("internal cancel was allowed")
	}
	select {
	case c := <-forwarded:
		t.Fatalf("%s was forwarded to an adapter without supportsCancelRequest", c)
	default:
	}
}

func TestCustomRequestsAnsweredBySidecar(t *testing.T) {
	forwarded := make(chan string, 4)
	up, down := pipePair()
	m := New(up, Options{Handler: func(ctx context.Context, cmd string, args json.RawMessage) (any, error) {
		switch cmd {
		case "dapscope/echo":
			return map[string]json.RawMessage{"args": args}, nil
		case "dapscope/panic":
			panic("boom")
		}
		return nil, errors.New("unknown command " + cmd)
	}})
	fake := &fakeAdapter{peer: newPeer(down)}
	go func() { _ = m.Run() }()
	go func() {
		for {
			b, err := fake.r.ReadFrame()
			if err != nil {
				return
			}
			var req map[string]any
			_ = json.Unmarshal(b, &req)
			forwarded <- fmt.Sprint(req["command"])
		}
	}()
	ed, closeEd := attachEditor(t, m)
	ed.send(t, map[string]any{"seq": 1, "type": "request", "command": "dapscope/echo", "arguments": map[string]int{"x": 1}})
	if resp := ed.recv(t); resp["success"] != true || resp["body"].(map[string]any)["args"].(map[string]any)["x"].(float64) != 1 {
		t.Fatalf("custom response = %v", resp)
	}
	ed.send(t, map[string]any{"seq": 2, "type": "request", "command": "dapscope/panic"})
	if resp := ed.recv(t); resp["success"] != false || resp["request_seq"].(float64) != 2 {
		t.Fatalf("panic response = %v", resp)
	}
	ed.send(t, map[string]any{"seq": 3, "type": "request", "command": "dapscope/nope"})
	if resp := ed.recv(t); resp["success"] != false || resp["message"] != "unknown command dapscope/nope" {
		t.Fatalf("unknown custom response = %v", resp)
	}
	select {
	case c := <-forwarded:
		t.Fatalf("%s reached the adapter", c)
	default:
	}
	closeEd()
	_ = down.Close()
	<-m.Done()
}

// A malformed body from the editor is dropped; the session goes on.
func TestMalformedEditorMessageDropped(t *testing.T) {
	m, _, stop := startFake(t, nil)
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	_ = ed.w.WriteFrame([]byte(`{not json`))
	_ = ed.w.WriteFrame([]byte(`{"type":"request"}`))
	ed.send(t, map[string]any{"seq": 5, "type": "request", "command": "threads"})
	if resp := ed.recv(t); resp["request_seq"].(float64) != 5 || resp["success"] != true {
		t.Fatalf("after malformed messages: %v", resp)
	}
}

// The adapter dies with requests pending: internal callers and the editor
// get errors, the editor gets terminated, later requests fail fast.
func TestAdapterDeathFailsPending(t *testing.T) {
	block := make(chan struct{})
	m, fake, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		if req["command"] == "evaluate" {
			<-block // never answer: the adapter "hangs", then dies
			return true
		}
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	m.mu.Lock()
	m.state.Status = StatusStopped // evaluate needs a paused debuggee
	m.mu.Unlock()
	errc := make(chan error, 1)
	go func() { _, err := m.Do(context.Background(), "evaluate", nil); errc <- err }()
	ed.send(t, map[string]any{"seq": 1, "type": "request", "command": "evaluate"})
	time.Sleep(50 * time.Millisecond) // let both requests reach the fake
	close(block)
	_ = fake.conn.Close()
	select {
	case err := <-errc:
		if !errors.Is(err, ErrAdapterExited) {
			t.Fatalf("internal error = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("internal request still pending after adapter death")
	}
	sawError, sawTerminated := false, false
	for !(sawError && sawTerminated) {
		msg := ed.recv(t)
		switch {
		case msg["type"] == "response" && msg["request_seq"].(float64) == 1 && msg["success"] == false:
			sawError = true
		case msg["event"] == "terminated":
			sawTerminated = true
		default:
			t.Fatalf("unexpected %v", msg)
		}
	}
	if _, err := m.Do(context.Background(), "threads", nil); !errors.Is(err, ErrAdapterExited) {
		t.Fatalf("request after death = %v", err)
	}
	ed.send(t, map[string]any{"seq": 2, "type": "request", "command": "disconnect"})
	if resp := ed.recv(t); resp["success"] != true || resp["command"] != "disconnect" {
		t.Fatalf("disconnect after death = %v", resp)
	}
}

func TestNotPausedFailsFast(t *testing.T) {
	m, _, stop := startFake(t, nil)
	defer stop()
	_, err := m.Do(t.Context(), "stackTrace", map[string]int{"threadId": 1})
	var np *NotPausedError
	if !errors.As(err, &np) || np.Status != StatusStarting {
		t.Fatalf("err = %v", err)
	}
}

// Reverse requests go to the editor and its answer goes back upstream.
func TestReverseRequestToEditor(t *testing.T) {
	answers := make(chan map[string]any, 1)
	m, fake, stop := startFake(t, nil)
	defer stop()
	// Replace the fake's loop handling: responses from the editor arrive as
	// non-requests, which the default fake ignores — so read them here.
	fake.script = nil
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	b, _ := json.Marshal(map[string]any{"seq": 99, "type": "request", "command": "startDebugging", "arguments": map[string]any{"request": "attach"}})
	_ = fake.w.WriteFrame(b)
	req := ed.recv(t)
	if req["command"] != "startDebugging" || req["seq"].(float64) != 99 {
		t.Fatalf("editor got %v", req)
	}
	_ = answers
	ed.send(t, map[string]any{"seq": 3, "type": "response", "request_seq": 99, "command": "startDebugging", "success": true})
	// The fake's read loop ignores responses; check via a follow-up request
	// that the stream stayed in order.
	ed.send(t, map[string]any{"seq": 4, "type": "request", "command": "threads"})
	if resp := ed.recv(t); resp["request_seq"].(float64) != 4 {
		t.Fatalf("after reverse answer: %v", resp)
	}
}

func TestStateTracking(t *testing.T) {
	m, fake, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		switch req["command"] {
		case "initialize":
			a.respond(req, true, map[string]any{"supportsCancelRequest": true, "supportsConfigurationDoneRequest": true})
			return true
		case "setBreakpoints":
			a.respond(req, true, map[string]any{"breakpoints": []map[string]any{{"id": 1, "verified": true, "line": 14}}})
			return true
		}
		return false
	})
	defer stop()
	ctx := t.Context()
	wait := func(cond func(State) bool) State {
		t.Helper()
		for {
			ch := m.Changed()
			if st := m.State(); cond(st) {
				return st
			}
			select {
			case <-ch:
			case <-time.After(10 * time.Second):
				t.Fatalf("state never matched: %+v", m.State())
			}
		}
	}
	if err := m.Call(ctx, "initialize", nil, nil); err != nil {
		t.Fatal(err)
	}
	if st := m.State(); !st.SupportsCancel || len(st.Capabilities) == 0 {
		t.Fatalf("capabilities not tracked: %+v", st)
	}
	if err := m.Call(ctx, "setBreakpoints", map[string]any{"source": map[string]any{"path": "/x.py"}}, nil); err != nil {
		t.Fatal(err)
	}
	fake.event("initialized", nil)
	wait(func(s State) bool { return s.Initialized })
	if err := m.Call(ctx, "configurationDone", nil, nil); err != nil {
		t.Fatal(err)
	}
	if st := m.State(); st.Status != StatusRunning {
		t.Fatalf("after configurationDone: %s, want running", st.Status)
	}
	fake.event("thread", map[string]any{"reason": "started", "threadId": 1})
	fake.event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1, "allThreadsStopped": true, "hitBreakpointIds": []int{1}})
	st := wait(func(s State) bool { return s.Paused() })
	if st.StoppedThread != 1 || st.StopReason != "breakpoint" || st.StopCount != 1 || len(st.HitBreakpointIDs) != 1 || len(st.Threads) != 1 {
		t.Fatalf("stopped state = %+v", st)
	}
	if err := m.Call(ctx, "continue", map[string]int{"threadId": 1}, nil); err != nil {
		t.Fatal(err)
	}
	if st := m.State(); st.Status != StatusRunning || st.StoppedThread != 0 {
		t.Fatalf("after continue: %+v", st)
	}
	fake.event("exited", map[string]any{"exitCode": 3})
	fake.event("terminated", nil)
	st = wait(func(s State) bool { return s.Status == StatusExited && s.ExitCode != nil })
	if *st.ExitCode != 3 {
		t.Fatalf("exit code = %d", *st.ExitCode)
	}
}

// A context that ends while waiting abandons the request without a cancel;
// the late response is dropped and later requests still work.
func TestContextAbandonsWithoutCancel(t *testing.T) {
	release := make(chan struct{})
	var cmds []string
	var mu sync.Mutex
	m, _, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		mu.Lock()
		cmds = append(cmds, req["command"].(string))
		mu.Unlock()
		if req["command"] == "slow" {
			go func() { <-release; a.respond(req, true, nil) }()
			return true
		}
		return false
	})
	defer stop()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := m.Do(ctx, "slow", nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	close(release)
	if err := m.Call(t.Context(), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, c := range cmds {
		if c == "cancel" {
			t.Fatal("a cancel request was sent")
		}
	}
}

// The CheckLaunch hook sees launch/attach arguments first; an error answers
// the editor and the request never reaches the adapter. Wire sequence:
//
//	→ launch {bad}   ← error (adapter sees nothing)
//	→ launch {good}  → adapter → response
func TestCheckLaunchRefusesBeforeForwarding(t *testing.T) {
	forwarded := make(chan map[string]any, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req map[string]any) bool {
		forwarded <- req
		return false
	})
	defer stop()
	var seen []string
	m.opts.CheckLaunch = func(command string, args json.RawMessage) error {
		seen = append(seen, command+" "+string(args))
		if strings.Contains(string(args), "bad") {
			return errors.New("launch for another adapter")
		}
		return nil
	}
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	ed.send(t, map[string]any{"seq": 1, "type": "request", "command": "launch", "arguments": map[string]any{"adapter": "bad"}})
	resp := ed.recv(t)
	if resp["success"] != false || resp["request_seq"].(float64) != 1 || resp["message"] != "launch for another adapter" {
		t.Fatalf("refused launch: %v", resp)
	}
	select {
	case req := <-forwarded:
		t.Fatalf("refused launch reached the adapter: %v", req)
	default:
	}
	ed.send(t, map[string]any{"seq": 2, "type": "request", "command": "attach", "arguments": map[string]any{"adapter": "good"}})
	if resp := ed.recv(t); resp["success"] != true || resp["request_seq"].(float64) != 2 {
		t.Fatalf("accepted attach: %v", resp)
	}
	if req := <-forwarded; req["command"] != "attach" {
		t.Fatalf("forwarded %v", req)
	}
	if len(seen) != 2 || seen[0] != `launch {"adapter":"bad"}` || seen[1] != `attach {"adapter":"good"}` {
		t.Fatalf("CheckLaunch saw %q", seen)
	}
}
