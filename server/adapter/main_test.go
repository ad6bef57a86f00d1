// main_test.go: the goroutine-leak check of the adapter package's tests,
// and the removal of the native programs they built.

package adapter

import (
	"os"
	"testing"

	"github.com/dapscope/dapscope/internal/nativetest"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m, goleak.Cleanup(func(code int) { nativetest.Cleanup(); os.Exit(code) }))
}
