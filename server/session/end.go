// end.go: how a session ends — disconnect (terminating a launched
// debuggee), the adapter's staged shutdown, the editor's connection closed,
// the session's goroutines waited for, and a final outcome.

package session

import (
	"context"
	"time"

	godap "github.com/google/go-dap"
)

// Terminate ends the debuggee (for launches) and the adapter; the
// session's status becomes "terminated" (unless it had ended already).
func (s *Session) Terminate(ctx context.Context) error {
	if s.bridge != nil {
		return s.notSupported("a session of the editor's own debugger is not ended by dapscope: stop it in the editor")
	}
	s.mu.Lock()
	if !s.ended && (s.outcome == nil || !s.outcome.Completed) {
		s.userEnded = true
	}
	s.mu.Unlock()
	s.end(ctx)
	s.mu.Lock()
	if s.userEnded && s.outcome != nil {
		s.outcome.Terminated = true
		s.outcome.Signal, s.outcome.SignalName = 0, ""
	}
	s.mu.Unlock()
	return nil
}

// end disconnects (terminating a launched debuggee), stops the adapter
// process, and waits for the session's goroutines.
func (s *Session) end(ctx context.Context) {
	s.endOnce.Do(func() {
		if !s.mux.State().AdapterDead && s.bridge == nil { // a bridged session is only forgotten
			s.undoFirstStop(ctx) // an attached debuggee outlives us
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			_ = s.mux.Call(ctx, "disconnect", godap.DisconnectArguments{TerminateDebuggee: !s.attached.Load()}, nil)
			cancel()
		}
		_ = s.ad.Close()
		<-s.mux.Done()
		s.mux.CloseEditor() // the editor got terminated; its connection ends with the session
		s.bg.Wait()
		s.mu.Lock()
		s.ended = true
		if s.outcome == nil {
			s.outcome = &Outcome{Reached: s.lastBP != nil, Completed: true}
		}
		s.notifyLocked()
		s.mu.Unlock()
		close(s.done)
		s.log.Info("session ended", "status", s.Status())
		s.cfg.observe(Event{SessionID: s.id, Kind: "terminated"})
	})
	<-s.done
}
