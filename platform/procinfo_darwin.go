// procinfo_darwin.go: a process's start time and state from sysctl
// kern.proc.pid (see procinfo.go).

package platform

import (
	"strconv"

	"golang.org/x/sys/unix"
)

const sZomb = 5 // SZOMB of <sys/proc.h>

func processStart(pid int) (string, bool) {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	if err != nil || int(kp.Proc.P_pid) != pid || kp.Proc.P_stat == sZomb {
		return "", false
	}
	t := kp.Proc.P_starttime
	return strconv.FormatInt(int64(t.Sec), 10) + "." + strconv.FormatInt(int64(t.Usec), 10), true
}
