// target.go: the Session as an inspect.Target — raw requests on the shared
// connection, the adapter kind, the stopped thread, and the inspector's
// per-debuggee scratch state.

package session

import (
	"context"
	"sync"
	"time"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/mux"
)

// Request sends a DAP request on the shared connection (inspect.Target).
func (s *Session) Request(ctx context.Context, command string, args any, out any) error {
	if err := s.bridgeRefuses(command); err != nil {
		return err
	}
	if err := s.kernelRefuses(command); err != nil {
		return err
	}
	if inspect.IsProbeCall(ctx) {
		ctx = mux.ReadOnly(ctx) // the probe changes nothing: no new generation of values
	}
	gen := s.StopCount()
	return s.explainNotPaused(s.racedResume(command, gen, s.debuggeeErr(command, wrap(s.mux.Call(ctx, command, args, out)))))
}

// Adapter is the adapter kind (an adapter.Kind).
func (s *Session) Adapter() string { return string(s.kind) }

// Language is the debuggee's language, as its driver says (inspect.Target).
func (s *Session) Language() inspect.Language { return s.driver.Language() }

// InterruptTimeout is how long an evaluation may be stuck before the
// adapter interrupts it (0: it is never interrupted).
func (s *Session) InterruptTimeout() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.interrupt
}

// Paused reports the stopped thread.
func (s *Session) Paused() (int, bool) {
	st := s.mux.State()
	return st.StoppedThread, st.Paused()
}

// Values is the inspector's per-debuggee scratch state.
func (s *Session) Values() *sync.Map {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.values
}
