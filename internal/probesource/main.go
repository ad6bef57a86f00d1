// Command probesource writes the Python probe as the sidecar sends it (its
// sources joined, the limits' header in front) to a file, for running it in
// a Python without the sidecar: make test-probe-bin puts it beside the
// probe tables for the GPU machine (testdata/python/gpu_demo.py reads it).
package main

import (
	"fmt"
	"os"

	"github.com/dapscope/dapscope/inspect"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: probesource FILE")
		os.Exit(2)
	}
	if err := os.WriteFile(os.Args[1], []byte(inspect.ProbeSource(inspect.Python)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
