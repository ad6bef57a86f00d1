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

// procStart reads the start time field of /proc/pid/stat ("" and false
// for a process that is gone or a zombie).
func procStart(pid int) (string, bool) {
	st, ok := readStat(pid)
	if !ok || st.state == 'Z' {
		return "", false
	}
	return st.start, true
}

// pfExiting is the kernel's PF_EXITING task flag (include/linux/sched.h):
// set as a process enters its exit. Its files, sockets included, are closed
// after that and before it is a zombie: an adapter can see the debuggee's
// connection end while its state still reads R or D.
const pfExiting = 0x4

// procStat is what the sidecar reads of /proc/pid/stat.
type procStat struct {
	state byte   // R, S, D, Z, X, …
	flags uint64 // the kernel's PF_* flags
	start string // start time (clock ticks after boot)
}

// ended: the process has exited (a zombie waiting to be reaped, or dead)
// or is exiting.
func (p procStat) ended() bool {
	return p.state == 'Z' || p.state == 'X' || p.flags&pfExiting != 0
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	return parseStat(string(b))
}

// parseStat reads a /proc/pid/stat line: the fields after the command
// (which may hold spaces and parentheses) are state (f[0], field 3 of the
// line), flags (f[6], field 9) and starttime (f[19], field 22).
func parseStat(s string) (procStat, bool) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(s[i+1:])
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, false
	}
	flags, err := strconv.ParseUint(f[6], 10, 64)
	if err != nil {
		return procStat{}, false
	}
	return procStat{state: f[0][0], flags: flags, start: f[19]}, true
}

// DebuggeeAlive reports whether a tracked debuggee still runs: not gone,
// not a zombie, not exiting. With none tracked (attach, or before the
// process event) it answers true: unknown.
func (a *Adapter) DebuggeeAlive() bool {
	a.trackMu.Lock()
	list := a.tracked
	a.trackMu.Unlock()
	if len(list) == 0 {
		return true
	}
	for _, p := range list {
		if st, ok := readStat(p.pid); ok && st.start == p.start && !st.ended() {
			return true
		}
	}
	return false
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
