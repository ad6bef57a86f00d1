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
