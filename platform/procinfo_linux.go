// procinfo_linux.go: a process's start time and state from /proc/PID/stat
// (see procinfo.go).

package platform

import (
	"os"
	"strconv"
	"strings"
)

func processStart(pid int) (string, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "", false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')') // the command may hold spaces and parentheses
	if i < 0 {
		return "", false
	}
	f := strings.Fields(s[i+1:])
	// After the command: the state is f[0]; starttime, field 22 of the
	// line, is f[19].
	if len(f) < 20 || f[0] == "Z" || f[0] == "X" {
		return "", false
	}
	return f[19], true
}
