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

	"github.com/dapscope/dapscope/internal/testpython"
)

func TestAttachToListeningProgram(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(testpython.Path(), "-Xfrozen_modules=off", filepath.Join(repoRoot(t), "testdata/core/listen.py"), strconv.Itoa(port))
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

// TestAttachToInspectedNode: debug_attach with adapter node reaches a node
// started with --inspect; a breakpoint set at attach time hits and the
// stop report shows the closure's locals.
func TestAttachToInspectedNode(t *testing.T) {
	cmd := exec.Command("node", "--inspect=127.0.0.1:0", filepath.Join(repoRoot(t), "testdata/node/spin.js"))
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	sc := bufio.NewScanner(stderr)
	port := 0
	for port == 0 && sc.Scan() {
		if i := strings.Index(sc.Text(), "ws://127.0.0.1:"); i >= 0 {
			rest := sc.Text()[i+len("ws://127.0.0.1:"):]
			port, _ = strconv.Atoi(rest[:strings.IndexByte(rest, '/')])
		}
	}
	if port == 0 {
		t.Fatal("node did not announce its inspector")
	}
	go func() {
		for sc.Scan() { // keep draining node's stderr
		}
	}()
	a, _ := newHTTPAgent(t, Options{})
	var stop StopReport
	a.call("debug_attach", map[string]any{"adapter": "node", "port": port, "wait": true, "timeout": 60,
		"breakpoints": []map[string]any{{"file": "testdata/node/spin.js", "line": 4}}}, &stop)
	if stop.Status != "paused" || stop.Location == nil || stop.Location.Line != 4 {
		t.Fatalf("attach stop = %+v", stop)
	}
	var ev EvaluateResult
	a.call("debug_evaluate", map[string]any{"expression": "typeof timer"}, &ev)
	if !strings.Contains(ev.Result, "object") {
		t.Fatalf("evaluate in the closure = %+v", ev)
	}
	a.call("debug_terminate", nil, nil)
}
