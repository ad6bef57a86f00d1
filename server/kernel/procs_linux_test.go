//go:build linux

package kernel

import (
	"strings"
	"testing"
)

// TestConnectionFileArg: a kernel's command line names its connection
// file; a viewer's (`tail -f kc.py`, `less kernel-1.json`) does not make
// it a kernel.
func TestConnectionFileArg(t *testing.T) {
	for cmd, want := range map[string]string{
		"/usr/bin/python3 -m ipykernel_launcher -f /run/jupyter/kernel-1.json":      "/run/jupyter/kernel-1.json",
		"python -m ipykernel_launcher --f=/tmp/kernel-2.json":                       "/tmp/kernel-2.json",
		"python -m ipykernel --connection-file /tmp/a=b/conn.json":                  "/tmp/a=b/conn.json",
		"/usr/lib/R/bin/exec/R --slave -e IRkernel::main() --args /k/kernel-3.json": "/k/kernel-3.json",
		"julia -i --color=yes /home/u/.julia/IJulia/src/kernel.jl /r/kernel-4.json": "/r/kernel-4.json",
		"python testdata/echokernel.py -f /tmp/kernel-echo.json":                    "/tmp/kernel-echo.json",
		"tail -f kc.py":                         "",
		"tail -f /run/jupyter/kernel-1.json":    "",
		"less /run/jupyter/kernel-1.json":       "",
		"python -m ipykernel_launcher -f kc.py": "",
		"python -m ipykernel_launcher":          "",
	} {
		if got := connectionFileArg(strings.Fields(cmd)); got != want {
			t.Errorf("%s: %q, want %q", cmd, got, want)
		}
	}
}
