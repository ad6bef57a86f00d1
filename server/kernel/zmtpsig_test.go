// zmtpsig_test.go: whatever else listens on a kernel's ports is "not a
// kernel" at once: an HTTP server (silent until its client speaks: it was
// "the kernel is stopped or hung" after 30 s), a server with a banner, and
// one that closes on a byte it does not understand; a kernel_list row
// says so as "refused" with the reason.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// peerInfo is connection info whose five ports are served by serve.
func peerInfo(t *testing.T, serve func(net.Listener)) *ConnectionInfo {
	t.Helper()
	var ports []int
	for range 5 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = l.Close() })
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
		go serve(l)
	}
	cf := map[string]any{"shell_port": ports[0], "iopub_port": ports[1], "stdin_port": ports[2], "control_port": ports[3], "hb_port": ports[4],
		"ip": "127.0.0.1", "key": "k", "transport": "tcp", "signature_scheme": "hmac-sha256"}
	b, _ := json.Marshal(cf)
	info, err := ParseConnectionInfo(b, FileOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return info
}

func acceptEach(handle func(net.Conn)) func(net.Listener) {
	return func(l net.Listener) {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				handle(c)
			}()
		}
	}
}

func TestNotZeroMQOnTheKernelPorts(t *testing.T) {
	peers := map[string]func(net.Listener){
		"http": func(l net.Listener) {
			srv := &http.Server{Handler: http.NotFoundHandler(), ReadHeaderTimeout: time.Minute}
			_ = srv.Serve(l)
		},
		"banner": acceptEach(func(c net.Conn) {
			_, _ = c.Write([]byte("SSH-2.0-OpenSSH_9.6\r\n"))
			_, _ = c.Read(make([]byte, 1))
		}),
		// Silent, and closes the connection once it reads a line (as
		// Python's http.server does with an empty request line).
		"closes on a line": acceptEach(func(c net.Conn) {
			buf := make([]byte, 256)
			for {
				n, err := c.Read(buf)
				if err != nil || strings.Contains(string(buf[:n]), "\n") {
					return
				}
			}
		}),
	}
	for name, serve := range peers {
		t.Run(name, func(t *testing.T) {
			info := peerInfo(t, serve)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Dial(ctx, info, Options{})
			if err == nil {
				c.Close()
				t.Fatal("attached to a peer that is not a kernel")
			}
			if ctx.Err() != nil || !errors.Is(err, ErrNotKernelReply) || !strings.Contains(err.Error(), "not a kernel") {
				t.Fatalf("dial: %v, want ErrNotKernelReply at once", err)
			}
			e := attachError(err)
			if !strings.Contains(e.Error(), "not a kernel") || errors.Is(e, ErrNotAnswering) {
				t.Errorf("attach error = %v", e)
			}
			k := Kernel{}
			k.ConnectionFile = writeInfo(t, info)
			probe(ctx, &k, ListOptions{ProbeTimeout: 20 * time.Second})
			if k.State != KernelRefused || !strings.Contains(k.Error, "not a kernel") {
				t.Errorf("listed as %q (%s), want refused: not a kernel", k.State, k.Error)
			}
		})
	}
}

// writeInfo writes info as a private connection file.
func writeInfo(t *testing.T, info *ConnectionInfo) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"shell_port": info.ShellPort, "iopub_port": info.IOPubPort, "stdin_port": info.StdinPort,
		"control_port": info.ControlPort, "hb_port": info.HBPort, "ip": "127.0.0.1", "key": "k", "transport": "tcp",
		"signature_scheme": "hmac-sha256"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kernel-peer.json")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
