//go:build linux

// bench_node_test.go: Node benchmarks on real node, each compared side by
// side in the same run:
//   - an evaluate round trip in a paused frame: direct CDP (one
//     Debugger.evaluateOnCallFrame on a raw websocket to node's inspector,
//     as `node inspect` does), the same with the adapter's TCP_QUICKACK fix
//     by hand (quickack.go of the adapter: the fair baseline), the same
//     through a plain Go TCP relay (the floor of any proxy: one more
//     loopback hop and two goroutines, nothing decoded), dapscope's
//     Node adapter alone (DAP over a pipe), through the sidecar's proxy (an
//     editor on the mux), and through the headless session API (MCP);
//   - stepping (next + stackTrace + scopes + variables) on the adapter
//     alone and through the proxy.
//
// go test -run '^$' -bench 'Node' -count 5 ./server/session/

package session

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"

	"github.com/coder/websocket"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/dap/daptest"
)

// nodeStopped runs the editor side of a node launch of bench.js to its
// debugger statement and returns the top frame.
//
//	→ initialize, launch, configurationDone ← stopped (debugger statement)
//	→ stackTrace ← top frame
func nodeStopped(b *testing.B, ed *daptest.Client, program string, bps ...int) godap.StackFrame {
	ed.Initialize(daptest.InitArgs("test-editor", "node"))
	launch := ed.StartLaunch(map[string]any{"type": "node", "request": "launch", "program": program})
	ed.Event("initialized")
	if len(bps) > 0 {
		ed.SetBreakpoints(program, bps...)
	}
	ed.ConfigurationDone()
	ed.OK(launch)
	ed.Stopped()
	return ed.TopFrame(1)
}

// nodeDirect runs an editor client straight on dapscope's Node adapter.
func nodeDirect(b *testing.B, run func(ed *daptest.Client)) {
	ad, err := adapter.StartNode(context.Background(), adapter.NodeConfig{})
	if err != nil {
		b.Fatal(err)
	}
	ed := daptest.New(b, ad.Conn())
	run(ed)
	ed.Close()
	_ = ad.Close()
}

// nodeProxied runs an editor client through the sidecar on the Node adapter.
func nodeProxied(b *testing.B, run func(ed *daptest.Client)) {
	m := newTestManager(b, ManagerOptions{})
	edSide, muxSide := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{Adapter: "node"}) }()
	ed := daptest.New(b, edSide)
	run(ed)
	ed.Close()
	<-served
}

func BenchmarkNodeEvaluate(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "node", "bench.js")
	measure := func(b *testing.B, ed *daptest.Client, frame int) {
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → evaluate ← response
			if r := ed.Evaluate("total + 1", frame, "watch"); r.Result != "42" {
				b.Fatalf("evaluate = %+v", r)
			}
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	for _, tc := range []struct {
		name            string
		quickAck, relay bool
	}{{"mode=cdp", false, false}, {"mode=cdp_quickack", true, false}, {"mode=cdp_relay", true, true}} {
		b.Run(tc.name, func(b *testing.B) { benchCDP(b, program, tc.quickAck, tc.relay) })
	}
	b.Run("mode=adapter", func(b *testing.B) {
		nodeDirect(b, func(ed *daptest.Client) { measure(b, ed, nodeStopped(b, ed, program).Id) })
	})
	b.Run("mode=proxied", func(b *testing.B) {
		nodeProxied(b, func(ed *daptest.Client) { measure(b, ed, nodeStopped(b, ed, program).Id) })
	})
	b.Run("mode=session", func(b *testing.B) { // the headless API (MCP's debug_evaluate)
		m := newTestManager(b, ManagerOptions{})
		ctx := context.Background()
		s, err := m.Launch(ctx, LaunchSpec{Program: "testdata/node/bench.js"})
		if err != nil {
			b.Fatal(err)
		}
		frame := waitStop(b, s).Location.FrameID
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			if r, err := s.Evaluate(ctx, "total + 1", frame, "watch"); err != nil || r.Result != "42" {
				b.Fatalf("evaluate = %+v, %v", r, err)
			}
		}
		b.StopTimer()
	})
}

func BenchmarkNodeStepping(b *testing.B) {
	const rel = "testdata/node/bench.js"
	program := filepath.Join(repoRoot(b), rel)
	loop := markerLine(b, rel, "loop")
	measure := func(b *testing.B, ed *daptest.Client) {
		ed.Continue(1) // from the debugger statement to the loop's breakpoint
		ed.Stopped()
		ed.SetBreakpoints(program)
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			// → next ← response, ← stopped; → stackTrace, scopes, variables
			ed.Next(1)
			ed.Stopped()
			frame := ed.StackTrace(1, 20)[0]
			scope := ed.Scopes(frame.Id)[0]
			ed.Variables(scope.VariablesReference)
		}
		b.StopTimer()
		ed.Disconnect(true)
	}
	b.Run("mode=adapter", func(b *testing.B) {
		nodeDirect(b, func(ed *daptest.Client) { nodeStopped(b, ed, program, loop); measure(b, ed) })
	})
	b.Run("mode=proxied", func(b *testing.B) {
		nodeProxied(b, func(ed *daptest.Client) { nodeStopped(b, ed, program, loop); measure(b, ed) })
	})
}

