// client_test.go: the test client against an in-memory scripted adapter
// (net.Pipe): typed requests and their wire form, typed responses and
// events, custom messages kept raw, foreign and duplicate responses
// flagged, reverse requests answered, the launch-to-a-line sequence.

package daptest

import (
	"encoding/json"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/dap"
)

// peer is the adapter's end of the pipe.
type peer struct {
	t   *testing.T
	r   *dap.Reader
	w   *dap.Writer
	seq int
}

func newPair(t *testing.T) (*Client, *peer) {
	a, b := net.Pipe()
	t.Cleanup(func() { _ = b.Close() })
	return New(t, a), &peer{t: t, r: dap.NewReader(b), w: dap.NewWriter(b)}
}

// read returns the next message the client sent.
func (p *peer) read() Msg {
	p.t.Helper()
	b, err := p.r.ReadFrame()
	if err != nil {
		p.t.Fatalf("peer read: %v", err)
	}
	m, err := Decode(b)
	if err != nil {
		p.t.Fatalf("peer decode %s: %v", b, err)
	}
	return m
}

func (p *peer) write(v map[string]any) {
	p.t.Helper()
	p.seq++
	v["seq"] = p.seq
	b, _ := json.Marshal(v)
	if err := p.w.WriteFrame(b); err != nil {
		p.t.Fatalf("peer write: %v", err)
	}
}

func (p *peer) respond(req Msg, success bool, body any) {
	p.write(map[string]any{"type": "response", "request_seq": req.Env.Seq, "command": req.Env.Command, "success": success, "body": body})
}

func (p *peer) event(name string, body any) {
	p.write(map[string]any{"type": "event", "event": name, "body": body})
}

// async runs the peer's side while the client blocks on its own.
func async(f func()) chan struct{} {
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	return done
}

func TestTypedRequestsOnTheWire(t *testing.T) {
	c, p := newPair(t)
	var wires []string
	done := async(func() {
		for range 6 {
			req := p.read()
			wires = append(wires, string(req.Raw))
			switch req.Decoded.(type) {
			case *godap.InitializeRequest:
				p.respond(req, true, map[string]any{"supportsConfigurationDoneRequest": true})
			case *godap.SetBreakpointsRequest:
				p.respond(req, true, map[string]any{"breakpoints": []any{}})
			case *godap.StackTraceRequest:
				p.respond(req, true, map[string]any{"stackFrames": []any{map[string]any{"id": 7, "name": "f", "line": 3, "column": 1}}, "totalFrames": 1})
			default:
				p.respond(req, true, nil)
			}
		}
	})
	caps := c.Initialize(InitArgs("test", "python"))
	if !caps.SupportsConfigurationDoneRequest {
		t.Fatalf("capabilities = %+v", caps)
	}
	c.SetBreakpoints("/x.py")
	c.SetExceptionBreakpoints()
	c.Disconnect(false)
	if f := c.StackTrace(1, 0); len(f) != 1 || f[0].Id != 7 || f[0].Line != 3 {
		t.Fatalf("frames = %+v", f)
	}
	c.Disconnect(true)
	<-done
	for i, want := range []string{
		`"arguments":{"clientID":"test","adapterID":"python","linesStartAt1":true,"columnsStartAt1":true,"pathFormat":"path"}`,
		`"breakpoints":[]`,
		`"arguments":{"filters":[]}`,
		`"command":"disconnect"}`, // no arguments
		`"arguments":{"threadId":1}}`,
		`"arguments":{"terminateDebuggee":true}`,
	} {
		if !strings.Contains(wires[i], want) {
			t.Errorf("request %d = %s, want it to contain %s", i, wires[i], want)
		}
	}
	if f := c.Foreign(); len(f) != 0 {
		t.Fatalf("foreign = %v", f)
	}
	if u := c.Unanswered(); len(u) != 0 {
		t.Fatalf("unanswered = %v", u)
	}
}

// Custom events and responses go-dap does not know arrive raw and never
// fail a wait for something else; the mailbox keeps them in order.
func TestUnknownMessagesStayRaw(t *testing.T) {
	c, p := newPair(t)
	done := async(func() {
		req := p.read()
		p.event("debugpySockets", map[string]any{"sockets": []any{}})
		p.event("output", map[string]any{"category": "stdout", "output": "hi\n"})
		p.event("stopped", map[string]any{"reason": "breakpoint", "threadId": 4})
		p.respond(req, true, map[string]any{"detected_type": "dataframe"})
	})
	seq := c.Send("dapscope/inspect", map[string]any{"expression": "df"})
	<-done
	st := c.Stopped()
	if st.Body.Reason != "breakpoint" || st.Body.ThreadId != 4 {
		t.Fatalf("stopped = %+v", st.Body)
	}
	r := c.OK(seq)
	if r.Decoded != nil || r.DecodeErr == nil {
		t.Fatalf("go-dap decoded a dapscope/ response: %T", r.Decoded)
	}
	var body struct {
		DetectedType string `json:"detected_type"`
	}
	if err := r.Unmarshal(&body); err != nil || body.DetectedType != "dataframe" {
		t.Fatalf("body = %+v, %v", body, err)
	}
	ev := c.Event("debugpySockets")
	if ev.Decoded != nil || string(ev.Body) != `{"sockets":[]}` {
		t.Fatalf("debugpySockets = %+v", ev)
	}
	out := ExpectEvent[*godap.OutputEvent](c)
	if out.Body.Output != "hi\n" {
		t.Fatalf("output = %+v", out.Body)
	}
	tr := c.Transcript()
	if len(tr) != 4 || !tr[0].IsEvent("debugpySockets") || !tr[3].IsResponse(seq) {
		t.Fatalf("transcript = %v", tr)
	}
	if n := c.Count(func(m Msg) bool { return m.Env.Type == "event" }); n != 3 {
		t.Fatalf("events counted = %d", n)
	}
}

