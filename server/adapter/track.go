// track.go: processes the adapter started outside its own process group
// (debugpy's launcher runs the debuggee under setpgrp). The sidecar learns
// their pids from the DAP `process` event and ends them at shutdown, so an
// adapter crash leaves no orphan debuggee.

package adapter

import (
	"os"
	"strconv"
	"strings"
	"syscall"
)

type tracked struct {
	pid   int
	start string // /proc start time, to never signal a reused pid
}

// TrackProcess records pid (with its start time) to be ended with the
// adapter.
func (a *Adapter) TrackProcess(pid int) {
	if pid <= 1 || pid == os.Getpid() {
		return
	}
	st, ok := procStart(pid)
	if !ok {
		return
	}
	a.trackMu.Lock()
	a.tracked = append(a.tracked, tracked{pid: pid, start: st})
	a.trackMu.Unlock()
}

// killTracked ends tracked processes (and their groups) still alive.
func (a *Adapter) killTracked() {
	a.trackMu.Lock()
	list := a.tracked
	a.tracked = nil
	a.trackMu.Unlock()
	for _, p := range list {
		if st, ok := procStart(p.pid); !ok || st != p.start {
			continue // exited, or the pid now belongs to someone else
		}
		if pgid, err := syscall.Getpgid(p.pid); err == nil && pgid == p.pid {
			_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		} else {
			_ = syscall.Kill(p.pid, syscall.SIGKILL)
		}
	}
}

// procStart reads the start time field of /proc/pid/stat.
func procStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:])
	// Fields after the command: state is f[0]; starttime is field 22 of
	// the whole line, f[19] here.
	if len(f) < 20 || f[0] == "Z" {
		return "", false
	}
	return f[19], true
}

// DebuggeeAlive reports whether a tracked debuggee still runs. With none
// tracked (attach, or before the process event) it answers true: unknown.
func (a *Adapter) DebuggeeAlive() bool {
	a.trackMu.Lock()
	list := a.tracked
	a.trackMu.Unlock()
	if len(list) == 0 {
		return true
	}
	for _, p := range list {
		if st, ok := procStart(p.pid); ok && st == p.start && !zombie(p.pid) {
			return true
		}
	}
	return false
}

// zombie: the process has exited and waits to be reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i >= 0 && len(s) > i+2 && s[i+2] == 'Z'
}

// TrackedPIDs lists the tracked debuggee pids.
func (a *Adapter) TrackedPIDs() []int {
	a.trackMu.Lock()
	defer a.trackMu.Unlock()
	out := make([]int, 0, len(a.tracked))
	for _, t := range a.tracked {
		out = append(out, t.pid)
	}
	return out
}
