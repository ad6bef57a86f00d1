// events.go: how a session follows its adapter's events for its whole
// life — stops (top frame, hit counts, exception details, timings, the
// driver's first-stop fix), running again, output, the debuggee process,
// exit and termination, the adapter going away — and Wait, which returns
// the current stop or waits for the next one.

package session

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

const maxTraceback = 8 << 10

// adapterExitedType is the outcome's error type when the adapter went
// away before the program ended (Ended "lost").
const adapterExitedType = "AdapterExited"

// watch follows the adapter's events for the life of the session.
func (s *Session) watch(sub *mux.Subscription) {
	defer s.bg.Done()
	for ev := range sub.C {
		switch ev.Event {
		case "stopped":
			st := s.mux.State()
			s.bg.Add(1)
			go s.processStop(st.StopCount, st.StoppedThread, st.StopReason, st.StopDescription)
		case "continued":
			s.markRunning(s.mux.State().StopCount)
		case "output":
			s.onOutput(ev.Body)
		case adapter.LoadErrorEvent:
			s.onLoadError(ev.Body)
		case "breakpoint":
			s.onBreakpointEvent(ev.Body)
		case adapter.BreakpointErrorEvent:
			s.onBreakpointError(ev.Body)
		case "debugpyAttach": // older debugpy's child process (children.go)
			s.onChildEvent(ev.Body)
		case adapter.InspectorLostEvent:
			s.onInspectorLost(ev.Body)
		case "process":
			var b struct {
				SystemProcessID int    `json:"systemProcessId"`
				StartMethod     string `json:"startMethod"`
			}
			_ = json.Unmarshal(ev.Body, &b)
			s.setPID(b.SystemProcessID)
			if !s.attached.Load() && b.StartMethod != "attach" {
				s.ad.TrackProcess(b.SystemProcessID) // ended with the adapter, even after a crash
			}
			s.mu.Lock()
			s.values = &sync.Map{} // a new debuggee: inspector state starts over
			s.mu.Unlock()
		case "exited":
			var b struct {
				ExitCode int `json:"exitCode"`
			}
			_ = json.Unmarshal(ev.Body, &b)
			s.mu.Lock()
			o := s.outcomeLocked()
			code := b.ExitCode
			o.ExitCode = &code
			o.Finished = true
			if sig, name := s.driver.ExitSignal(code); sig != 0 && !s.userEnded && !o.Lost {
				o.Signal, o.SignalName = sig, name
			}
			o.BreakpointErrors = append([]BreakpointError(nil), s.bpErrorsAll...)
			s.notifyLocked()
			s.mu.Unlock()
		case "terminated":
			s.awaitSpare() // a program run in a spare: its exit code (spare.go)
			s.mu.Lock()
			o := s.outcomeLocked()
			o.Finished = true
			o.BreakpointErrors = append([]BreakpointError(nil), s.bpErrorsAll...)
			s.kernelEndedLocked()
			s.notifyLocked()
			s.mu.Unlock()
			s.cfg.observe(Event{SessionID: s.id, Kind: "terminated"})
			if s.origin == OriginHeadless || s.origin == OriginBridged || s.origin == OriginKernel {
				// The program is over: end the adapter now (its outcome and
				// output are captured) instead of keeping the process until
				// debug_terminate; the session's record stays. end waits for
				// this loop, so it runs on its own goroutine.
				go s.end(context.Background())
			}
		}
		if ev.Event == "continued" {
			s.cfg.observe(Event{SessionID: s.id, Kind: "continued"})
		}
	}
	// The adapter connection is gone.
	s.mu.Lock()
	if s.outcome == nil || !s.outcome.Finished {
		s.failed = true
		o := s.outcomeLocked()
		if o.ErrorType == "" {
			o.ErrorType = adapterExitedType
			o.ErrorMessage = "the debug adapter exited before the program completed"
			if err := s.mux.Err(); err != nil {
				o.ErrorMessage += ": " + err.Error()
			}
		}
	}
	s.notifyLocked()
	s.mu.Unlock()
}

