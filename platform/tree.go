// tree.go: Tree, a started child process and every process it starts,
// ended with it — the one interface over a process group (tree_unix.go)
// and a job object (tree_windows.go).

package platform

import (
	"errors"
	"os/exec"
)

// Tree is a started child and its descendants.
type Tree struct {
	cmd *exec.Cmd
	sys treeSys // the system's handle on the whole tree
}

// StartTree starts cmd as the root of a new tree. On Unix it leads a
// process group of its own (out of reach of the terminal's Ctrl+C); on
// Linux it is also killed if dapscope dies (Pdeathsig). On Windows it
// starts suspended, joins a job object that kills every process in it
// when dapscope's handle closes (dapscope's exit, even a crash), then
// runs: nothing it starts can escape the job.
func StartTree(cmd *exec.Cmd) (*Tree, error) {
	prepare(cmd)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	t := &Tree{cmd: cmd}
	if err := t.sys.adopt(cmd); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, err
	}
	return t, nil
}

// PID is the root process's id.
func (t *Tree) PID() int { return t.cmd.Process.Pid }

// ErrNoPoliteStop is Terminate's answer where the system has no polite
// signal for another process (Windows): the caller stops the program its
// own way (the adapter's disconnect, closing its input), then Kills.
var ErrNoPoliteStop = errors.New("no polite stop signal on this system")

// Terminate asks every process of the tree to end (Unix: SIGTERM to the
// group).
func (t *Tree) Terminate() error { return t.sys.terminate(t.cmd) }

// Kill ends every process of the tree at once (Unix: SIGKILL to the group;
// Windows: the job is terminated).
func (t *Tree) Kill() error { return t.sys.kill(t.cmd) }

// Close ends whatever is left of the tree (once the root has exited, its
// descendants) and releases it.
func (t *Tree) Close() { t.sys.close(t.cmd) }

// ExitCode is a finished child's exit status from cmd.Wait's error: its
// exit code, or on Unix 128+N when signal N killed it (as a shell reports
// it); -1 when it did not run to an exit.
func ExitCode(waitErr error) int {
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		if sig, ok := signalOf(ee); ok {
			return 128 + sig
		}
		return ee.ExitCode()
	}
	if waitErr != nil {
		return -1
	}
	return 0
}
