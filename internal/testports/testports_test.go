package testports

import (
	"net"
	"strconv"
	"testing"
)

func TestFreeIsBelowTheEphemeralRangeAndBindable(t *testing.T) {
	top := ephemeralStart()
	ports := Free(t, 20)
	seen := map[int]bool{}
	for _, p := range ports {
		if p < top-span || p >= top || seen[p] {
			t.Fatalf("port %d: outside %d..%d or repeated (%v)", p, top-span, top-1, ports)
		}
		seen[p] = true
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			t.Fatalf("port %d is not free: %v", p, err)
		}
		l.Close()
	}
	// An ephemeral port from the system is at or above where the range starts.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if p := l.Addr().(*net.TCPAddr).Port; p < top {
		t.Errorf("the system's ephemeral port %d is below %d: the range was misread", p, top)
	}
}
