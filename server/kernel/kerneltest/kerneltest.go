// Package kerneltest starts real Jupyter kernels (Debian's ipykernel) and a
// real `jupyter server` for the tests of the packages built on
// server/kernel (the editor channel, MCP, the CLI): each on loopback with
// a fresh connection file (0600, random key) or a random token passed in
// the environment, private Jupyter and IPython directories, its process
// group killed when the test ends. User is the user's own notebook: a
// second client that runs visible cells.
package kerneltest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dapscope/dapscope/internal/testports"
	"github.com/dapscope/dapscope/internal/testpython"
	"github.com/dapscope/dapscope/server/kernel"
)

// Python is the interpreter with ipykernel and jupyter_server: the leg's
// (testpython).
var Python = testpython.Path()

// proc is a child process whose output is kept for failures.
type proc struct {
	cmd  *exec.Cmd
	mu   sync.Mutex
	out  bytes.Buffer
	done chan struct{}
}

func (p *proc) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.Write(b)
}

func (p *proc) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

func start(t testing.TB, dir string, env []string, args ...string) *proc {
	t.Helper()
	p := &proc{done: make(chan struct{})}
	p.cmd = exec.Command(Python, args...)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = p, p
	p.cmd.SysProcAttr = procAttr()
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		killGroup(p.cmd.Process.Pid)
		<-p.done
		if t.Failed() {
			t.Logf("%s output:\n%s", filepath.Base(args[len(args)-1]), p.output())
		}
	})
	return p
}

// FreePorts returns n distinct free loopback ports (testports.Free: not
// from the ephemeral range, which other tests' connections draw from).
func FreePorts(t testing.TB, n int) []int {
	t.Helper()
	return testports.Free(t, n)
}

