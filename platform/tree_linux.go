// tree_linux.go: a tree's root is killed when dapscope dies
// (PR_SET_PDEATHSIG; strictly, when the thread that started it exits, and
// Go's runtime keeps its threads unless a goroutine exits while locked to
// one).

package platform

import "syscall"

func dieWithParent(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
