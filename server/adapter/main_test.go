// main_test.go: the goroutine-leak check of the adapter package's tests.

package adapter

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }
