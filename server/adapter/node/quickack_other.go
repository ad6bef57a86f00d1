//go:build !linux

// quickack_other.go: no TCP_QUICKACK outside Linux (see quickack.go).

package node

import "syscall"

func quickAck(syscall.RawConn) {}
