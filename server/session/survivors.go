// survivors.go: processes a program started in a process group of its own
// (Node's spawn {detached: true}, Python's start_new_session) are not
// ended with the program's group by Terminate. The program's descendants
// are listed from /proc before the end and looked up again after it, so
// the outcome can name what is still running (the sidecar never kills a
// process the program detached on purpose).

package session

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// procInfo is one process as /proc/PID/stat shows it.
type procInfo struct {
	pid, ppid, pgid int
	start           string // start time: a reused pid is another process
	comm            string
}

// readProc reads /proc/pid/stat (ok false for a gone or zombie process).
func readProc(pid int) (procInfo, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, false
	}
	s := string(b)
	open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
	if open < 0 || end < open {
		return procInfo{}, false
	}
	// After the command: state, ppid, pgrp, … starttime is f[19].
	f := strings.Fields(s[end+1:])
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return procInfo{}, false
	}
	ppid, _ := strconv.Atoi(f[1])
	pgid, _ := strconv.Atoi(f[2])
	return procInfo{pid: pid, ppid: ppid, pgid: pgid, start: f[19], comm: s[open+1 : end]}, true
}

// descendants lists every live process below the roots (the roots not
// included).
func descendants(roots []int) []procInfo {
	if len(roots) == 0 {
		return nil
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	children := map[int][]procInfo{}
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, ok := readProc(pid); ok {
			children[p.ppid] = append(children[p.ppid], p)
		}
	}
	var out []procInfo
	queue := append([]int(nil), roots...)
	seen := map[int]bool{}
	for len(queue) > 0 {
		pid := queue[0]
		queue = queue[1:]
		for _, c := range children[pid] {
			if !seen[c.pid] {
				seen[c.pid] = true
				out = append(out, c)
				queue = append(queue, c.pid)
			}
		}
	}
	return out
}

// survivorsOf is what of before still runs once the program's own group
// has gone (waiting up to grace for processes of that group, which the
// end's SIGKILL is still taking down).
func survivorsOf(before []procInfo, groups map[int]bool, grace time.Duration) []Survivor {
	alive := func(p procInfo) bool {
		now, ok := readProc(p.pid)
		return ok && now.start == p.start
	}
	deadline := time.Now().Add(grace)
	for time.Now().Before(deadline) {
		waiting := false
		for _, p := range before {
			if groups[p.pgid] && alive(p) {
				waiting = true
				break
			}
		}
		if !waiting {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	var out []Survivor
	for _, p := range before {
		if alive(p) {
			out = append(out, Survivor{PID: p.pid, Command: p.comm})
		}
	}
	return out
}

// processGroups are the process groups of pids.
func processGroups(pids []int) map[int]bool {
	out := map[int]bool{}
	for _, pid := range pids {
		if p, ok := readProc(pid); ok {
			out[p.pgid] = true
		}
	}
	return out
}
