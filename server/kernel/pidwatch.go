// pidwatch.go: a local kernel's death seen through its process: when the
// kernel's pid is known (the process scan), its exit (or the pid reused by
// another process) makes the kernel dead within pidPoll, where the
// heartbeat took its interval and timeout (~10 s after a SIGKILL). A
// kernel restarted on the same connection file is a new process: dead
// first, then the heartbeat loop reconnects and reports the restart.

package kernel

import (
	"fmt"
	"time"

	"github.com/dapscope/dapscope/platform"
)

// pidPoll is how often a known kernel process is checked; a restart is
// looked for restartLook after the exit (jupyter_client starts the new
// process as soon as the old one is gone).
const (
	pidPoll     = 200 * time.Millisecond
	restartLook = 600 * time.Millisecond
)

// ErrGone: the kernel is dead for good (no restart can bring it back):
// its session ends at once, without DeadGrace.
var ErrGone = fmt.Errorf("%w, for good", ErrDead)

// ErrProcessExited: the kernel's process exited and no new one took its
// connection file (a death, not a restart).
var ErrProcessExited = fmt.Errorf("%w: its process exited", ErrGone)

// watchPID starts the watch of the kernel's process (nothing when the pid
// is unknown or its process cannot be read).
func (c *Client) watchPID(pid int, file string) {
	stamp, ok := platform.ProcessStart(pid)
	if !ok {
		return
	}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		t := time.NewTicker(pidPoll)
		defer t.Stop()
		for {
			select {
			case <-c.done:
				return
			case <-t.C:
			}
			if s, ok := platform.ProcessStart(pid); ok && s == stamp {
				continue
			}
			if next := c.restartedAs(pid, file); next > 0 {
				// A restart: the heartbeat loop reconnects and reports it.
				c.setLive(LiveDead, &ConnError{Kernel: c.name, Err: ErrDead,
					Detail: fmt.Sprintf("its process (pid %d) exited; pid %d took its connection file (a restart)", pid, next)}, false)
				pid, stamp = next, ""
				if stamp, ok = platform.ProcessStart(next); !ok {
					return
				}
				continue
			}
			c.setLive(LiveDead, &ConnError{Kernel: c.name, Err: ErrProcessExited,
				Detail: fmt.Sprintf("pid %d is gone", pid)}, false)
			return
		}
	}()
}

// restartedAs is the pid of a new kernel process naming file, looked for
// during restartLook; 0 when none comes.
func (c *Client) restartedAs(old int, file string) int {
	if file == "" {
		return 0
	}
	deadline := time.Now().Add(restartLook)
	for {
		for _, p := range scanKernelProcesses() {
			if p.PID != old && p.ConnectionFile == file {
				return p.PID
			}
		}
		if time.Now().After(deadline) {
			return 0
		}
		select {
		case <-c.done:
			return 0
		case <-time.After(pidPoll / 2):
		}
	}
}
