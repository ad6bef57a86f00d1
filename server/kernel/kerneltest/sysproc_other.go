//go:build !linux

// sysproc_other.go: elsewhere the test processes are plain children.

package kerneltest

import (
	"os"
	"syscall"
)

func procAttr() *syscall.SysProcAttr { return nil }

func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
