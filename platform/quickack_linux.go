// quickack_linux.go: TCP_QUICKACK (see quickack.go).

package platform

import "syscall"

const quickAckAvailable = true

func quickAck(raw syscall.RawConn) {
	_ = raw.Control(func(fd uintptr) {
		_ = syscall.SetsockoptInt(int(fd), syscall.IPPROTO_TCP, syscall.TCP_QUICKACK, 1)
	})
}
