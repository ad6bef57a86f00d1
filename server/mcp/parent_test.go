//go:build linux

// parent_test.go: `dapscope mcp --http` ends when the process that started
// it dies (no re-parented server left listening), unless --detached.

package mcp

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// alive reports whether pid runs (a zombie counts as gone).
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || len(s) < i+3 || s[i+2] != 'Z'
}

// startUnderShell runs dapscope under a shell that the test can kill,
// returning the shell and dapscope's pid (read from the shell's stdout).
func startUnderShell(t *testing.T, extra ...string) (*exec.Cmd, int) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "endpoint.json")
	script := strings.Join(append([]string{dapscopeBinary(t), "mcp", "--http", "127.0.0.1:0", "--workspace", repoRoot(t)}, extra...), " ") +
		" > " + out + " 2>/dev/null & echo $!; wait"
	sh := exec.Command("/bin/sh", "-c", script)
	stdout, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	// Wait until the endpoint line is written: the server is up.
	for i := 0; i < 300; i++ {
		if b, _ := os.ReadFile(out); strings.Contains(string(b), "token") {
			return sh, pid
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatal("dapscope mcp --http printed no endpoint")
	return nil, 0
}

// waitGone polls until pid is gone, up to limit (a bound, not a timing claim).
func waitGone(pid int, limit time.Duration) bool {
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if !alive(pid) {
			return true
		}
	}
	return false
}

func TestMCPHTTPEndsWithParent(t *testing.T) {
	t.Parallel()
	sh, pid := startUnderShell(t)
	// The launcher dies hard (no chance to signal its child).
	_ = sh.Process.Kill()
	_ = sh.Wait()
	if !waitGone(pid, 20*time.Second) {
		t.Fatalf("dapscope mcp --http (pid %d) still running after its parent died", pid)
	}
}

func TestMCPHTTPDetachedOutlivesParent(t *testing.T) {
	t.Parallel()
	sh, pid := startUnderShell(t, "--detached")
	_ = sh.Process.Kill()
	_ = sh.Wait()
	// Several poll intervals later it is still serving.
	time.Sleep(2 * time.Second)
	if !alive(pid) {
		t.Fatalf("dapscope mcp --http --detached (pid %d) exited with its parent", pid)
	}
	_ = syscall.Kill(pid, syscall.SIGTERM)
	if !waitGone(pid, 20*time.Second) {
		t.Fatalf("pid %d ignored SIGTERM", pid)
	}
}