// benchCDP measures evaluateOnCallFrame on a bare CDP client, with or
// without TCP_QUICKACK (the adapter's fix, quickack.go) by hand, directly
// or through a relay.
func benchCDP(b *testing.B, program string, quickAck, relay bool) {
	c := startCDP(b, program, quickAck, relay)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// → Debugger.evaluateOnCallFrame ← result (the adapter's params)
		var r struct {
			Result struct {
				Value json.RawMessage `json:"value"`
			} `json:"result"`
		}
		c.call(b, "Debugger.evaluateOnCallFrame", map[string]any{"callFrameId": c.frame, "expression": "total + 1",
			"objectGroup": "dapscope", "silent": true, "generatePreview": true, "throwOnSideEffect": false, "timeout": 10000}, &r)
		if string(r.Result.Value) != "42" {
			b.Fatalf("evaluate = %s", r.Result.Value)
		}
	}
	b.StopTimer()
}

// cdpClient is a bare CDP client on node's inspector: what a direct tool
// does, for the baseline.
type cdpClient struct {
	ws    *websocket.Conn
	id    int
	frame string // the callFrameId of the debugger statement's frame
}

var inspectorURL = regexp.MustCompile(`Debugger listening on (ws://\S+)`)

// startCDP starts node --inspect-brk on program, connects (through a relay
// if asked), and runs it to its debugger statement.
func startCDP(b *testing.B, program string, quickAck, relay bool) *cdpClient {
	cmd := exec.Command("node", "--inspect-brk=127.0.0.1:0", program)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); _ = cmd.Wait() })
	sc := bufio.NewScanner(stderr)
	var url string
	for url == "" && sc.Scan() {
		if m := inspectorURL.FindStringSubmatch(sc.Text()); m != nil {
			url = m[1]
		}
	}
	go func() { // drain
		for sc.Scan() {
		}
	}()
	if relay {
		url = startRelay(b, url)
	}
	opts := &websocket.DialOptions{CompressionMode: websocket.CompressionDisabled}
	if quickAck {
		opts.HTTPClient = &http.Client{Transport: &http.Transport{DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			return quickAckConn{c.(*net.TCPConn)}, nil
		}}}
	}
	ws, _, err := websocket.Dial(context.Background(), url, opts)
	if err != nil {
		b.Fatal(err)
	}
	ws.SetReadLimit(64 << 20)
	b.Cleanup(func() { _ = ws.CloseNow() })
	c := &cdpClient{ws: ws}
	c.call(b, "Runtime.enable", nil, nil)
	c.call(b, "Debugger.enable", nil, nil)
	c.call(b, "Runtime.runIfWaitingForDebugger", nil, nil)
	for pauses := 0; pauses < 2; {
		var ev struct {
			Method string `json:"method"`
			Params struct {
				CallFrames []struct {
					CallFrameID string `json:"callFrameId"`
				} `json:"callFrames"`
			} `json:"params"`
		}
		c.read(b, &ev)
		if ev.Method != "Debugger.paused" {
			continue
		}
		if pauses++; pauses == 1 { // break on start
			c.send(b, "Debugger.resume", nil)
			continue
		}
		c.frame = ev.Params.CallFrames[0].CallFrameID
	}
	return c
}

func (c *cdpClient) send(b *testing.B, method string, params any) int {
	c.id++
	if params == nil {
		params = struct{}{}
	}
	msg, _ := json.Marshal(map[string]any{"id": c.id, "method": method, "params": params})
	if err := c.ws.Write(context.Background(), websocket.MessageText, msg); err != nil {
		b.Fatal(err)
	}
	return c.id
}

func (c *cdpClient) read(b *testing.B, v any) {
	_, msg, err := c.ws.Read(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	if err := json.Unmarshal(msg, v); err != nil {
		b.Fatal(err)
	}
}

// call sends method and reads until its answer (events are skipped).
func (c *cdpClient) call(b *testing.B, method string, params, out any) {
	id := c.send(b, method, params)
	for {
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		c.read(b, &m)
		if m.ID != id {
			continue
		}
		if m.Error != nil {
			b.Fatal(fmt.Errorf("%s: %s", method, m.Error))
		}
		if out != nil {
			if err := json.Unmarshal(m.Result, out); err != nil {
				b.Fatal(err)
			}
		}
		return
	}
}

// quickAckConn re-arms TCP_QUICKACK after each read, as the adapter does.
type quickAckConn struct{ *net.TCPConn }

func (c quickAckConn) Read(p []byte) (int, error) {
	n, err := c.TCPConn.Read(p)
	if rc, e := c.TCPConn.SyscallConn(); e == nil {
		_ = rc.Control(func(fd uintptr) { _ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1) })
	}
	return n, err
}

// startRelay relays one connection to the inspector of url byte for byte
// (each read written on at once, TCP_QUICKACK on both sides as the adapter
// does) and returns the URL to dial instead.
func startRelay(b *testing.B, url string) string {
	m := regexp.MustCompile(`^ws://([^/]+)(/.*)$`).FindStringSubmatch(url)
	if m == nil {
		b.Fatalf("inspector URL %q", url)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ln.Close() })
	go func() {
		down, err := ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", m[1])
		if err != nil {
			_ = down.Close()
			return
		}
		pipe := func(dst, src *net.TCPConn) {
			buf := make([]byte, 64<<10)
			// (wrapped: no ReadFrom/WriteTo shortcut around the quick ACKs)
			_, _ = io.CopyBuffer(struct{ io.Writer }{dst}, struct{ io.Reader }{quickAckConn{src}}, buf)
			_ = dst.CloseWrite()
		}
		go pipe(up.(*net.TCPConn), down.(*net.TCPConn))
		pipe(down.(*net.TCPConn), up.(*net.TCPConn))
	}()
	return "ws://" + ln.Addr().String() + m[2]
}