// Responses the client did not cause are recorded, not delivered as its own.
func TestForeignResponsesFlagged(t *testing.T) {
	c, p := newPair(t)
	done := async(func() {
		req := p.read()
		p.read()
		p.respond(req, true, map[string]any{"threads": []any{}})
		p.respond(req, true, map[string]any{"threads": []any{}}) // again
		p.write(map[string]any{"type": "response", "request_seq": 99, "command": "threads", "success": true})
		p.write(map[string]any{"type": "response", "request_seq": 2, "command": "scopes", "success": true})
		_ = p.w.WriteFrame([]byte(`{not json`))
		p.event("terminated", nil)
	})
	seq := c.Send("threads", nil)
	c.Send("evaluate", godap.EvaluateArguments{Expression: "1"})
	<-done
	c.OK(seq)
	c.Event("terminated")
	f := c.Foreign()
	want := []string{"second response to 1 (threads)", "unknown request_seq 99", "response to 2 (evaluate) is for scopes", "undecodable: {not json"}
	if len(f) != len(want) {
		t.Fatalf("foreign = %q", f)
	}
	for i, w := range want {
		if !strings.Contains(f[i], w) {
			t.Errorf("foreign[%d] = %q, want %q", i, f[i], w)
		}
	}
	if u := c.Unanswered(); len(u) != 0 {
		t.Fatalf("unanswered = %v (a response for another command still answers)", u)
	}
}

// A reverse request reaches the client as a request; Reply answers it.
func TestReverseRequestReply(t *testing.T) {
	c, p := newPair(t)
	c.SetNextSeq(40)
	p.write(map[string]any{"type": "request", "command": "startDebugging", "arguments": map[string]any{"request": "attach", "configuration": map[string]any{"x": 1}}})
	req := c.Expect("startDebugging", func(m Msg) bool { return m.IsRequest("startDebugging") })
	sd, ok := req.Decoded.(*godap.StartDebuggingRequest)
	if !ok || sd.Arguments.Request != "attach" {
		t.Fatalf("reverse request = %T %s", req.Decoded, req.Raw)
	}
	var answer Msg
	done := async(func() { answer = p.read() })
	c.Reply(req, true, nil)
	<-done
	r, ok := answer.Decoded.(*godap.StartDebuggingResponse)
	if !ok || r.RequestSeq != req.Env.Seq || !r.Success || r.Seq != 40 {
		t.Fatalf("reply = %s", answer.Raw)
	}
}

// LaunchToFrame: the editor's standard sequence against a scripted adapter
// that answers launch only after configurationDone.
func TestLaunchToFrame(t *testing.T) {
	c, p := newPair(t)
	var bpWire string
	done := async(func() {
		launch := p.read()
		p.event("initialized", nil)
		bp := p.read()
		bpWire = string(bp.Raw)
		p.respond(bp, true, map[string]any{"breakpoints": []any{map[string]any{"verified": true, "line": 14}}})
		cd := p.read()
		p.respond(cd, true, nil)
		p.respond(launch, true, nil)
		p.event("thread", map[string]any{"reason": "started", "threadId": 1})
		p.event("stopped", map[string]any{"reason": "breakpoint", "threadId": 1})
		st := p.read()
		if !strings.Contains(string(st.Raw), `"levels":1`) {
			t.Errorf("stackTrace = %s", st.Raw)
		}
		p.respond(st, true, map[string]any{"stackFrames": []any{map[string]any{"id": 5, "name": "<module>", "line": 14, "column": 1}}})
	})
	stopped, frame := c.LaunchToFrame(PythonLaunch("/p.py"), "/p.py", 14)
	<-done
	if stopped.Body.ThreadId != 1 || frame.Id != 5 || frame.Line != 14 {
		t.Fatalf("stopped %+v frame %+v", stopped.Body, frame)
	}
	if !strings.Contains(bpWire, `"source":{"path":"/p.py"}`) || !strings.Contains(bpWire, `"breakpoints":[{"line":14}]`) {
		t.Fatalf("setBreakpoints = %s", bpWire)
	}
}

// fatalTB records a Fatalf and ends the goroutine, as testing does.
type fatalTB struct {
	testing.TB
	msg chan string
}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg <- format
	runtime.Goexit()
}

// Error responses fail the typed waits, naming the request; a closed
// connection fails a wait at once instead of at the timeout.
func TestFailuresAreReported(t *testing.T) {
	a, b := net.Pipe()
	ftb := &fatalTB{TB: t, msg: make(chan string, 1)}
	c := New(ftb, a)
	p := &peer{t: t, r: dap.NewReader(b), w: dap.NewWriter(b)}
	go func() {
		req := p.read()
		p.write(map[string]any{"type": "response", "request_seq": req.Env.Seq, "command": "evaluate", "success": false, "message": "boom"})
	}()
	go func() { c.Evaluate("1/0", 1, "repl") }()
	if m := <-ftb.msg; !strings.Contains(m, "failed") {
		t.Fatalf("fatal = %q", m)
	}
	_ = b.Close()
	c.Timeout = time.Hour
	start := time.Now()
	go func() { c.Event("never") }()
	if m := <-ftb.msg; !strings.Contains(m, "connection closed") || time.Since(start) > 10*time.Second {
		t.Fatalf("fatal = %q", m)
	}
}
