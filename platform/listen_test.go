// listen_test.go: the private listener on every system: a client dials its
// address and talks, and once the listener is closed no one else can
// connect; Listen refuses addresses that are not loopback. What makes it
// private is checked per system (listen_unix_test.go: the 0700 directory;
// listen_windows_test.go: the pipe's ACL).

package platform

import (
	"context"
	"io"
	"net"
	"testing"
)

// roundTrip dials addr and has a byte echoed by ln's first connection.
func roundTrip(t *testing.T, ln net.Listener, addr string) {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		b := make([]byte, 1)
		if _, err := io.ReadFull(c, b); err != nil {
			done <- err
			return
		}
		_, err = c.Write(b)
		done <- err
	}()
	c, err := Dial(context.Background(), addr)
	if err != nil {
		t.Fatalf("Dial(%q): %v", addr, err)
	}
	defer c.Close()
	if _, err := c.Write([]byte{'x'}); err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 1)
	if _, err := io.ReadFull(c, b); err != nil || b[0] != 'x' {
		t.Fatalf("echo: %q %v", b, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

func TestListenPrivate(t *testing.T) {
	ln, addr, cleanup, err := ListenPrivate()
	if err != nil {
		t.Fatal(err)
	}
	checkPrivate(t, ln, addr)
	roundTrip(t, ln, addr)
	cleanup()
	if c, err := Dial(context.Background(), addr); err == nil {
		c.Close()
		t.Fatalf("%s still takes connections after cleanup", addr)
	}
	// Two listeners never share an address.
	ln2, addr2, cleanup2, err := ListenPrivate()
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup2()
	_ = ln2
	if addr2 == addr {
		t.Fatalf("the same private address twice: %s", addr)
	}
}

func TestListenRefusesNonLoopback(t *testing.T) {
	for _, addr := range []string{"0.0.0.0:0", "8.8.8.8:53", "example.com:80", "nonsense", ":0"} {
		if ln, err := Listen(addr); err == nil {
			ln.Close()
			t.Errorf("Listen(%q) accepted", addr)
		}
	}
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	roundTrip(t, ln, ln.Addr().String())
}
