// exited.go: telling a request that failed because the program is gone
// (exited, or killed) from one the adapter refused, and how it ended:
// debugpy reports a debuggee killed by signal N as exit code 256-N.

package session

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// fatalSignals are the signals whose debugpy exit codes (256-N) are
// reported as "killed by". 1 (SIGHUP → 255) and 2 (SIGINT → 254) are left
// out: 255 and 254 are common exit codes of their own.
var fatalSignals = map[int]string{
	3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
	9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM",
}

// killedBy maps an adapter's exit code to the signal that killed the
// process, when the adapter encodes signals in exit codes (debugpy).
func killedBy(kind string, code int) (int, string) {
	if kind != "debugpy" || code < 256-64 || code > 255 {
		return 0, ""
	}
	if name, ok := fatalSignals[256-code]; ok {
		return 256 - code, name
	}
	return 0, ""
}

// describeEnd says how the program ended, e.g. "was killed by SIGKILL
// (signal 9)" or "exited with code 3".
func describeEnd(o *Outcome) string {
	switch {
	case o == nil:
		return "ended"
	case o.Terminated:
		return "was terminated by the user"
	case o.Signal != 0:
		return fmt.Sprintf("was killed by %s (signal %d)", o.SignalName, o.Signal)
	case o.ExitCode != nil:
		return fmt.Sprintf("exited with code %d", *o.ExitCode)
	}
	return "ended"
}

// debuggeeErr turns a request's failure into DEBUGGEE_EXITED when the
// reason is that the program is gone (debugpy answers "No more messages",
// or the adapter exits with it), so the caller is not told to check its
// expression.
func (s *Session) debuggeeErr(command string, err error) error {
	var se *Error
	if err == nil || !errors.As(err, &se) || (se.Code != CodeAdapterError && se.Code != CodeAdapterExited) {
		return err
	}
	s.mu.Lock()
	exited := s.outcome != nil && s.outcome.ExitCode != nil
	s.mu.Unlock()
	if !exited && (s.mux.Err() != nil || s.ad.DebuggeeAlive()) {
		// The adapter itself died, or the program still runs: not this case.
		return err
	}
	how := s.endDescription(2 * time.Second)
	return &Error{Code: CodeDebuggeeExited, Message: fmt.Sprintf("%s failed: the program %s", command, how)}
}

// endDescription says how the program ended, waiting up to limit for the
// adapter's exited event when the failure came first.
func (s *Session) endDescription(limit time.Duration) string {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		s.mu.Lock()
		o, ch := s.outcome, s.changed
		known := o != nil && (o.ExitCode != nil || o.Terminated)
		how := describeEnd(o)
		s.mu.Unlock()
		if known {
			return how
		}
		select {
		case <-ch:
		case <-s.mux.Done():
			return how
		case <-timer.C:
			return how
		}
	}
}

// racedResume turns an adapter's refusal into NOT_PAUSED when the thread
// was resumed while the request was on its way (debugpy says "Thread id …
// is not current thread id"), so the caller learns the state, not an
// obscure adapter message.
func (s *Session) racedResume(command string, err error) error {
	var se *Error
	if err == nil || !errors.As(err, &se) || se.Code != CodeAdapterError {
		return err
	}
	if !strings.Contains(se.Message, "is not current thread id") && s.mux.State().Paused() {
		return err
	}
	return &Error{Code: CodeNotPaused, Message: fmt.Sprintf("%s needs a paused debuggee, but it resumed while the request was on its way (session is %s)", command, s.Status())}
}
