//go:build !linux

// quickack_other.go: no TCP_QUICKACK outside Linux (see quickack.go).

package kernel

import "syscall"

func quickAck(syscall.RawConn) {}
