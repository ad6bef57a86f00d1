// attach_test.go: debug_attach to a program waiting in debugpy.listen():
// breakpoints set at attach time hit, and the stop report comes back.

package mcp

import (
	"bufio"
	"net"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestAttachToListeningProgram(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command("/usr/bin/python3", "-Xfrozen_modules=off", filepath.Join(repoRoot(t), "testdata/core/listen.py"), strconv.Itoa(port))
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || !strings.Contains(line, "listening") {
		t.Fatalf("program did not listen: %q %v", line, err)
	}
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_attach", map[string]any{"port": port, "wait": true, "timeout": 60,
		"breakpoints": []map[string]any{{"file": "testdata/core/listen.py", "line": 12, "condition": "i == 50"}}}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != 12 || local(t, stop, "i") != "50" {
		t.Fatalf("attach stop = %+v", stop)
	}
	a.call("debug_terminate", nil, nil)
}
