//go:build unix

// tree_unix.go: a Tree is a process group (see tree.go); Linux adds
// Pdeathsig (tree_linux.go).

package platform

import (
	"os/exec"
	"syscall"
)

type treeSys struct{}

func prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	dieWithParent(cmd.SysProcAttr)
}

func (treeSys) adopt(*exec.Cmd) error { return nil }

func (treeSys) terminate(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
}

func (treeSys) kill(cmd *exec.Cmd) error {
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// close kills what is left of the group: the root may be gone while a
// process it started still runs in it.
func (treeSys) close(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// signalOf is the signal that killed a process.
func signalOf(ee *exec.ExitError) (int, bool) {
	if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return int(ws.Signal()), true
	}
	return 0, false
}

// KilledExitCode is the exit code Kill leaves (as a shell reports SIGKILL).
const KilledExitCode = 128 + int(syscall.SIGKILL)