func (s *Session) outcomeLocked() *Outcome {
	if s.outcome == nil {
		s.outcome = &Outcome{Reached: s.lastBP != nil}
	}
	return s.outcome
}

func (s *Session) onOutput(body json.RawMessage) {
	var b struct {
		Category string `json:"category"`
		Output   string `json:"output"`
	}
	if json.Unmarshal(body, &b) != nil {
		return
	}
	cat := s.driver.OutputCategory(b.Category)
	if cat == "" {
		return
	}
	if cat != "debugger" && !s.programRan.Load() {
		// Before launch/attach is answered the program has not run: this
		// is the adapter talking (Delve's "Building …" on stdout). Once it
		// runs, the mux's state is not read again for output.
		if s.mux.State().Status == mux.StatusStarting {
			cat = "debugger"
		} else {
			s.programRan.Store(true)
		}
	}
	if cat != "debugger" {
		s.output.write(b.Output) // the program's output, in order
	}
	s.outputs.write(cat, b.Output)
}

// markRunning clears the stop, unless a newer stop than gen arrived already.
func (s *Session) markRunning(gen int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopGen > gen {
		return
	}
	if s.runStart.IsZero() {
		s.runStart = time.Now()
	}
	s.stop = nil
	s.notifyLocked()
}

// processStop records the location of stop number gen: top frame, hit
// counts, exception details, timings; runs the driver's first-stop fix once.
func (s *Session) processStop(gen, threadID int, reason, desc string) {
	defer s.bg.Done()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	loc := &StopLocation{Reason: reason, Description: desc, ThreadID: threadID}
	var top *godap.StackFrame
	var st struct {
		StackFrames []godap.StackFrame `json:"stackFrames"`
	}
	if err := s.mux.Call(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: threadID, Levels: 1}, &st); err == nil && len(st.StackFrames) > 0 {
		if s.bridge == nil {
			s.canonFrames(gen, threadID, 0, st.StackFrames) // the stop's top frame keeps this id (frames.go)
		}
		top = &st.StackFrames[0]
		loc.FrameID, loc.Function, loc.Line, loc.Column = top.Id, top.Name, top.Line, top.Column
		if top.Source != nil {
			loc.Path = top.Source.Path
			loc.File = s.rel(top.Source.Path)
		}
	} else if err != nil {
		s.log.Debug("stop location", "err", err)
	}
	s.firstStop(ctx, loc.FrameID)
	if s.smart != nil {
		s.smart.preload(ctx, loc.FrameID) // the probe, before the editor's first hover
	}
	var exc *Outcome
	if reason == "exception" {
		exc = s.exceptionInfo(ctx, threadID)
	}
	now := time.Now()
	s.mu.Lock()
	if gen < s.stopGen {
		s.mu.Unlock()
		return
	}
	if !s.runStart.IsZero() {
		run := now.Sub(s.runStart).Milliseconds()
		s.timings.LastRunMs = run
		s.timings.TotalRunMs += run
		s.runStart = time.Time{}
	}
	if reason == "breakpoint" && loc.Path != "" {
		hitIDs := s.mux.State().HitBreakpointIDs
		for i, bp := range s.bps[loc.Path] {
			if bp.Line == loc.Line || (bp.ID != 0 && slices.Contains(hitIDs, bp.ID)) {
				s.bps[loc.Path][i].HitCount++
				hit := s.bps[loc.Path][i]
				hit.File = s.rel(hit.File)
				s.lastBP = &hit
				if s.outcome != nil {
					s.outcome.Reached = true
				}
				break
			}
		}
	}
	if exc != nil {
		o := s.outcomeLocked()
		o.ErrorType, o.ErrorMessage, o.Traceback, o.Truncated = exc.ErrorType, exc.ErrorMessage, exc.Traceback, exc.Truncated
	}
	s.stop = &Stop{Location: loc, Frame: top, BreakpointErrors: s.takeBreakpointErrorsLocked(), Gen: gen}
	s.stopGen = gen
	s.notifyLocked()
	s.mu.Unlock()
	s.cfg.observe(Event{SessionID: s.id, Kind: "stopped", Stop: loc})
}

