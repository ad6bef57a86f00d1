// mux_test.go: routing, seq mapping, interception and failure handling of
// the multiplexer against an in-memory scripted adapter; the editor is a
// daptest client.

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

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// failed reports whether m is a response with "success": false (present).
func failed(m daptest.Msg) bool { return m.Env.Success != nil && !*m.Env.Success }

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
	// ← 20 responses, each to the editor's own seq
	// (net.Pipe has no buffer: send from another goroutine while reading.)
	go func() {
		for i := 1; i <= 20; i++ {
			ed.Send("threads", map[string]int{"N": 1000 + i})
		}
	}()
	got := map[int]bool{}
	for len(got) < 20 {
		msg := ed.Recv()
		if msg.Env.Type != "response" {
			t.Fatalf("editor got unexpected %s", msg)
		}
		rs := msg.Env.RequestSeq
		if rs < 1 || rs > 20 || got[rs] {
			t.Fatalf("editor got a response it did not cause: %s", msg)
		}
		var body struct {
			Echo struct{ N int } `json:"echo"`
		}
		if err := msg.Unmarshal(&body); err != nil || body.Echo.N != 1000+rs {
			t.Fatalf("editor response %v carries %s (%v)", rs, msg.Body, err)
		}
		got[rs] = true
	}
	if f := ed.Foreign(); len(f) > 0 {
		t.Fatalf("editor got foreign responses: %v", f)
	}
	wg.Wait()
	close(internalErrs)
	for err := range internalErrs {
		t.Error(err)
	}
	// ← event: to the editor unchanged and to internal subscribers
	fake.event("debugpyAttach", map[string]any{"custom": true})
	var custom struct {
		Custom bool `json:"custom"`
	}
	if msg := ed.Recv(); !msg.IsEvent("debugpyAttach") || msg.Unmarshal(&custom) != nil || !custom.Custom {
		t.Fatalf("editor event = %s", msg)
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
	seen := make(chan daptest.Msg, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		seen <- req
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	if err := m.Call(t.Context(), "threads", nil, nil); err != nil {
		t.Fatal(err)
	}
	if req := <-seen; req.Env.Seq <= InternalSeqBase {
		t.Fatalf("internal request went upstream with seq %v", req.Env.Seq)
	}
	// → threads (seq 7, odd arguments): upstream as sent  ← response to 7
	ed.SetNextSeq(7)
	ed.Send("threads", map[string]any{"weird": []int{1, 2}})
	req := <-seen
	if req.Env.Seq != 7 || string(req.Arguments) != `{"weird":[1,2]}` {
		t.Fatalf("editor request changed on the way: %s", req)
	}
	if resp := ed.Recv(); !resp.IsResponse(7) {
		t.Fatalf("editor response = %s", resp)
	}
}

func TestCancelNeverForwardedWithoutSupport(t *testing.T) {
	forwarded := make(chan string, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		forwarded <- req.Env.Command
		return false
	})
	defer stop()
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	// → cancel  ← error response from the sidecar (the adapter sees nothing)
	ed.Send("cancel", godap.CancelArguments{RequestId: 1})
	resp := ed.Recv()
	if !failed(resp) || resp.Env.Command != "cancel" || resp.Env.RequestSeq != 1 {
		t.Fatalf("cancel response = %s", resp)
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
			env, _ := dap.Peek(b)
			forwarded <- env.Command
		}
	}()
	ed, closeEd := attachEditor(t, m)
	// → dapscope/echo   ← response (body from the handler)
	// → dapscope/panic  ← error response
	// → dapscope/nope   ← error response naming the command
	ed.Send("dapscope/echo", map[string]int{"x": 1})
	var echo struct {
		Args struct{ X int } `json:"args"`
	}
	if resp := ed.Recv(); !resp.Success() || resp.Unmarshal(&echo) != nil || echo.Args.X != 1 {
		t.Fatalf("custom response = %s", resp)
	}
	ed.Send("dapscope/panic", nil)
	if resp := ed.Recv(); !failed(resp) || resp.Env.RequestSeq != 2 {
		t.Fatalf("panic response = %s", resp)
	}
	ed.Send("dapscope/nope", nil)
	if resp := ed.Recv(); !failed(resp) || resp.Env.Message != "unknown command dapscope/nope" {
		t.Fatalf("unknown custom response = %s", resp)
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
	// → {not json, → a request without command, → threads (seq 5) ← response
	ed.WriteFrame([]byte(`{not json`))
	ed.WriteFrame([]byte(`{"type":"request"}`))
	ed.SetNextSeq(5)
	ed.Send("threads", nil)
	if resp := ed.Recv(); !resp.IsResponse(5) || !resp.Success() {
		t.Fatalf("after malformed messages: %s", resp)
	}
}

