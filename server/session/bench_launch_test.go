// bench_launch_test.go: launch to the first stop (initialize, launch,
// setBreakpoints, configurationDone ← stopped, stackTrace), plain debugpy
// and through the sidecar side by side in the same run (make bench tracks
// it).

package session

import (
	"path/filepath"
	"testing"

	"github.com/dapscope/dapscope/server/dap/daptest"
)

func BenchmarkLaunchToFirstStop(b *testing.B) {
	program := filepath.Join(repoRoot(b), "testdata", "core", "loop.py")
	b.Run("mode=plain", func(b *testing.B) {
		for b.Loop() {
			direct(b, func(ed *daptest.Client) {
				startStopped(ed, program, 14)
				ed.Disconnect(true)
			})
		}
	})
	b.Run("mode=proxied", func(b *testing.B) {
		for b.Loop() {
			proxied(b, ManagerOptions{}, func(ed *daptest.Client, ready func()) {
				startStopped(ed, program, 14)
				ready()
				ed.Disconnect(true)
			})
		}
	})
}
