// debugpy_boot.go: how dapscope starts debugpy's adapter — through the
// embedded debugpy_boot.py, which re-arms TCP_QUICKACK after each read the
// adapter makes, so pydevd's launch messages are not held 40 ms each by
// Nagle and delayed ACKs before the first stop (see the .py for why).

package adapter

import (
	_ "embed"
	"os"
)

//go:embed debugpy_boot.py
var debugpyBootPy string

// debugpyAdapterArgs are the interpreter's arguments that run the adapter:
// the boot script, or plain `-m debugpy.adapter` where
// DAPSCOPE_DEBUGPY_PLAIN_ADAPTER=1 (for comparing the two).
func debugpyAdapterArgs() []string {
	if os.Getenv("DAPSCOPE_DEBUGPY_PLAIN_ADAPTER") == "1" {
		return []string{"-m", "debugpy.adapter"}
	}
	return []string{"-c", debugpyBootPy}
}
