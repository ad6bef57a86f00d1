// breakpointevents.go: what the adapter says of breakpoints and of the
// program after the fact — a breakpoint event (verified once its script
// loads, moved, or given a message), a breakpoint whose condition, hit
// condition or log message threw (the Node adapter's
// BreakpointErrorEvent: kept on the breakpoint, put into the next stop and
// into the outcome, so an agent learns why a breakpoint never stopped),
// and an inspector connection lost under a live program (the Node
// adapter's InspectorLostEvent: the outcome says lost, never completed).

package session

import (
	"encoding/json"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
)

// maxBreakpointErrors bounds the breakpoint errors an outcome keeps.
const maxBreakpointErrors = 20

// onBreakpointEvent updates a breakpoint from a DAP breakpoint event.
func (s *Session) onBreakpointEvent(body json.RawMessage) {
	var b godap.BreakpointEventBody
	if json.Unmarshal(body, &b) != nil || b.Breakpoint.Id == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.breakpointLocked(b.Breakpoint.Id)
	if st == nil {
		return
	}
	st.Verified, st.Message = b.Breakpoint.Verified, b.Breakpoint.Message
	if l := b.Breakpoint.Line; l > 0 {
		asked := st.Line
		if st.RequestedLine != 0 {
			asked = st.RequestedLine
		}
		st.Line, st.RequestedLine = l, 0
		if l != asked {
			st.RequestedLine = asked
		}
	}
	if b.Breakpoint.Verified && b.Breakpoint.Column > 0 {
		st.Column = b.Breakpoint.Column
	}
	s.notifyLocked()
}

// breakpointLocked is the state of breakpoint id (nil: none; s.mu held).
func (s *Session) breakpointLocked(id int) *BreakpointState {
	for path := range s.bps {
		for i := range s.bps[path] {
			if s.bps[path][i].ID == id {
				return &s.bps[path][i]
			}
		}
	}
	return nil
}

// onBreakpointError records a breakpoint whose condition threw.
func (s *Session) onBreakpointError(body json.RawMessage) {
	var b adapter.BreakpointError
	if json.Unmarshal(body, &b) != nil || b.ID == 0 {
		return
	}
	be := BreakpointError{ID: b.ID, File: s.rel(b.Path), Line: b.Line, Kind: b.Kind, Error: clip.Bytes.Head(b.Error, 500), Note: b.Note}
	s.mu.Lock()
	defer s.mu.Unlock()
	if st := s.breakpointLocked(b.ID); st != nil {
		e := be
		st.Error = &e
	}
	s.bpErrors = append(s.bpErrors, be)
	if len(s.bpErrorsAll) < maxBreakpointErrors {
		s.bpErrorsAll = append(s.bpErrorsAll, be)
	}
	s.notifyLocked()
}

// onInspectorLost records a program the debugger lost.
func (s *Session) onInspectorLost(body json.RawMessage) {
	var b adapter.InspectorLost
	if json.Unmarshal(body, &b) != nil {
		return
	}
	msg := "the connection to node's inspector was lost (" + clip.Bytes.Head(b.Reason, 300) + ")"
	if b.Killed {
		msg += "; node was ended: nothing could debug it any more"
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = true
	o := s.outcomeLocked()
	o.Lost = true
	o.ErrorType, o.ErrorMessage = "InspectorLost", msg
	s.notifyLocked()
}

// takeBreakpointErrorsLocked are the breakpoint errors since the previous
// stop (s.mu held).
func (s *Session) takeBreakpointErrorsLocked() []BreakpointError {
	out := s.bpErrors
	s.bpErrors = nil
	return out
}
