// quickack_linux.go: TCP_QUICKACK (Linux only; see quickack.go).

package kernel

import "syscall"

func quickAck(raw syscall.RawConn) {
	_ = raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
}
