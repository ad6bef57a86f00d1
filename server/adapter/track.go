// track.go: processes the adapter started outside its own process tree
// (debugpy's launcher runs the debuggee under setpgrp on Unix). The sidecar
// learns their pids from the DAP `process` event and ends them at
// shutdown, so an adapter crash leaves no orphan debuggee. (On Windows the
// debuggee is in the adapter's job anyway.)

package adapter

import (
	"os"

	"github.com/dapscope/dapscope/platform"
)

type tracked struct {
	pid   int
	start string // its start time, to never signal a reused pid
}

// TrackProcess records pid (with its start time) to be ended with the
// adapter.
func (a *Adapter) TrackProcess(pid int) {
	if pid <= 1 || pid == os.Getpid() {
		return
	}
	st, ok := platform.ProcessStart(pid)
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
		if st, ok := platform.ProcessStart(p.pid); !ok || st != p.start {
			continue // exited, or the pid now belongs to someone else
		}
		_ = platform.KillProcess(p.pid) // with its group, when it leads one
	}
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
		if st, ok := platform.ProcessStart(p.pid); ok && st == p.start {
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
