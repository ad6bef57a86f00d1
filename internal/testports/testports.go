// Package testports picks loopback ports for the processes tests start
// (Jupyter kernels and servers), which bind ports given to them before they
// run. A port taken from 127.0.0.1:0 comes from the ephemeral range, which
// every outgoing connection of every test running beside them draws from
// too: between the check and the bind another connection may take it (a
// kernel then dies with "Address already in use"). These ports come from
// just below the ephemeral range instead, checked free.
package testports

import (
	"math/rand/v2"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
)

// span is how many ports below the ephemeral range are drawn from.
const span = 10000

// Free returns n distinct loopback ports that are free now.
func Free(t testing.TB, n int) []int {
	t.Helper()
	top := ephemeralStart()
	seen := map[int]bool{}
	var ports []int
	for tries := 0; len(ports) < n; tries++ {
		if tries == 10*span {
			t.Fatalf("no %d free loopback ports in %d..%d", n, top-span, top-1)
		}
		p := top - 1 - rand.IntN(span)
		if seen[p] {
			continue
		}
		seen[p] = true
		l, err := net.Listen("tcp", "127.0.0.1:"+strconv.Itoa(p))
		if err != nil {
			continue
		}
		l.Close()
		ports = append(ports, p)
	}
	return ports
}

// ephemeralStart is the first port of the ephemeral range (Linux's
// ip_local_port_range; elsewhere IANA's 49152, where Windows and macOS
// start theirs).
func ephemeralStart() int {
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if lo, err := strconv.Atoi(f[0]); err == nil && lo > span+1024 {
				return lo
			}
		}
	}
	return 49152
}
