// Package raytest starts a real local Ray cluster for tests: the driver
// testdata/python/ray_tasks.py (2 CPUs, every address on loopback, its own
// HOME so the token Ray generates stays out of the user's), and ends it at
// the test's end, checking that no process of the cluster is left behind.
package raytest

import (
	"bufio"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Cluster is a running local cluster.
type Cluster struct {
	Dashboard  string `json:"dashboard"` // http://127.0.0.1:PORT
	GCS        string `json:"gcs"`
	SessionDir string `json:"session_dir"`
	PID        int    `json:"pid"`
	// TokenFile is the cluster's token (Ray's token authentication).
	TokenFile string `json:"-"`
	// Env is what a process needs to reach the cluster as the driver
	// did (its HOME, with the token).
	Env []string `json:"-"`
}

// Script is the driver, from the repository root.
func Script(root string) string { return filepath.Join(root, "testdata", "python", "ray_tasks.py") }

// Env is the environment every process of a test cluster gets: a HOME of
// its own, every address on loopback.
func Env(home string) []string {
	return append(os.Environ(), "HOME="+home, "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER=0", "RAY_DEBUG=1",
		"RAY_USAGE_STATS_ENABLED=0", "PYTHONUNBUFFERED=1")
}

// Start runs the driver with scenario and waits for its JSON line; the
// cluster is ended when t ends.
func Start(t testing.TB, python, root, scenario string) *Cluster {
	t.Helper()
	home := t.TempDir()
	cmd := exec.Command(python, "-Xfrozen_modules=off", Script(root), scenario)
	cmd.Dir = root
	cmd.Env = Env(home)
	setGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logf, err := os.Create(filepath.Join(home, "driver.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "{") {
				select {
				case lines <- sc.Text():
				default:
				}
			}
		}
	}()
	c := &Cluster{TokenFile: filepath.Join(home, ".ray", "auth_token"), Env: Env(home)}
	stop := func() {
		_ = stdin.Close() // the driver shuts the cluster down and exits
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(60 * time.Second):
			t.Errorf("the Ray driver did not exit after its stdin closed: killed")
			killGroup(cmd)
			<-done
		}
		_ = logf.Close()
		CheckGone(t, c.SessionDir)
	}
	select {
	case line := <-lines:
		if err := json.Unmarshal([]byte(line), c); err != nil {
			stop()
			t.Fatalf("driver line %q: %v", line, err)
		}
	case <-time.After(120 * time.Second):
		stop()
		log, _ := os.ReadFile(logf.Name())
		t.Fatalf("the Ray cluster did not start in 120 s:\n%s", tailOf(string(log), 3000))
	}
	t.Cleanup(stop)
	if c.Dashboard != "" && !strings.Contains(c.Dashboard, "://") {
		c.Dashboard = "http://" + c.Dashboard
	}
	return c
}

// CheckGone fails t when a process of the cluster whose session directory
// is dir is still running 30 s on (it kills them then). Linux only: other
// systems have no /proc to look in.
func CheckGone(t testing.TB, dir string) {
	t.Helper()
	if dir == "" || runtime.GOOS != "linux" {
		return
	}
	name := filepath.Base(dir)
	var left []int
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		left = Processes(name)
		if len(left) == 0 || time.Now().After(deadline) {
			break
		}
	}
	if len(left) > 0 {
		t.Errorf("processes of the Ray cluster %s left behind: %v", name, left)
		for _, pid := range left {
			if p, err := os.FindProcess(pid); err == nil {
				_ = p.Kill()
			}
		}
	}
}

// Processes are the pids whose command line names the cluster's session
// (raylet, gcs_server, the dashboard, workers' log files).
func Processes(session string) []int {
	ents, _ := os.ReadDir("/proc")
	var out []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(b), session) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil && strings.Contains(string(st), ") Z ") {
			continue // a zombie is gone, its parent not yet told
		}
		out = append(out, pid)
	}
	return out
}

func tailOf(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[len(s)-n:]
}
