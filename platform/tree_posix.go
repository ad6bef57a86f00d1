//go:build unix && !linux

// tree_posix.go: macOS and the BSDs have no Pdeathsig; a tree is ended by
// dapscope's own shutdown (its adapters also end when their connection to
// dapscope closes).

package platform

import "syscall"

func dieWithParent(*syscall.SysProcAttr) {}
