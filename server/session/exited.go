// exited.go: telling a request that failed because the program is gone
// (exited, or killed) from one the adapter refused, and how it ended (the
// driver decodes a signal from the exit code).

package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
)

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

// Describe says in words how the run ended, the same way in every report
// (Ended decides): "exited with code 0", "terminated by the user",
// "crashed: ValueError: bad (exit code 1)", "killed by SIGKILL (signal
// 9)", "lost: the debug adapter exited …"; before the end, the exception
// an exception stop raised, or "not ended". Survivors are named after it.
func (o *Outcome) Describe() string {
	if o == nil {
		return "not ended"
	}
	raised := o.ErrorType
	if o.ErrorMessage != "" {
		raised += ": " + o.ErrorMessage
	}
	var s string
	switch o.Ended {
	case EndedTerminated:
		s = "terminated by the user"
	case EndedKilled:
		s = fmt.Sprintf("killed by %s (signal %d), not by an error of its own", o.SignalName, o.Signal)
	case EndedCrashed:
		s = "crashed: " + raised
		if o.ExitCode != nil {
			s += fmt.Sprintf(" (exit code %d)", *o.ExitCode)
		}
	case EndedLost:
		s = "lost: " + o.ErrorMessage
	case EndedExited:
		s = "exited"
		if o.ExitCode != nil {
			s += fmt.Sprintf(" with code %d", *o.ExitCode)
		}
	default:
		s = "not ended"
		if raised != "" {
			s = "raised " + raised + " (not ended yet)"
		}
	}
	if n := len(o.Survivors); n > 0 {
		procs := make([]string, n)
		for i, p := range o.Survivors {
			procs[i] = fmt.Sprintf("pid %d", p.PID)
			if p.Command != "" {
				procs[i] += " (" + p.Command + ")"
			}
		}
		s += fmt.Sprintf("; still running: %s, started by the program in a process group of its own (detached), not ended with it",
			strings.Join(procs, ", "))
	}
	return s
}

// debuggeeErr turns a request's failure into DEBUGGEE_EXITED when the
// reason is that the program is gone (the adapter answers with an error
// such as "No more messages", or exits with it), so the caller is not told to check its
// expression.
func (s *Session) debuggeeErr(command string, err error) error {
	var se *errcode.Error
	if err == nil || !errors.As(err, &se) || (se.Code != errcode.AdapterError && se.Code != errcode.AdapterExited) {
		return err
	}
	s.mu.Lock()
	exited := s.outcome != nil && s.outcome.ExitCode != nil
	s.mu.Unlock()
	// The adapter ended without answering (it died itself), or the program
	// still runs: not this case. An adapter that answered with an error was
	// alive then; that it ended right after (as debugpy's does once its
	// program is gone) does not make it the cause.
	if !exited && (se.Code == errcode.AdapterExited && s.mux.Err() != nil || s.ad.DebuggeeAlive()) {
		return err
	}
	how := s.endDescription(2 * time.Second)
	return &errcode.Error{Code: errcode.DebuggeeExited, Message: fmt.Sprintf("%s failed: the program %s", command, how)}
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
// was resumed while the request (sent at stop gen) was on its way (an adapter may say "Thread
// id … is not current thread id"), so the caller learns the state, not an
// obscure adapter message.
func (s *Session) racedResume(command string, gen int, err error) error {
	var se *errcode.Error
	if err == nil || !errors.As(err, &se) || se.Code != errcode.AdapterError {
		return err
	}
	// The thread ran on since the request was sent (not paused now, or
	// paused again at a newer stop: its frame ids are gone).
	st := s.mux.State()
	if !strings.Contains(se.Message, "is not current thread id") && st.Paused() && st.StopCount == gen {
		return err
	}
	return &errcode.Error{Code: errcode.NotPaused, Message: fmt.Sprintf("%s needs a paused debuggee, but it resumed while the request was on its way (session is %s)", command, s.Status())}
}
