// attach_hosts_test.go: attach connects to loopback hosts only unless a
// host is allowed explicitly; a peer that accepts but never speaks DAP
// fails within the connect timeout; failed attaches are not listed.

package session

import (
	"errors"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

func TestAttachHostsAndConnectTimeout(t *testing.T) {
	m := newTestManager(t, ManagerOptions{AttachHosts: []string{"build-box"}})
	ctx := testCtx(t)
	var se *errcode.Error
	// → nothing is sent: a non-loopback host that is not allowed is refused.
	if _, err := m.Attach(ctx, AttachSpec{Host: "10.1.2.3", Port: 5678}); !errors.As(err, &se) || se.Code != errcode.InvalidArgument || se.Field != "host" || !strings.Contains(se.Message, "--attach-hosts") {
		t.Fatalf("non-loopback host: %v", err)
	}
	if !m.attachHostAllowed("build-box") || !m.attachHostAllowed("localhost") || !m.attachHostAllowed("::1") || m.attachHostAllowed("example.com") {
		t.Fatal("allow-list: loopback and listed hosts only")
	}

	// A loopback listener that accepts and then says nothing.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	held := make(chan net.Conn, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			held <- c
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	start := time.Now()
	_, err = m.Attach(ctx, AttachSpec{Port: port, ConnectTimeout: time.Second})
	if !errors.As(err, &se) || se.Code != errcode.LaunchFailed || !strings.Contains(se.Message, "no debug adapter answered within 1s") {
		t.Fatalf("silent peer: %v", err)
	}
	if took := time.Since(start); took > 30*time.Second { // a bound, far above the 1 s asked for
		t.Fatalf("silent peer held the attach for %v", took)
	}
	select {
	case c := <-held:
		c.Close()
	default:
	}
	// A closed port: refused at once.
	ln2, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln2.Addr().(*net.TCPAddr).Port
	ln2.Close()
	if _, err := m.Attach(ctx, AttachSpec{Port: closed}); !errors.As(err, &se) || se.Code != errcode.LaunchFailed || !strings.Contains(se.Message, "connection refused") {
		t.Fatalf("closed port: %v", err)
	}
	if n := len(m.List()); n != 0 {
		t.Fatalf("failed attaches must not be listed as sessions (got %d)", n)
	}
}
