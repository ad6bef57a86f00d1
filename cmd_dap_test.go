// cmd_dap_test.go: the `dapscope dap` binary as an editor starts it — DAP
// on stdin/stdout, logs on stderr — in front of real debugpy; and the
// refusal of non-loopback listen addresses.

package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/server/dap/daptest"
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
	c := daptest.New(t, childConn{stdout, stdin})
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr.String())
		}
	})
	program := filepath.Join(root, "testdata", "core", "loop.py")
	// → initialize, launch, setBreakpoints, configurationDone ← stopped
	c.Initialize(daptest.InitArgs("", "python"))
	stopped := c.LaunchTo(daptest.PythonLaunch(program), program, 14)
	// → stackTrace ← top frame; → evaluate ← response
	frame := c.TopFrame(stopped.Body.ThreadId)
	if got := c.Evaluate("i * 10 + 7", frame.Id, "watch").Result; got != "7" {
		t.Fatalf("evaluate = %q", got)
	}
	// → dapscope/session ← answered by the sidecar
	info := c.Call("dapscope/session", nil)
	var body struct {
		Status string `json:"status"`
	}
	if err := info.Unmarshal(&body); err != nil || body.Status != "paused" {
		t.Fatalf("dapscope/session = %s", info)
	}
	// → disconnect ← response
	c.Disconnect(true)
	if f := c.Foreign(); len(f) > 0 {
		t.Fatalf("non-DAP bytes or foreign responses on stdout: %v; stderr:\n%s", f, stderr.String())
	}
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

// childConn joins the binary's stdout (read) and stdin (write) into one
// connection for the DAP client; Close closes stdin.
type childConn struct {
	io.ReadCloser
	io.WriteCloser
}

func (c childConn) Close() error { return c.WriteCloser.Close() }

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