// firstStop runs the driver's first-stop fix (for Python: TCP_NODELAY in
// pydevd and the wake patch) once, at the first stop with a frame, unless
// turned off. A failure is only logged: the session just stays slower.
func (s *Session) firstStop(ctx context.Context, frameID int) {
	s.mu.Lock()
	if !s.noDelay || s.noDelayDone || frameID == 0 {
		s.mu.Unlock()
		return
	}
	s.noDelayDone = true
	opts := adapter.FirstStopOptions{FastWake: s.fastWake}
	s.mu.Unlock()
	res, err := s.driver.FirstStop(ctx, s.mux, frameID, opts)
	if err != nil {
		s.log.Debug("first-stop fix not applied", "adapter", s.kind, "err", err) // guarded: never shown to the user
		return
	}
	s.mu.Lock()
	s.undoOnLeave = res.Undo
	s.mu.Unlock()
	if res.Status != "" {
		s.log.Info("first-stop fix", "adapter", s.kind, "result", res.Status)
	}
}

// undoFirstStop undoes the first-stop fix in an attached debuggee that
// goes on running after the session leaves (on the stopped thread when
// there is one, else frameless).
func (s *Session) undoFirstStop(ctx context.Context) {
	s.mu.Lock()
	undo := s.undoOnLeave && s.attached.Load() && (s.outcome == nil || !s.outcome.Finished)
	s.undoOnLeave = false
	s.mu.Unlock()
	if !undo {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	frameID := 0
	if st := s.mux.State(); st.Paused() {
		var tr godap.StackTraceResponseBody
		if s.mux.Call(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: st.StoppedThread, Levels: 1}, &tr) == nil && len(tr.StackFrames) > 0 {
			frameID = tr.StackFrames[0].Id
		}
	}
	status, err := s.driver.Detach(ctx, s.mux, frameID)
	if err != nil {
		s.log.Debug("first-stop fix not undone", "adapter", s.kind, "err", err)
		return
	}
	s.log.Info("first-stop fix undone", "adapter", s.kind, "result", status)
}

func (s *Session) exceptionInfo(ctx context.Context, threadID int) *Outcome {
	var b godap.ExceptionInfoResponseBody
	if err := s.mux.Call(ctx, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: threadID}, &b); err != nil {
		return &Outcome{ErrorType: "Exception", ErrorMessage: "exception details unavailable: " + err.Error()}
	}
	o := &Outcome{ErrorType: b.ExceptionId, ErrorMessage: b.Description}
	if b.Details != nil {
		o.Traceback = s.driver.Traceback(b.Details.StackTrace)
		if o.ErrorType == "" {
			o.ErrorType = b.Details.TypeName
		}
		if b.Details.Message != "" && o.ErrorMessage == "" {
			o.ErrorMessage = b.Details.Message
		}
	}
	if len(o.Traceback) > maxTraceback {
		o.Traceback = "…" + o.Traceback[len(o.Traceback)-maxTraceback:]
		o.Truncated = true
	}
	return o
}

// Wait returns the current stop, or waits up to timeout for the next one.
// It never blocks forever: on timeout it returns Stop{Running: true}.
func (s *Session) Wait(ctx context.Context, timeout time.Duration) (Stop, error) {
	if timeout <= 0 {
		timeout = s.cfg.opTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ended := s.ended || s.mux.State().AdapterDead || (s.outcome != nil && s.outcome.Finished)
		if ended {
			st := Stop{Exited: true, Outcome: s.outcome}
			s.mu.Unlock()
			return st, nil
		}
		if s.stop != nil && s.mux.State().Paused() && s.stopGen == s.mux.State().StopCount {
			st := *s.stop
			s.mu.Unlock()
			return st, nil
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-s.mux.Changed():
		case <-timer.C:
			return Stop{Running: true}, nil
		case <-ctx.Done():
			return Stop{}, ctx.Err()
		}
	}
}
