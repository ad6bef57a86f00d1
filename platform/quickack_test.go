// quickack_test.go: QuickAck keeps a TCP connection working (and wraps it
// only where the switch exists); other connections come back unchanged.

package platform

import (
	"io"
	"net"
	"runtime"
	"testing"
)

func TestQuickAck(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		_, _ = c.Write([]byte("hello"))
	}()
	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	q := QuickAck(c)
	defer q.Close()
	if _, wrapped := q.(*quickAckConn); wrapped != (runtime.GOOS == "linux") {
		t.Errorf("wrapped = %v on %s", wrapped, runtime.GOOS)
	}
	b, err := io.ReadAll(q)
	if err != nil || string(b) != "hello" {
		t.Fatalf("read %q, %v", b, err)
	}
	a, b2 := net.Pipe()
	defer a.Close()
	defer b2.Close()
	if QuickAck(a) != a {
		t.Error("a pipe is not a TCP connection: returned as it is")
	}
}
