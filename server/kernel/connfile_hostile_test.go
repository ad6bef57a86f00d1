//go:build linux

// connfile_hostile_test.go: what may sit where a connection file is
// expected never blocks or floods the reader (a FIFO, a socket, a device,
// a symlink loop, a 1 GB sparse file), in ReadConnectionFile and in List;
// and the reader fuzzed.

package kernel

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// noHang runs f and fails the test if it has not returned after a long
// while (a guard against a hang, not a timing assertion).
func noHang(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s is still blocked after 30 s", what)
	}
}

func hostileFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	fifo := filepath.Join(dir, "kernel-fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	files[fifo] = "not a regular file"
	sock := filepath.Join(dir, "kernel-sock.json")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = l.Close() })
	files[sock] = "not a regular file"
	dev := filepath.Join(dir, "kernel-zero.json")
	if err := os.Symlink("/dev/zero", dev); err != nil {
		t.Fatal(err)
	}
	files[dev] = "not a regular file"
	loop := filepath.Join(dir, "kernel-loop.json")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	files[loop] = "too many levels of symbolic links"
	big := filepath.Join(dir, "kernel-big.json")
	f, err := os.OpenFile(big, os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	_ = f.Close()
	files[big] = "not a connection file"
	return files
}

func TestConnectionFileNeverBlocks(t *testing.T) {
	dir := t.TempDir()
	for path, want := range hostileFiles(t, dir) {
		noHang(t, "ReadConnectionFile("+filepath.Base(path)+")", func() {
			_, err := ReadConnectionFile(path, FileOptions{})
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s: err = %v, want %q", filepath.Base(path), err, want)
			}
		})
	}
	// Discovery lists each as refused, and returns.
	noHang(t, "List", func() {
		ks, err := List(context.Background(), ListOptions{RuntimeDir: dir, NoProcesses: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(ks) != 5 {
			t.Errorf("listed %d, want the 5 files", len(ks))
		}
		for _, k := range ks {
			if k.State != KernelRefused {
				t.Errorf("%s: state %s (%s), want refused", k.ID, k.State, k.Error)
			}
		}
	})
}

func FuzzConnectionFile(f *testing.F) {
	f.Add([]byte(goodConn))
	f.Add([]byte(`{"key": "secret-key", "ip": "::", "transport": "ipc"}`))
	f.Add([]byte(`{"shell_port": "1e9"}`))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "kernel-fuzz.json")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		info, err := ReadConnectionFile(path, FileOptions{})
		if err != nil {
			if strings.Contains(err.Error(), "secret-key") {
				t.Fatalf("the error shows the key: %v", err)
			}
			return
		}
		if len(info.key) == 0 {
			t.Fatalf("info %v: accepted without a key", info)
		}
		for _, p := range []int{info.ShellPort, info.IOPubPort, info.StdinPort, info.ControlPort, info.HBPort} {
			if p < 1 || p > 65535 {
				t.Fatalf("port %d accepted", p)
			}
		}
	})
}
