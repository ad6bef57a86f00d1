// procinfo.go: what dapscope may know of a process it did not start itself
// (a debuggee debugpy's launcher started): whether it runs, and when it
// started, so that a pid the system has since reused is never killed. Each
// system reads it its own way (procinfo_linux.go, procinfo_darwin.go,
// procinfo_windows.go).

package platform

// ProcessStart is pid's start time, an opaque stamp that differs between
// two processes that had the same pid; ok is false when pid does not run
// (never did, exited, or is a zombie waiting to be reaped) or cannot be
// read.
func ProcessStart(pid int) (stamp string, ok bool) {
	if pid <= 0 {
		return "", false
	}
	return processStart(pid)
}

// KillProcess ends pid at once: its whole process group when it leads
// one (Unix), the process alone otherwise.
func KillProcess(pid int) error { return killProcess(pid) }
