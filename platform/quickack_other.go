//go:build !linux

// quickack_other.go: no TCP_QUICKACK outside Linux (see quickack.go).

package platform

import "syscall"

const quickAckAvailable = false

func quickAck(syscall.RawConn) {}
