// cmd_test.go: `dapscope mcp --http` as a launcher sees it: one JSON line
// with the endpoint and token on stdout, refusal of a non-loopback address.

package mcp

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
)

func TestMCPCommandHTTP(t *testing.T) {
	t.Parallel()
	bin := dapscopeBinary(t)
	out, err := exec.Command(bin, "mcp", "--http", "0.0.0.0:0").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "loopback") {
		t.Fatalf("--http 0.0.0.0:0: %v %s", err, out)
	}
	ctx, cancel := context.WithCancel(testCtx(t))
	cmd := exec.CommandContext(ctx, bin, "mcp", "--http", "127.0.0.1:0", "--workspace", repoRoot(t))
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	var ep Endpoint
	if err := json.Unmarshal([]byte(line), &ep); err != nil || ep.Token == "" || !strings.HasPrefix(ep.URL, "http://127.0.0.1:") {
		t.Fatalf("endpoint line %q: %v", line, err)
	}
	a := httpAgent(t, ep)
	var ss SessionsResult
	a.call("debug_sessions", nil, &ss)
	if len(ss.Sessions) != 0 {
		t.Fatalf("sessions = %+v", ss)
	}
	_ = a.c.Close()
	// SIGTERM: a clean exit.
	cancel()
	_ = cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("dapscope mcp --http exit code after SIGTERM: %d", code)
	}
}

// TestStdioPureProtocol: over stdio, every byte on stdout is a JSON-RPC
// message — the debuggee's prints arrive through debug_output, never on the
// protocol stream.
func TestStdioPureProtocol(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	cmd := exec.CommandContext(ctx, dapscopeBinary(t), "mcp", "--workspace", repoRoot(t))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	send := func(msg string) {
		if _, err := stdin.Write([]byte(msg + "\n")); err != nil {
			t.Fatal(err)
		}
	}
	r := bufio.NewReader(stdout)
	// read returns the response with the given id, checking every line.
	read := func(id int) map[string]any {
		t.Helper()
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("stdout ended: %v; stderr: %s", err, stderr.String())
			}
			var m map[string]any
			if err := json.Unmarshal([]byte(line), &m); err != nil || m["jsonrpc"] != "2.0" {
				t.Fatalf("non-protocol line on stdout: %q", line)
			}
			if v, ok := m["id"].(float64); ok && int(v) == id {
				return m
			}
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	read(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"debug_launch","arguments":{"program":"testdata/mcp/agent.py","timeout":60}}}`)
	res := read(2)["result"].(map[string]any)
	if res["isError"] == true || res["structuredContent"].(map[string]any)["status"] != "completed" {
		t.Fatalf("launch to the end = %v", res)
	}
	send(`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"debug_output","arguments":{"offset":"0","limit":"40"}}}`)
	res = read(3)["result"].(map[string]any)
	if data := res["structuredContent"].(map[string]any)["data"].(string); !strings.HasPrefix(data, "rows 50\ntotal 39\n") {
		t.Fatalf("output = %q", data)
	}
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("dapscope mcp after stdin closed: %v; stderr: %s", err, stderr.String())
	}
}
