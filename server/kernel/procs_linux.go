// procs_linux.go: finds running kernel processes of the current user in
// /proc and the connection files their command lines name (-f FILE and its
// spellings, or a kernel-*.json argument), with their pid, working
// directory and start time. VS Code's Jupyter extension keeps its
// connection files outside the runtime directory: this is how they are
// found.

package kernel

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// kernelProcess is a running process that names a connection file.
type kernelProcess struct {
	PID            int
	ConnectionFile string // absolute
	Cwd            string
	Started        time.Time
}

// processScanAvailable says whether scanKernelProcesses can see processes.
const processScanAvailable = true

// clockTicks is USER_HZ, the unit of /proc/PID/stat times (100 on every
// Linux architecture Go supports).
const clockTicks = 100

func scanKernelProcesses() []kernelProcess {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	boot := bootTime()
	me := os.Getuid()
	var out []kernelProcess
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		dir := "/proc/" + e.Name()
		var st syscall.Stat_t
		if syscall.Stat(dir, &st) != nil || int(st.Uid) != me {
			continue
		}
		raw, err := os.ReadFile(dir + "/cmdline")
		if err != nil || len(raw) == 0 {
			continue
		}
		args := strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00")
		file := connectionFileArg(args)
		if file == "" {
			continue
		}
		cwd, _ := os.Readlink(dir + "/cwd")
		if !filepath.IsAbs(file) && cwd != "" {
			file = filepath.Join(cwd, file)
		}
		p := kernelProcess{PID: pid, ConnectionFile: filepath.Clean(file), Cwd: cwd}
		if ticks, ok := startTicks(dir + "/stat"); ok && !boot.IsZero() {
			p.Started = boot.Add(time.Duration(ticks) * time.Second / clockTicks)
		}
		out = append(out, p)
	}
	return out
}

// connectionFileArg finds the connection file in a kernel's command line:
// ipykernel's -f FILE (-f=FILE, --f=FILE, --f FILE), --connection-file,
// or an argument named kernel-*.json (IRkernel and others pass it bare).
// The file must end in .json, and another argument must name a kernel
// (ipykernel_launcher, IRkernel, IJulia, a kernel.jl...): `tail -f
// kernel-1.json` or `tail -f kc.py` is no kernel.
func connectionFileArg(args []string) string {
	i, file := connectionFileIndex(args)
	if i < 0 || !strings.HasSuffix(file, ".json") {
		return ""
	}
	for j, a := range args {
		if j == i {
			continue
		}
		l := strings.ToLower(a)
		if strings.Contains(l, "kernel") || strings.Contains(l, "ijulia") {
			return file
		}
	}
	return ""
}

// connectionFileIndex is the index of the argument holding the connection
// file, and the file, or -1.
func connectionFileIndex(args []string) (int, string) {
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch a {
		case "-f", "--f", "--connection-file", "--connection_file":
			if i+1 < len(args) {
				return i + 1, args[i+1]
			}
		}
		for _, p := range []string{"-f=", "--f=", "--connection-file=", "--connection_file="} {
			if strings.HasPrefix(a, p) {
				return i, a[len(p):]
			}
		}
	}
	for i, a := range args {
		if i == 0 {
			continue
		}
		b := filepath.Base(a)
		if strings.HasPrefix(b, "kernel-") && strings.HasSuffix(b, ".json") {
			return i, a
		}
	}
	return -1, ""
}

// startTicks reads a process's start time (field 22 of stat, after the
// command name, which may hold spaces and parentheses).
func startTicks(path string) (uint64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	// f[0] is field 3 (state): field 22 is f[19].
	if len(f) < 20 {
		return 0, false
	}
	n, err := strconv.ParseUint(f[19], 10, 64)
	return n, err == nil
}

// bootTime is the system's boot time (btime in /proc/stat).
func bootTime() time.Time {
	b, err := os.ReadFile("/proc/stat")
	if err != nil {
		return time.Time{}
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "btime "); ok {
			if s, err := strconv.ParseInt(strings.TrimSpace(rest), 10, 64); err == nil {
				return time.Unix(s, 0)
			}
		}
	}
	return time.Time{}
}
