//go:build linux

// server_helpers_test.go: a real `jupyter server` (Debian's 1.23) for the
// tests: loopback, a free port, a random token passed in its environment
// (not its argv), private Jupyter and IPython directories, its process
// group killed at the end; notebooks and kernels started over its REST API.

package kernel

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

type testServer struct {
	t     testing.TB
	url   string
	token string
	dir   string
	cmd   *exec.Cmd
	mu    sync.Mutex
	log   bytes.Buffer
	done  chan struct{}
}

func (s *testServer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.Write(p)
}

func (s *testServer) output() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.log.String()
}

// startServer starts jupyter server; extra are more --ServerApp flags.
func startServer(t testing.TB, extra ...string) *testServer {
	t.Helper()
	dir := t.TempDir()
	port := freePorts(t, 1)[0]
	s := &testServer{t: t, token: randomKey(t), dir: dir, done: make(chan struct{}),
		url: "http://127.0.0.1:" + strconv.Itoa(port) + "/"}
	args := []string{"-m", "jupyter_server",
		"--ServerApp.ip=127.0.0.1", "--ServerApp.port=" + strconv.Itoa(port), "--ServerApp.port_retries=0",
		"--ServerApp.open_browser=False", "--ServerApp.root_dir=" + dir}
	if os.Getuid() == 0 {
		args = append(args, "--allow-root") // CI containers run as root
	}
	args = append(args, extra...)
	s.cmd = exec.Command(python, args...)
	s.cmd.Dir = dir
	s.cmd.Env = append(os.Environ(),
		"JUPYTER_TOKEN="+s.token,
		"JUPYTER_RUNTIME_DIR="+filepath.Join(dir, ".runtime"),
		"JUPYTER_CONFIG_DIR="+filepath.Join(dir, ".config"),
		"JUPYTER_DATA_DIR="+filepath.Join(dir, ".data"),
		"IPYTHONDIR="+filepath.Join(dir, ".ipython"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1",
	)
	s.cmd.Stdout, s.cmd.Stderr = s, s
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = s.cmd.Wait()
		close(s.done)
	}()
	t.Cleanup(func() {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
		<-s.done
		// Kernels it started run in process groups of their own.
		killKernelsUnder(dir)
		if t.Failed() {
			t.Logf("jupyter server log:\n%s", s.output())
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		var st map[string]any
		if err := s.api("GET", "api/status", nil, &st); err == nil {
			return s
		}
		select {
		case <-s.done:
			t.Fatalf("jupyter server exited:\n%s", s.output())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("jupyter server did not start:\n%s", s.output())
		}
	}
}

// api calls the REST API directly (the tests' own client, not the one
// under test).
func (s *testServer) api(method, path string, body, out any) error {
	var rd *bytes.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, s.url+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+s.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", method, path, resp.Status)
	}
	if out != nil {
		return json.NewDecoder(resp.Body).Decode(out)
	}
	return nil
}

// startNotebook creates a notebook session and returns its kernel id.
func (s *testServer) startNotebook(t testing.TB, path string) string {
	t.Helper()
	var sess struct {
		Kernel struct {
			ID string `json:"id"`
		} `json:"kernel"`
	}
	body := map[string]any{"path": path, "name": path, "type": "notebook", "kernel": map[string]any{"name": "python3"}}
	if err := s.api("POST", "api/sessions", body, &sess); err != nil {
		t.Fatalf("starting a notebook session: %v\n%s", err, s.output())
	}
	return sess.Kernel.ID
}

func (s *testServer) client(t testing.TB) *Server {
	t.Helper()
	srv, err := NewServer(s.url, ServerOptions{Token: s.token})
	if err != nil {
		t.Fatal(err)
	}
	return srv
}

// killKernelsUnder kills the process groups of kernels whose connection
// files live under dir (what a killed jupyter server leaves running).
func killKernelsUnder(dir string) {
	for _, p := range scanKernelProcesses() {
		if rel, err := filepath.Rel(dir, p.ConnectionFile); err == nil && !filepath.IsAbs(rel) && rel[:2] != ".." {
			_ = syscall.Kill(-p.PID, syscall.SIGKILL)
			_ = syscall.Kill(p.PID, syscall.SIGKILL)
		}
	}
}
