// procinfo_linux.go: a process's start time and state from /proc/PID/stat
// (see procinfo.go).

package platform

import (
	"os"
	"strconv"
	"strings"
)

// pfExiting is PF_EXITING (include/linux/sched.h).
const pfExiting = 0x4

func processStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	return parseStat(string(b))
}

// parseStat reads a /proc/PID/stat line: the start time of a process that
// runs; false for a zombie, a dead one, or one in its exit.
func parseStat(s string) (string, bool) {
	i := strings.LastIndexByte(s, ')') // the command may hold spaces and parentheses
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:])
	// After the command: the state is f[0], the flags f[6]; starttime,
	// field 22 of the line, is f[19].
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return "", false
	}
	// A process entering its exit (the kernel's PF_EXITING task flag) has
	// its files, sockets included, closed before it is a zombie: an adapter
	// can see the debuggee's connection end while its state still reads R.
	if flags, err := strconv.ParseUint(f[6], 10, 64); err != nil || flags&pfExiting != 0 {
		return "", false
	}
	return f[19], true
}
