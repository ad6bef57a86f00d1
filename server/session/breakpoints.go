// breakpoints.go: the breakpoint record follows what the adapter confirms.
// A setBreakpoints that outlives its caller's wait (V8 took 26 s for 2,000
// breakpoints on one file, past any timeout) goes on: until the adapter
// answers, the file's set is listed as pending (the program may already
// stop at the new lines); its answer is recorded when it comes, unless a
// newer set for the file replaced it; if it never comes, the set in effect
// is listed as unknown. The old set is never shown as if it still held.

package session

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
)

// maxBreakpointsWait bounds how long a setBreakpoints is followed after
// its caller stopped waiting.
const maxBreakpointsWait = 5 * time.Minute

// Breakpoint states in BreakpointState.State (empty: confirmed).
const (
	// BreakpointPending: the adapter has not answered for this file's set
	// yet; it may already stop there, Verified says nothing yet.
	BreakpointPending = "pending"
	// BreakpointUnknown: the adapter never confirmed this file's set (its
	// answer failed or never came): which lines stop is unknown.
	BreakpointUnknown = "unknown"
)

type bpAnswer struct {
	body godap.SetBreakpointsResponseBody
	err  error
}

func (s *Session) setBreakpoints(ctx context.Context, abs string, bps []Breakpoint) ([]BreakpointState, error) {
	// Our own struct: go-dap omits an empty breakpoints list, and pydevd
	// mishandles a setBreakpoints without one (the debuggee ends).
	args := struct {
		Source      godap.Source             `json:"source"`
		Breakpoints []godap.SourceBreakpoint `json:"breakpoints"`
	}{Source: godap.Source{Path: abs, Name: filepath.Base(abs)}, Breakpoints: []godap.SourceBreakpoint{}}
	for _, bp := range bps {
		args.Breakpoints = append(args.Breakpoints, godap.SourceBreakpoint{Line: bp.Line, Condition: bp.Condition, HitCondition: bp.HitCondition, LogMessage: bp.LogMessage})
	}
	s.mu.Lock()
	s.bpGen++
	gen := s.bpGen
	s.bpLatest[abs] = gen
	s.mu.Unlock()
	got := make(chan bpAnswer, 1)
	go func() {
		cctx, cancel := context.WithTimeout(context.Background(), maxBreakpointsWait)
		defer cancel()
		var a bpAnswer
		a.err = s.mux.Call(cctx, "setBreakpoints", args, &a.body)
		s.recordBreakpoints(abs, gen, bps, a)
		got <- a
	}()
	wait := time.NewTimer(s.cfg.opTimeout)
	defer wait.Stop()
	var a bpAnswer
	answered := false
	select {
	case a = <-got:
		answered = true
	case <-wait.C:
	case <-ctx.Done():
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			s.markPending(abs, gen, bps)
			return nil, errcode.From(ctx.Err())
		}
	}
	if !answered {
		select {
		case a = <-got: // it came meanwhile
			answered = true
		default:
		}
	}
	if !answered {
		s.markPending(abs, gen, bps)
		return nil, &errcode.Error{Code: errcode.Timeout, Field: "breakpoints", Message: fmt.Sprintf(
			"the adapter has not answered setBreakpoints for %s yet and is still setting %d breakpoints: debug_breakpoints lists this file's set as pending until it answers, then what it confirmed",
			s.rel(abs), len(bps))}
	}
	if a.err != nil {
		return nil, s.racedResume("setBreakpoints", s.StopCount(), s.debuggeeErr("setBreakpoints", wrap(a.err)))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]BreakpointState(nil), s.bps[abs]...)
	for i := range out {
		out[i].File = s.rel(out[i].File)
	}
	return out, nil
}

// markPending lists bps as the file's set, pending, unless the answer or
// a newer set came first.
func (s *Session) markPending(abs string, gen int, bps []Breakpoint) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bpLatest[abs] != gen || s.bpDone[abs] >= gen {
		return
	}
	s.putBreakpointsLocked(abs, bps, nil, BreakpointPending, "")
}

// recordBreakpoints records the adapter's answer to set gen of abs.
func (s *Session) recordBreakpoints(abs string, gen int, bps []Breakpoint, a bpAnswer) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.bpLatest[abs] != gen {
		return // a newer set for the file replaced this one
	}
	s.bpDone[abs] = gen
	if a.err != nil {
		if old := s.bps[abs]; len(old) == 0 || old[0].State != BreakpointPending {
			return // the caller was told; the record stays what the adapter last confirmed
		}
		s.putBreakpointsLocked(abs, bps, nil, BreakpointUnknown, "the adapter did not confirm this set: "+a.err.Error())
		return
	}
	s.putBreakpointsLocked(abs, bps, a.body.Breakpoints, "", "")
}

// putBreakpointsLocked makes bps the record of abs (hit counts kept by
// line), with the adapter's answers where there are some.
func (s *Session) putBreakpointsLocked(abs string, bps []Breakpoint, answers []godap.Breakpoint, state, msg string) {
	prev := map[int]int{}
	for _, old := range s.bps[abs] {
		prev[old.Line] = old.HitCount
	}
	out := make([]BreakpointState, len(bps))
	for i, bp := range bps {
		st := BreakpointState{Breakpoint: bp, HitCount: prev[bp.Line], State: state, Message: msg}
		st.File = abs
		if i < len(answers) {
			st.ID, st.Verified, st.Message = answers[i].Id, answers[i].Verified, answers[i].Message
			if st.Verified {
				st.Column = answers[i].Column
			}
			if l := answers[i].Line; l > 0 && l != bp.Line {
				st.RequestedLine, st.Line = bp.Line, l
			}
		}
		out[i] = st
	}
	if len(out) == 0 {
		delete(s.bps, abs)
	} else {
		s.bps[abs] = out
	}
	s.notifyLocked()
}
