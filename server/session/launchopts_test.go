// launchopts_test.go: the sidecar's options in an editor's launch
// arguments — parsed (table), and honoured on a real debugpy session
// through the proxy.

package session

import (
	"context"
	"encoding/json"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func TestParseLaunchOptions(t *testing.T) {
	for _, tc := range []struct {
		args, adapter, err string
		nodelay            *bool
	}{
		{args: `{"program":"x.py"}`},
		{args: `{"program":7}`}, // the adapter says what is wrong
		{args: ``},
		{args: `[1]`}, // not ours to judge: the adapter answers
		{args: `{"adapter":"debugpy","nodelay":false}`, adapter: "debugpy", nodelay: new(false)},
		{args: `{"adapter":"dlv","nodelay":true}`, adapter: "dlv", nodelay: new(true)},
		{args: `{"adapter":null,"nodelay":null}`},
		{args: `{"adapter":"gdb"}`, err: `unknown "adapter" "gdb"`},
		{args: `{"adapter":3}`, err: `"adapter" must be a string`},
		{args: `{"nodelay":"yes"}`, err: `"nodelay" must be true or false, got "yes"`},
	} {
		o, err := parseLaunchOptions(json.RawMessage(tc.args))
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want it to contain %q", tc.args, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.args, err)
			continue
		}
		if o.Adapter != tc.adapter || (o.NoDelay == nil) != (tc.nodelay == nil) || (o.NoDelay != nil && *o.NoDelay != *tc.nodelay) {
			t.Errorf("%s: got %+v, want adapter %q nodelay %v", tc.args, o, tc.adapter, tc.nodelay)
		}
	}
}

// nodelayProbe reads TCP_NODELAY on pydevd's socket to the adapter.
const nodelayProbe = `__import__('pydevd').get_global_debugger().writer.sock.getsockopt(__import__('socket').IPPROTO_TCP, __import__('socket').TCP_NODELAY)`

// TestLaunchOptionsThroughProxy: wire sequence, real debugpy behind the proxy:
//
//	→ initialize                               ← response
//	→ launch {adapter: dlv}                    ← error (never reaches debugpy)
//	→ launch {adapter: debugpy, nodelay: X}    (answered after configurationDone)
//	← initialized, → setBreakpoints, → configurationDone, ← stopped
//	→ evaluate getsockopt(TCP_NODELAY)         ← 0 when X is false, else ≠ 0
func TestLaunchOptionsThroughProxy(t *testing.T) {
	program := filepath.Join(repoRoot(t), "testdata", "core", "loop.py")
	for _, tc := range []struct {
		name    string
		nodelay any // nil: the key is absent (the manager's default, on)
		want0   bool
	}{
		{"nodelay=false", false, true},
		{"default", nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newTestManager(t, ManagerOptions{})
			edSide, muxSide := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- m.ServeEditor(context.Background(), muxSide, ProxySpec{}) }()
			ed := daptest.New(t, edSide)
			ed.Initialize(daptest.InitArgs("test-editor", "python"))

			wrong := ed.StartLaunch(map[string]any{"adapter": "dlv", "program": program})
			if resp := ed.Response(wrong); resp.Success() || !strings.Contains(resp.Env.Message, "--adapter dlv") {
				t.Fatalf("launch for dlv on a debugpy proxy: %s", resp)
			}
			// A program that needs another adapter, with no "adapter" key.
			wrong = ed.StartLaunch(map[string]any{"program": filepath.Join(repoRoot(t), "testdata", "node", "greet.ts")})
			if resp := ed.Response(wrong); resp.Success() || !strings.Contains(resp.Env.Message, "greet.ts is debugged by the node adapter") || !strings.Contains(resp.Env.Message, "--adapter node") {
				t.Fatalf("launch of a .ts on a debugpy proxy: %s", resp)
			}

			config := daptest.PythonLaunch(program)
			config["adapter"] = "debugpy"
			if tc.nodelay != nil {
				config["nodelay"] = tc.nodelay
			}
			ed.LaunchTo(config, program, 14)
			s, err := m.Get("")
			if err != nil {
				t.Fatal(err)
			}
			stop := waitStop(t, s) // the stop is recorded after the fix (if any) was applied
			got := ed.Evaluate(nodelayProbe, stop.Location.FrameID, "repl").Result
			if (got == "0") != tc.want0 {
				t.Fatalf("TCP_NODELAY on pydevd's socket = %v; want zero: %v", got, tc.want0)
			}
			ed.Disconnect(true)
			ed.Close()
			if err := <-served; err != nil {
				t.Logf("serve: %v", err)
			}
		})
	}
}
