//go:build !linux

// procs_other.go: outside Linux, kernel processes are not scanned (there is
// no /proc): kernels are found through the runtime directory only, and
// listing says so.

package kernel

import "time"

type kernelProcess struct {
	PID            int
	ConnectionFile string
	Cwd            string
	Started        time.Time
}

const processScanAvailable = false

func scanKernelProcesses() []kernelProcess { return nil }