// The adapter dies with requests pending: internal callers and the editor
// get errors, the editor gets terminated, later requests fail fast.
func TestAdapterDeathFailsPending(t *testing.T) {
	block := make(chan struct{})
	m, fake, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		if req.Env.Command == "evaluate" {
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
	// → evaluate (never answered)  … adapter dies  ← error, ← terminated
	ed.Send("evaluate", nil)
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
		msg := ed.Recv()
		switch {
		case msg.IsResponse(1) && failed(msg):
			sawError = true
		case msg.IsEvent("terminated"):
			sawTerminated = true
		default:
			t.Fatalf("unexpected %s", msg)
		}
	}
	if _, err := m.Do(context.Background(), "threads", nil); !errors.Is(err, ErrAdapterExited) {
		t.Fatalf("request after death = %v", err)
	}
	// → disconnect  ← response from the sidecar
	ed.Send("disconnect", nil)
	if resp := ed.Recv(); !resp.Success() || resp.Env.Command != "disconnect" {
		t.Fatalf("disconnect after death = %s", resp)
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
	m, fake, stop := startFake(t, nil)
	defer stop()
	// Replace the fake's loop handling: responses from the editor arrive as
	// non-requests, which the default fake ignores — so read them here.
	fake.script = nil
	ed, closeEd := attachEditor(t, m)
	defer closeEd()
	b, _ := json.Marshal(map[string]any{"seq": 99, "type": "request", "command": "startDebugging", "arguments": map[string]any{"request": "attach"}})
	_ = fake.w.WriteFrame(b)
	// ← startDebugging (seq 99)  → response (request_seq 99)
	req := ed.Recv()
	if !req.IsRequest("startDebugging") || req.Env.Seq != 99 {
		t.Fatalf("editor got %s", req)
	}
	ed.SetNextSeq(3)
	ed.Reply(req, true, nil)
	// The fake's read loop ignores responses; check via a follow-up request
	// that the stream stayed in order.
	// → threads (seq 4)  ← response
	ed.Send("threads", nil)
	if resp := ed.Recv(); !resp.IsResponse(4) {
		t.Fatalf("after reverse answer: %s", resp)
	}
}

func TestStateTracking(t *testing.T) {
	m, fake, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		switch req.Env.Command {
		case "initialize":
			a.respond(req, true, godap.Capabilities{SupportsCancelRequest: true, SupportsConfigurationDoneRequest: true})
			return true
		case "setBreakpoints":
			a.respond(req, true, godap.SetBreakpointsResponseBody{Breakpoints: []godap.Breakpoint{{Id: 1, Verified: true, Line: 14}}})
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
	fake.event("thread", godap.ThreadEventBody{Reason: "started", ThreadId: 1})
	fake.event("stopped", godap.StoppedEventBody{Reason: "breakpoint", ThreadId: 1, AllThreadsStopped: true, HitBreakpointIds: []int{1}})
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
	fake.event("exited", godap.ExitedEventBody{ExitCode: 3})
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
	m, _, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		mu.Lock()
		cmds = append(cmds, req.Env.Command)
		mu.Unlock()
		if req.Env.Command == "slow" {
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
	forwarded := make(chan daptest.Msg, 4)
	m, _, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
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
	ed.Send("launch", map[string]any{"adapter": "bad"})
	resp := ed.Recv()
	if !failed(resp) || resp.Env.RequestSeq != 1 || resp.Env.Message != "launch for another adapter" {
		t.Fatalf("refused launch: %s", resp)
	}
	select {
	case req := <-forwarded:
		t.Fatalf("refused launch reached the adapter: %s", req)
	default:
	}
	ed.Send("attach", map[string]any{"adapter": "good"})
	if resp := ed.Recv(); !resp.Success() || resp.Env.RequestSeq != 2 {
		t.Fatalf("accepted attach: %s", resp)
	}
	if req := <-forwarded; !req.IsRequest("attach") {
		t.Fatalf("forwarded %s", req)
	}
	if len(seen) != 2 || seen[0] != `launch {"adapter":"bad"}` || seen[1] != `attach {"adapter":"good"}` {
		t.Fatalf("CheckLaunch saw %q", seen)
	}
}

// An adapter may send the stop a step ends at before the step's own answer
// (pydevd queues the stopped thread's event and the answer from two
// threads); the late answer must not mark the program running again.
func TestStopBeforeStepAnswer(t *testing.T) {
	m, fake, stop := startFake(t, func(a *fakeAdapter, req daptest.Msg) bool {
		if req.Env.Command == "next" {
			// ← stopped (step), then ← the next response
			a.event("stopped", godap.StoppedEventBody{Reason: "step", ThreadId: 1, AllThreadsStopped: true})
			a.respond(req, true, nil)
			return true
		}
		return false
	})
	defer stop()
	ctx := t.Context()
	fake.event("stopped", godap.StoppedEventBody{Reason: "breakpoint", ThreadId: 1, AllThreadsStopped: true})
	for deadline := time.Now().Add(10 * time.Second); !m.State().Paused(); {
		if time.Now().After(deadline) {
			t.Fatal("never paused")
		}
		time.Sleep(time.Millisecond)
	}
	for i := 0; i < 3; i++ {
		// → next  ← stopped  ← response
		if err := m.Call(ctx, "next", map[string]int{"threadId": 1}, nil); err != nil {
			t.Fatal(err)
		}
		if st := m.State(); !st.Paused() || st.StopReason != "step" || st.StopCount != 2+i {
			t.Fatalf("after step %d: %+v, want paused at stop %d", i, st, 2+i)
		}
	}
	// In the usual order (response, then stop) the program runs in between.
	if err := m.Call(ctx, "continue", map[string]int{"threadId": 1}, nil); err != nil {
		t.Fatal(err)
	}
	if st := m.State(); st.Status != StatusRunning {
		t.Fatalf("after continue: %s, want running", st.Status)
	}
}