// RandomKey is a fresh hex key or token.
func RandomKey(t testing.TB) string {
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// Kernel is a real ipykernel process.
type Kernel struct {
	File string // its connection file, kernel-ID.json in Dir
	Dir  string // its working directory and runtime directory
	ID   string
	p    *proc
	user *kernel.Client
}

// Start starts ipykernel on a fresh connection file named kernel-id.json
// (id "test" when empty) in a new temporary directory.
func Start(t testing.TB, id string) *Kernel {
	t.Helper()
	if id == "" {
		id = "test"
	}
	dir := t.TempDir()
	p := FreePorts(t, 5)
	cf := map[string]any{
		"shell_port": p[0], "iopub_port": p[1], "stdin_port": p[2], "control_port": p[3], "hb_port": p[4],
		"ip": "127.0.0.1", "key": RandomKey(t), "transport": "tcp", "signature_scheme": "hmac-sha256", "kernel_name": "python3",
	}
	b, _ := json.Marshal(cf)
	file := filepath.Join(dir, "kernel-"+id+".json")
	if err := os.WriteFile(file, b, 0o600); err != nil {
		t.Fatal(err)
	}
	k := &Kernel{File: file, Dir: dir, ID: id}
	k.p = start(t, dir, []string{"IPYTHONDIR=" + filepath.Join(dir, ".ipython"), "JUPYTER_RUNTIME_DIR=" + filepath.Join(dir, ".runtime"),
		"PYDEVD_DISABLE_FILE_VALIDATION=1", "PYTHONUNBUFFERED=1"}, "-m", "ipykernel_launcher", "-f", file)
	return k
}

// User is the user's own notebook client (attached once, waiting for the
// kernel to listen).
func (k *Kernel) User(t testing.TB) *kernel.Client {
	t.Helper()
	if k.user != nil {
		return k.user
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		c, err := kernel.DialFile(ctx, k.File, kernel.Options{})
		if err == nil {
			t.Cleanup(func() { _ = c.Close() })
			k.user = c
			return c
		}
		select {
		case <-k.p.done:
			t.Fatalf("kernel exited: %v\n%s", err, k.p.output())
		case <-ctx.Done():
			t.Fatalf("kernel did not answer: %v\n%s", err, k.p.output())
		case <-time.After(200 * time.Millisecond):
		}
	}
}

// Run runs code as a user's cell (visible: In[n], history) and waits for it.
func (k *Kernel) Run(t testing.TB, code string) *kernel.ExecResult {
	t.Helper()
	c := k.User(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	r, err := c.Execute(ctx, code, kernel.ExecOptions{Visible: true, CallOptions: kernel.CallOptions{Wait: 30 * time.Second}})
	if err != nil {
		t.Fatalf("cell %q: %v", code, err)
	}
	return r
}

// Kill ends the kernel process (a dead kernel).
func (k *Kernel) Kill() {
	killGroup(k.p.cmd.Process.Pid)
	<-k.p.done
}

// Server is a real `jupyter server` on loopback with a token.
type Server struct {
	URL   string // http://127.0.0.1:PORT/ (no token)
	Token string
	Dir   string // its root directory
	p     *proc
}

// StartServer starts jupyter server and waits for its API.
func StartServer(t testing.TB) *Server {
	t.Helper()
	dir := t.TempDir()
	port := FreePorts(t, 1)[0]
	s := &Server{URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/", Token: RandomKey(t), Dir: dir}
	args := []string{"-m", "jupyter_server", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=" + strconv.Itoa(port),
		"--ServerApp.port_retries=0", "--ServerApp.open_browser=False", "--ServerApp.root_dir=" + dir}
	if os.Getuid() == 0 {
		args = append(args, "--allow-root")
	}
	s.p = start(t, dir, []string{"JUPYTER_TOKEN=" + s.Token, "JUPYTER_RUNTIME_DIR=" + filepath.Join(dir, ".runtime"),
		"JUPYTER_CONFIG_DIR=" + filepath.Join(dir, ".config"), "JUPYTER_DATA_DIR=" + filepath.Join(dir, ".data"),
		"IPYTHONDIR=" + filepath.Join(dir, ".ipython"), "PYDEVD_DISABLE_FILE_VALIDATION=1"}, args...)
	t.Cleanup(func() { killKernelsUnder(dir) }) // kernels it started have process groups of their own
	deadline := time.Now().Add(60 * time.Second)
	for s.api("GET", "api/status", nil, nil) != nil {
		select {
		case <-s.p.done:
			t.Fatalf("jupyter server exited:\n%s", s.p.output())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("jupyter server did not start:\n%s", s.p.output())
		}
	}
	return s
}

func (s *Server) api(method, path string, body, out any) error {
	b, _ := json.Marshal(body)
	req, err := http.NewRequest(method, s.URL+path, bytes.NewReader(b))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "token "+s.Token)
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

// StartNotebook opens a notebook session and returns its kernel id.
func (s *Server) StartNotebook(t testing.TB, path string) string {
	t.Helper()
	var sess struct {
		Kernel struct {
			ID string `json:"id"`
		} `json:"kernel"`
	}
	body := map[string]any{"path": path, "name": path, "type": "notebook", "kernel": map[string]any{"name": "python3"}}
	if err := s.api("POST", "api/sessions", body, &sess); err != nil {
		t.Fatalf("starting a notebook session: %v\n%s", err, s.p.output())
	}
	return sess.Kernel.ID
}

// User is the notebook's own client of the server's kernel id.
func (s *Server) User(t testing.TB, id string) *kernel.Client {
	t.Helper()
	srv, err := kernel.NewServer(s.URL, kernel.ServerOptions{Token: s.Token})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := srv.Dial(ctx, id, kernel.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// killKernelsUnder ends kernels whose connection files live under dir.
func killKernelsUnder(dir string) {
	files, _ := filepath.Glob(filepath.Join(dir, ".runtime", "kernel-*.json"))
	if len(files) == 0 {
		return
	}
	ks, _ := kernel.List(context.Background(), kernel.ListOptions{RuntimeDir: filepath.Join(dir, ".runtime"), ProbeTimeout: time.Second})
	for _, k := range ks {
		if rel, err := filepath.Rel(dir, k.ConnectionFile); err == nil && k.PID > 0 && !strings.HasPrefix(rel, "..") {
			killGroup(k.PID)
		}
	}
}
