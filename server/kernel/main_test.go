//go:build linux

// main_test.go: shared test setup: the goroutine-leak check, real
// ipykernel processes started from a connection file the test writes
// (0600, loopback, random key), each in its own process group and killed
// at the end.

package kernel

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testports"
	"github.com/dapscope/dapscope/internal/testpython"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

var python = testpython.Path()

func testLogger() *slog.Logger {
	if os.Getenv("DAPSCOPE_TEST_LOG") != "" {
		return slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	return slog.New(slog.DiscardHandler)
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

// freePorts returns n distinct free loopback ports (testports.Free: not
// from the ephemeral range, which other tests' connections draw from).
func freePorts(t testing.TB, n int) []int {
	t.Helper()
	return testports.Free(t, n)
}

func randomKey(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// writeConnFile writes a connection file for a new kernel in dir.
func writeConnFile(t testing.TB, dir, name, key string) string {
	t.Helper()
	p := freePorts(t, 5)
	cf := map[string]any{
		"shell_port": p[0], "iopub_port": p[1], "stdin_port": p[2], "control_port": p[3], "hb_port": p[4],
		"ip": "127.0.0.1", "key": key, "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "python3",
	}
	b, _ := json.Marshal(cf)
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// testKernel is a real ipykernel process.
type testKernel struct {
	t      testing.TB
	file   string
	dir    string
	cmd    *exec.Cmd
	mu     sync.Mutex
	stderr bytes.Buffer
	done   chan struct{}
}

func (k *testKernel) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.stderr.Write(p)
}

func (k *testKernel) log() string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.stderr.String()
}

// startKernel starts ipykernel on a fresh connection file in a temp dir.
func startKernel(t testing.TB) *testKernel {
	t.Helper()
	dir := t.TempDir()
	file := writeConnFile(t, dir, "kernel-test.json", randomKey(t))
	return startKernelOn(t, file, dir)
}

// startKernelOn starts ipykernel with an existing connection file (a
// restart keeps its ports and key).
func startKernelOn(t testing.TB, file, dir string) *testKernel {
	t.Helper()
	return startKernelArgs(t, file, dir, "-m", "ipykernel_launcher", "-f", file)
}

// startKernelScript starts a kernel written as a Python script (the echo
// kernel) on a connection file.
func startKernelScript(t testing.TB, file, dir, script string) *testKernel {
	t.Helper()
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	return startKernelArgs(t, file, dir, abs, "-f", file)
}

func startKernelArgs(t testing.TB, file, dir string, args ...string) *testKernel {
	t.Helper()
	k := &testKernel{t: t, file: file, dir: dir, done: make(chan struct{})}
	k.cmd = exec.Command(python, args...)
	k.cmd.Dir = dir
	k.cmd.Env = append(os.Environ(),
		"IPYTHONDIR="+filepath.Join(dir, "ipython"),
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, "runtime"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
		"PYTHONUNBUFFERED=1",
	)
	k.cmd.Stdout, k.cmd.Stderr = k, k
	k.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := k.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = k.cmd.Wait()
		close(k.done)
	}()
	t.Cleanup(k.kill)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("kernel %s stderr:\n%s", file, k.log())
		}
	})
	return k
}

// kill ends the kernel's whole process group and waits for it.
func (k *testKernel) kill() {
	_ = syscall.Kill(-k.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-k.done:
	case <-time.After(10 * time.Second):
		k.t.Errorf("kernel %d did not exit after SIGKILL", k.cmd.Process.Pid)
	}
}

// dial attaches a client, waiting for a starting kernel to listen.
func (k *testKernel) dial(t testing.TB, opts Options) *Client {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = testLogger()
	}
	ctx := testCtx(t, 60*time.Second)
	for {
		c, err := DialFile(ctx, k.file, opts)
		if err == nil {
			t.Cleanup(func() { _ = c.Close() })
			return c
		}
		select {
		case <-k.done:
			t.Fatalf("kernel exited: %v\n%s", err, k.log())
		case <-ctx.Done():
			t.Fatalf("dial: %v", err)
		case <-time.After(200 * time.Millisecond):
		}
	}
}
