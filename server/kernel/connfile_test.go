//go:build linux

// connfile_test.go: connection files: the fields, what is refused and how
// it is said (garbage, a file others can read, another user's file, an
// unsupported scheme, no key, a remote address), and dialing a stale file
// and a port where no kernel answers.

package kernel

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const goodConn = `{"shell_port": 50001, "iopub_port": "50002", "stdin_port": 50003, "control_port": 50004,
 "hb_port": 50005, "ip": "127.0.0.1", "key": "k3y", "transport": "tcp",
 "signature_scheme": "hmac-sha256", "kernel_name": "python3"}`

func TestParseConnectionInfo(t *testing.T) {
	info, err := ParseConnectionInfo([]byte(goodConn), FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if info.ShellPort != 50001 || info.IOPubPort != 50002 || info.HBPort != 50005 || info.KernelName != "python3" {
		t.Errorf("parsed %+v", info)
	}
	if got := info.address(info.ControlPort); got != "127.0.0.1:50004" {
		t.Errorf("address = %s", got)
	}
	if strings.Contains(info.String(), "k3y") {
		t.Error("String shows the key")
	}
	bad := map[string]string{
		"garbage":          `this is not json`,
		"missing port":     `{"shell_port": 1, "iopub_port": 2, "stdin_port": 3, "control_port": 4, "ip": "127.0.0.1", "key": "k"}`,
		"bad port":         strings.Replace(goodConn, "50001", "70000", 1),
		"no key":           strings.Replace(goodConn, `"key": "k3y"`, `"key": ""`, 1),
		"md5":              strings.Replace(goodConn, "hmac-sha256", "hmac-md5", 1),
		"remote ip":        strings.Replace(goodConn, "127.0.0.1", "10.1.2.3", 1),
		"unknown protocol": strings.Replace(goodConn, `"tcp"`, `"udp"`, 1),
	}
	want := map[string]string{
		"garbage":          "not JSON",
		"missing port":     "hb_port: missing",
		"bad port":         "not a port number",
		"no key":           "no \"key\"",
		"md5":              `unsupported signature scheme "hmac-md5"`,
		"remote ip":        "not a loopback address",
		"unknown protocol": `transport "udp" is not supported`,
	}
	for name, text := range bad {
		_, err := ParseConnectionInfo([]byte(text), FileOptions{})
		if err == nil || !strings.Contains(err.Error(), want[name]) {
			t.Errorf("%s: err = %v, want %q", name, err, want[name])
		}
	}
	if _, err := ParseConnectionInfo([]byte(bad["remote ip"]), FileOptions{AllowRemoteIP: true}); err != nil {
		t.Errorf("remote ip, allowed: %v", err)
	}
	for _, ip := range []string{"0.0.0.0", "localhost", "::1", "127.0.0.2"} {
		text := strings.Replace(goodConn, "127.0.0.1", ip, 1)
		if _, err := ParseConnectionInfo([]byte(text), FileOptions{}); err != nil {
			t.Errorf("ip %s: %v", ip, err)
		}
	}
	wild, _ := ParseConnectionInfo([]byte(strings.Replace(goodConn, "127.0.0.1", "0.0.0.0", 1)), FileOptions{})
	if got := wild.address(wild.ShellPort); got != "127.0.0.1:50001" {
		t.Errorf("a kernel listening on 0.0.0.0 is dialed at %s, want loopback", got)
	}
	ipc, err := ParseConnectionInfo([]byte(strings.Replace(strings.Replace(goodConn, `"tcp"`, `"ipc"`, 1), "127.0.0.1", "/tmp/kernel-ipc", 1)), FileOptions{})
	if err != nil || ipc.address(ipc.ShellPort) != "/tmp/kernel-ipc-50001" {
		t.Errorf("ipc: %v %v", ipc, err)
	}
}

func TestReadConnectionFileChecks(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	ok := write("kernel-ok.json", goodConn, 0o600)
	if _, err := ReadConnectionFile(ok, FileOptions{}); err != nil {
		t.Fatalf("a private file: %v", err)
	}
	open := write("kernel-open.json", goodConn, 0o644)
	_, err := ReadConnectionFile(open, FileOptions{})
	var fe *FileError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "chmod 600 "+open) || !strings.Contains(err.Error(), open) {
		t.Errorf("a file others can read: %v, want the file and chmod 600", err)
	}
	garbage := write("kernel-garbage.json", "\x00\x01 not a connection file", 0o600)
	if _, err := ReadConnectionFile(garbage, FileOptions{}); err == nil || !strings.Contains(err.Error(), garbage) || !strings.Contains(err.Error(), "not a Jupyter connection file") {
		t.Errorf("garbage: %v", err)
	}
	if _, err := ReadConnectionFile(filepath.Join(dir, "nope.json"), FileOptions{}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
	// Another user's file (as root the test can make one; the check itself
	// is the same function either way).
	if os.Getuid() == 0 {
		other := write("kernel-other.json", goodConn, 0o600)
		if err := os.Chown(other, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadConnectionFile(other, FileOptions{}); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("another user's file: %v", err)
		}
	}
	if r := privateReason(1001, 1000, 0o600, "/f"); !strings.Contains(r, "another user's kernel") {
		t.Errorf("privateReason for another owner = %q", r)
	}
}

func TestDialStaleAndForeignPorts(t *testing.T) {
	dir := t.TempDir()
	// Stale: nothing listens on the file's ports.
	stale := writeConnFile(t, dir, "kernel-stale.json", randomKey(t))
	ctx := testCtx(t, 10*time.Second)
	_, err := DialFile(ctx, stale, Options{})
	if !errors.Is(err, ErrDead) || !strings.Contains(err.Error(), "stale") || !strings.Contains(err.Error(), stale) {
		t.Errorf("dial of a stale file: %v, want ErrDead naming the file as stale", err)
	}
	// Something that is not a kernel listens on the IOPub port and closes
	// every connection: that is said too, without a hang.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("HTTP/1.0 400 Bad Request\r\n\r\n"))
			c.Close()
		}
	}()
	port := l.Addr().(*net.TCPAddr).Port
	text := strings.NewReplacer("50002", strconv.Itoa(port), `"iopub_port": "`, `"iopub_port": "`).Replace(goodConn)
	p := filepath.Join(dir, "kernel-foreign.json")
	if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = DialFile(ctx, p, Options{})
	if !errors.Is(err, ErrNotKernelReply) || !strings.Contains(err.Error(), "not a kernel") {
		t.Errorf("dial of a port that is not a kernel: %v", err)
	}
}
