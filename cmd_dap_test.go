// cmd_dap_test.go: the `dapscope dap` binary as an editor starts it — DAP
// on stdin/stdout, logs on stderr — in front of real debugpy; and the
// refusal of non-loopback listen addresses.

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// dapscopeBinary builds the binary once per test run.
func dapscopeBinary(t *testing.T) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dapscope-bin")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "dapscope")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Fatalf("building dapscope: %v", binErr)
	}
	return binPath
}

func TestDAPCommandOverStdio(t *testing.T) {
	bin := dapscopeBinary(t)
	root, _ := filepath.Abs(".")
	cmd := exec.Command(bin, "dap", "--workspace", root, "--log-level", "debug")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r, w := dap.NewReader(stdout), dap.NewWriter(stdin)
	seq := 0
	var held []map[string]any
	send := func(command string, args any) int {
		seq++
		b, _ := json.Marshal(map[string]any{"seq": seq, "type": "request", "command": command, "arguments": args})
		if err := w.WriteFrame(b); err != nil {
			t.Fatal(err)
		}
		return seq
	}
	msgs := make(chan map[string]any, 256)
	go func() {
		defer close(msgs)
		for {
			b, err := r.ReadFrame()
			if err != nil {
				return
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				msgs <- map[string]any{"type": "garbage", "raw": string(b)}
				continue
			}
			msgs <- m
		}
	}()
	wait := func(pred func(map[string]any) bool) map[string]any {
		t.Helper()
		for i, m := range held {
			if pred(m) {
				held = append(held[:i], held[i+1:]...)
				return m
			}
		}
		timeout := time.After(60 * time.Second)
		for {
			select {
			case m, ok := <-msgs:
				if !ok {
					t.Fatalf("stdout closed; stderr:\n%s", stderr.String())
				}
				if m["type"] == "garbage" {
					t.Fatalf("non-DAP bytes on stdout: %v", m["raw"])
				}
				if pred(m) {
					return m
				}
				held = append(held, m)
			case <-timeout:
				t.Fatal("timed out")
			}
		}
	}
	resp := func(s int) map[string]any {
		return wait(func(m map[string]any) bool { return m["type"] == "response" && m["request_seq"] == float64(s) })
	}
	program := filepath.Join(root, "testdata", "core", "loop.py")
	// → initialize, launch, setBreakpoints, configurationDone ← stopped
	resp(send("initialize", map[string]any{"adapterID": "python"}))
	launch := send("launch", map[string]any{"type": "python", "request": "launch", "program": program, "console": "internalConsole"})
	wait(func(m map[string]any) bool { return m["event"] == "initialized" })
	resp(send("setBreakpoints", map[string]any{"source": map[string]any{"path": program}, "breakpoints": []map[string]any{{"line": 14}}}))
	resp(send("configurationDone", nil))
	resp(launch)
	stopped := wait(func(m map[string]any) bool { return m["event"] == "stopped" })
	tid := stopped["body"].(map[string]any)["threadId"]
	st := resp(send("stackTrace", map[string]any{"threadId": tid}))
	frame := st["body"].(map[string]any)["stackFrames"].([]any)[0].(map[string]any)["id"]
	ev := resp(send("evaluate", map[string]any{"expression": "i * 10 + 7", "frameId": frame, "context": "watch"}))
	if ev["body"].(map[string]any)["result"] != "7" {
		t.Fatalf("evaluate = %v", ev)
	}
	// → dapscope/session ← answered by the sidecar
	info := resp(send("dapscope/session", nil))
	if info["success"] != true || info["body"].(map[string]any)["status"] != "paused" {
		t.Fatalf("dapscope/session = %v", info)
	}
	resp(send("disconnect", map[string]any{"terminateDebuggee": true}))
	_ = stdin.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("dapscope dap exited with %v; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Fatal("dapscope dap did not exit after the editor left")
	}
	if !strings.Contains(stderr.String(), "session started") || !strings.Contains(stderr.String(), "session ended") {
		t.Fatalf("expected logs on stderr, got %q", stderr.String())
	}
}

func TestDAPListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "8.8.8.8:53", "example.com:80", "nonsense"} {
		if ln, err := listenLoopback(addr); err == nil {
			ln.Close()
			t.Errorf("listenLoopback(%q) accepted", addr)
		}
	}
	ln, err := listenLoopback("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
}
