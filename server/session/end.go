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
	if !s.ended && (s.outcome == nil || !s.outcome.Finished) {
		s.userEnded = true
	}
	userEnded := s.userEnded
	s.mu.Unlock()
	// What the program started, to say afterwards what outlived it.
	var before []procInfo
	var groups map[int]bool
	if userEnded && !s.attached.Load() {
		roots := s.ad.TrackedPIDs()
		before, groups = descendants(roots), processGroups(roots)
	}
	s.endChildren(ctx) // the tree of processes ends with its root (children.go)
	s.end(ctx)
	survivors := survivorsOf(before, groups, time.Second)
	s.mu.Lock()
	if s.userEnded {
		o := s.outcomeLocked()
		o.Terminated, o.Finished = true, true
		o.Signal, o.SignalName = 0, ""
		o.Survivors = survivors
		if len(survivors) > 0 {
			s.log.Info("processes outlive the terminated program", "survivors", survivors)
		}
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
			s.outcome = &Outcome{Reached: s.lastBP != nil, Finished: true}
		}
		s.notifyLocked()
		s.mu.Unlock()
		close(s.done)
		s.log.Info("session ended", "status", s.Status())
		s.cfg.observe(Event{SessionID: s.id, Kind: "terminated"})
	})
	<-s.done
}
