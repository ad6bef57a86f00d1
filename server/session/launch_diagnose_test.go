// launch_diagnose_test.go: a debuggee that dies before it connects back
// (here a bad PYDEVD_* value) fails the launch with its own error, not
// only debugpy's "Timed out waiting for debuggee to spawn".

package session

import (
	"errors"
	"strings"
	"testing"

	"github.com/dapscope/dapscope/errcode"
)

func TestLaunchFailureSaysWhy(t *testing.T) {
	m := newTestManager(t, ManagerOptions{})
	_, err := m.Launch(testCtx(t), LaunchSpec{Program: "testdata/core/spin.py", Env: map[string]string{"PYDEVD_INTERRUPT_THREAD_TIMEOUT": "abc"}})
	var se *errcode.Error
	if !errors.As(err, &se) || se.Code != errcode.LaunchFailed {
		t.Fatalf("want LAUNCH_FAILED, got %v", err)
	}
	if !strings.Contains(se.Message, "the debuggee could not start") || !strings.Contains(se.Message, "PYDEVD_INTERRUPT_THREAD_TIMEOUT to be set to a float value. Found: abc") {
		t.Fatalf("the error must carry the debuggee's own reason:\n%s", se.Message)
	}
}
