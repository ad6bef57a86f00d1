package session

import (
	"strings"
	"testing"
)

// TestNotPausedText: no "the debuggee is error".
func TestNotPausedText(t *testing.T) {
	for _, st := range []string{StatusError, StatusCompleted, StatusTerminated, StatusRunning, ""} {
		if got := NotPausedText(st); strings.HasSuffix(got, " is error") || strings.HasSuffix(got, " is ") ||
			!strings.HasPrefix(got, "the debuggee ") {
			t.Errorf("%q: %q", st, got)
		}
	}
	if got := NotPausedText(StatusError); got != "the debuggee has ended with an error" {
		t.Errorf("error: %q", got)
	}
}
