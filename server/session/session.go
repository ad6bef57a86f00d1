// session.go: one live debug session — an adapter process behind a mux —
// with the state the API reports (status, stop location, breakpoints with
// hit counts, timings, output, outcome) kept current from the event stream.

package session

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// Status values of the session model.
const (
	StatusIdle      = "idle"
	StatusRunning   = "running"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	StatusError     = "error"
	// StatusTerminated: ended by the user (Terminate), not by the program.
	StatusTerminated = "terminated"
)

// Origins.
const (
	OriginHeadless = "headless"
	OriginEditor   = "editor"
)

// Breakpoint is a requested breakpoint.
type Breakpoint struct {
	File         string `json:"file"`
	Line         int    `json:"line"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hit_condition,omitempty"`
	LogMessage   string `json:"log_message,omitempty"`
}

// BreakpointState is a breakpoint with what the adapter said of it.
type BreakpointState struct {
	Breakpoint
	ID       int    `json:"id,omitempty"`
	Verified bool   `json:"verified"`
	Message  string `json:"message,omitempty"`
	HitCount int    `json:"hit_count"`
}

// StopLocation is where the debuggee stopped.
type StopLocation struct {
	Reason      string `json:"reason"`
	Description string `json:"description,omitempty"`
	ThreadID    int    `json:"thread_id"`
	FrameID     int    `json:"frame_id,omitempty"`
	Function    string `json:"function,omitempty"`
	File        string `json:"file,omitempty"` // workspace-relative when inside it
	Path        string `json:"path,omitempty"` // absolute
	Line        int    `json:"line,omitempty"`
	Column      int    `json:"column,omitempty"`
}

// Stop is what Wait returns.
type Stop struct {
	Running  bool              `json:"running,omitempty"` // timed out, still running
	Exited   bool              `json:"exited,omitempty"`  // the session ended
	Location *StopLocation     `json:"location,omitempty"`
	Frame    *godap.StackFrame `json:"-"`
	Outcome  *Outcome          `json:"outcome,omitempty"`
}

// Outcome is how the program ended (or the exception it raised).
type Outcome struct {
	Reached   bool `json:"reached"` // some breakpoint was hit
	Completed bool `json:"completed"`
	// Terminated: ended by the user (debug_terminate), not by itself.
	Terminated bool `json:"terminated,omitempty"`
	ExitCode   *int `json:"exit_code,omitempty"`
	// Signal is set when the process was killed by a signal (debugpy
	// reports that as exit code 256-N); SignalName is e.g. "SIGKILL".
	Signal       int    `json:"signal,omitempty"`
	SignalName   string `json:"signal_name,omitempty"`
	ErrorType    string `json:"error_type,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	Traceback    string `json:"traceback,omitempty"`
	Truncated    bool   `json:"truncated,omitempty"`
}

// Timings of the debuggee's running time.
type Timings struct {
	LastRunMs  int64 `json:"last_run_ms"`
	TotalRunMs int64 `json:"total_run_ms"`
}

// Info is a snapshot of a session for listings.
type Info struct {
	ID             string            `json:"id"`
	Origin         string            `json:"origin"`
	Adapter        string            `json:"adapter"`
	Status         string            `json:"status"`
	Program        string            `json:"program,omitempty"`
	Module         string            `json:"module,omitempty"`
	Args           []string          `json:"args,omitempty"`
	EnvKeys        []string          `json:"env_keys,omitempty"` // values are not reported (may be secrets)
	CreatedAt      time.Time         `json:"created_at"`
	UpdatedAt      time.Time         `json:"updated_at"`
	Stop           *StopLocation     `json:"stop,omitempty"`
	LastBreakpoint *BreakpointState  `json:"last_breakpoint,omitempty"`
	Timings        Timings           `json:"timings"`
	Breakpoints    []BreakpointState `json:"breakpoints,omitempty"`
	Outcome        *Outcome          `json:"outcome,omitempty"`
	Active         bool              `json:"active,omitempty"`
}

const maxTraceback = 8 << 10

// Session is one live adapter session.
type Session struct {
	id        string
	origin    string
	kind      string
	workspace string
	m         *Manager
	mux       *mux.Mux
	ad        *adapter.Adapter
	log       *slog.Logger
	attached  bool // attach (don't terminate the debuggee on end)
	// initialized: initialize was already answered (attach checks the peer first).
	initialized bool
	output      *outputBuffer
	smart       *smartValues // the editor's smart values (mux rewriter)

	mu          sync.Mutex
	changed     chan struct{}
	program     string
	module      string
	args        []string
	envKeys     []string
	createdAt   time.Time
	updatedAt   time.Time
	stop        *Stop
	stopGen     int // StopCount of the stop in s.stop
	bps         map[string][]BreakpointState
	lastBP      *BreakpointState
	timings     Timings
	runStart    time.Time
	outcome     *Outcome
	ended       bool
	failed      bool
	userEnded   bool // Terminate was called
	noDelay     bool // apply the TCP_NODELAY fix at the first stop
	noDelayDone bool
	values      *sync.Map

	bg      sync.WaitGroup
	endOnce sync.Once
	done    chan struct{}
}

func newSession(m *Manager, id, origin string, ad *adapter.Adapter, mx *mux.Mux) *Session {
	now := time.Now()
	return &Session{
		id: id, origin: origin, kind: ad.Kind, workspace: m.opts.Workspace, m: m, mux: mx, ad: ad,
		log: m.log.With("session", id[:8]), noDelay: m.opts.NoDelay, output: newOutputBuffer(m.opts.OutputLimit),
		changed: make(chan struct{}), createdAt: now, updatedAt: now, bps: map[string][]BreakpointState{},
		values: &sync.Map{}, done: make(chan struct{}),
	}
}

// ID is the session's UUID.
func (s *Session) ID() string { return s.id }

// Mux is the shared adapter connection.
func (s *Session) Mux() *mux.Mux { return s.mux }

// Done is closed when the session has ended and its adapter is gone.
func (s *Session) Done() <-chan struct{} { return s.done }

func (s *Session) notifyLocked() {
	s.updatedAt = time.Now()
	close(s.changed)
	s.changed = make(chan struct{})
}

// Status is the session status of the product's model.
func (s *Session) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked()
}

func (s *Session) statusLocked() string {
	st := s.mux.State()
	finished := s.ended || st.AdapterDead || st.Status == mux.StatusTerminated || st.Status == mux.StatusExited ||
		(s.outcome != nil && s.outcome.Completed)
	if finished {
		switch {
		case s.userEnded:
			return StatusTerminated
		case s.failed || (s.outcome != nil && (s.outcome.ErrorType != "" || s.outcome.Signal != 0)):
			return StatusError
		}
		return StatusCompleted
	}
	switch st.Status {
	case mux.StatusStopped:
		return StatusPaused
	case mux.StatusRunning:
		return StatusRunning
	}
	return StatusIdle
}

// rel makes p workspace-relative when it is inside the workspace.
func (s *Session) rel(p string) string {
	if p == "" || s.workspace == "" {
		return p
	}
	if r, err := filepath.Rel(s.workspace, p); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return p
}

// Info snapshots the session.
func (s *Session) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := Info{
		ID: s.id, Origin: s.origin, Adapter: s.kind, Status: s.statusLocked(),
		Program: s.rel(s.program), Module: s.module, Args: s.args, EnvKeys: s.envKeys,
		CreatedAt: s.createdAt, UpdatedAt: s.updatedAt, Timings: s.timings,
	}
	if in.Program == "" && in.Module == "" {
		in.Program = s.rel(s.mux.State().Program) // an editor's launch
	}
	if s.stop != nil && in.Status == StatusPaused {
		in.Stop = s.stop.Location
	}
	if s.lastBP != nil {
		bp := *s.lastBP
		in.LastBreakpoint = &bp
	}
	for _, list := range s.bps {
		for _, bp := range list {
			bp.File = s.rel(bp.File)
			in.Breakpoints = append(in.Breakpoints, bp)
		}
	}
	if s.outcome != nil {
		o := *s.outcome
		in.Outcome = &o
	}
	return in
}

// Outcome is nil until the program ends or raises.
func (s *Session) Outcome() *Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.outcome == nil {
		return nil
	}
	o := *s.outcome
	return &o
}

// Output reads captured output from an absolute offset.
func (s *Session) Output(offset int64, limit int) OutputPage { return s.output.read(offset, limit) }

// OutputSize is the number of output bytes held.
func (s *Session) OutputSize() int { return s.output.size() }

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
		case "process":
			var b struct {
				SystemProcessID int    `json:"systemProcessId"`
				StartMethod     string `json:"startMethod"`
			}
			_ = json.Unmarshal(ev.Body, &b)
			if !s.attached && b.StartMethod != "attach" {
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
			o.Completed = true
			if sig, name := killedBy(s.kind, code); sig != 0 && !s.userEnded {
				o.Signal, o.SignalName = sig, name
			}
			s.notifyLocked()
			s.mu.Unlock()
		case "terminated":
			s.mu.Lock()
			o := s.outcomeLocked()
			o.Completed = true
			s.notifyLocked()
			s.mu.Unlock()
			s.m.publish(Event{SessionID: s.id, Kind: "terminated"})
			if s.origin == OriginHeadless {
				// The program is over: end the adapter now (its outcome and
				// output are captured) instead of keeping the process until
				// debug_terminate; the session's record stays.
				s.m.wg.Add(1)
				go func() { defer s.m.wg.Done(); s.end(context.Background()) }()
			}
		}
		if ev.Event == "continued" {
			s.m.publish(Event{SessionID: s.id, Kind: "continued"})
		}
	}
	// The adapter connection is gone.
	s.mu.Lock()
	if s.outcome == nil || !s.outcome.Completed {
		s.failed = true
		o := s.outcomeLocked()
		if o.ErrorType == "" {
			o.ErrorType = "AdapterExited"
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
	if json.Unmarshal(body, &b) != nil || b.Category == "telemetry" {
		return
	}
	s.output.write(b.Output)
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
// counts, exception details, timings; applies the TCP_NODELAY fix once.
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
		top = &st.StackFrames[0]
		loc.FrameID, loc.Function, loc.Line, loc.Column = top.Id, top.Name, top.Line, top.Column
		if top.Source != nil {
			loc.Path = top.Source.Path
			loc.File = s.rel(top.Source.Path)
		}
	} else if err != nil {
		s.log.Debug("stop location", "err", err)
	}
	if s.kind == "debugpy" {
		s.applyNoDelay(ctx, loc.FrameID)
		if s.smart != nil {
			s.smart.preload(ctx, loc.FrameID)
		}
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
	s.stop = &Stop{Location: loc, Frame: top}
	s.stopGen = gen
	s.notifyLocked()
	s.mu.Unlock()
	s.m.publish(Event{SessionID: s.id, Kind: "stopped", Stop: loc})
	s.m.setActive(s.id)
}

// noDelayExpr sets TCP_NODELAY on pydevd's socket to the adapter. pydevd
// writes header and body in two sends, so without it every small response
// waits for a delayed ACK (~52 ms per evaluate, ~10.5 ms with it).
const noDelayExpr = `(lambda so, w: (w.sock.setsockopt(so.IPPROTO_TCP, so.TCP_NODELAY, 1) if hasattr(w, 'sock') else None) or 'ok')(__import__('socket'), getattr(__import__('pydevd').get_global_debugger(), 'writer', None))`

func (s *Session) applyNoDelay(ctx context.Context, frameID int) {
	s.mu.Lock()
	if !s.noDelay || s.noDelayDone || frameID == 0 {
		s.mu.Unlock()
		return
	}
	s.noDelayDone = true
	s.mu.Unlock()
	err := s.mux.Call(ctx, "evaluate", godap.EvaluateArguments{Expression: noDelayExpr, FrameId: frameID, Context: "hover"}, nil)
	if err != nil {
		s.log.Debug("TCP_NODELAY fix not applied", "err", err) // guarded: never shown to the user
	}
}

func (s *Session) exceptionInfo(ctx context.Context, threadID int) *Outcome {
	var b godap.ExceptionInfoResponseBody
	if err := s.mux.Call(ctx, "exceptionInfo", godap.ExceptionInfoArguments{ThreadId: threadID}, &b); err != nil {
		return &Outcome{ErrorType: "Exception", ErrorMessage: "exception details unavailable: " + err.Error()}
	}
	o := &Outcome{ErrorType: b.ExceptionId, ErrorMessage: b.Description}
	if b.Details != nil {
		o.Traceback = b.Details.StackTrace
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
		timeout = s.m.opts.OpTimeout
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		s.mu.Lock()
		ended := s.ended || s.mux.State().AdapterDead || (s.outcome != nil && s.outcome.Completed)
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

func (s *Session) opCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.m.opts.OpTimeout)
}

// call is mux.Call with the default operation timeout and typed errors.
func (s *Session) call(ctx context.Context, command string, args, out any) error {
	ctx, cancel := s.opCtx(ctx)
	defer cancel()
	err := s.mux.Call(ctx, command, args, out)
	if errors.Is(err, context.DeadlineExceeded) {
		return &Error{Code: CodeTimeout, Message: command + " did not answer within " + s.m.opts.OpTimeout.String()}
	}
	return s.racedResume(command, s.debuggeeErr(command, wrap(err)))
}

func (s *Session) stoppedThread() (int, error) {
	st := s.mux.State()
	if !st.Paused() {
		return 0, &Error{Code: CodeNotPaused, Message: "the debuggee is " + s.Status()}
	}
	return st.StoppedThread, nil
}

// resume sends a resuming command for the stopped thread.
func (s *Session) resume(ctx context.Context, command string) error {
	tid, err := s.stoppedThread()
	if err != nil {
		return err
	}
	gen := s.mux.State().StopCount
	if err := s.call(ctx, command, map[string]any{"threadId": tid}, nil); err != nil {
		return err
	}
	s.markRunning(gen)
	return nil
}

// Continue resumes the debuggee.
func (s *Session) Continue(ctx context.Context) error { return s.resume(ctx, "continue") }

// Step steps over, in or out.
func (s *Session) Step(ctx context.Context, direction string) error {
	cmd, ok := map[string]string{"over": "next", "in": "stepIn", "out": "stepOut"}[direction]
	if !ok {
		return invalid("direction", "must be over, in or out (got %q)", direction)
	}
	return s.resume(ctx, cmd)
}

// Pause interrupts a running debuggee.
func (s *Session) Pause(ctx context.Context) error {
	st := s.mux.State()
	if st.Paused() {
		return nil
	}
	tid := 0
	for id := range st.Threads {
		if tid == 0 || id < tid {
			tid = id
		}
	}
	if tid == 0 {
		var tr godap.ThreadsResponseBody
		if err := s.call(ctx, "threads", nil, &tr); err != nil {
			return err
		}
		if len(tr.Threads) == 0 {
			return &Error{Code: CodeNotFound, Message: "no threads to pause"}
		}
		tid = tr.Threads[0].Id
	}
	return s.call(ctx, "pause", godap.PauseArguments{ThreadId: tid}, nil)
}

// StackTrace returns frames of threadID (0: the stopped thread).
func (s *Session) StackTrace(ctx context.Context, threadID, levels int) ([]godap.StackFrame, error) {
	if threadID == 0 {
		var err error
		if threadID, err = s.stoppedThread(); err != nil {
			return nil, err
		}
	}
	var b godap.StackTraceResponseBody
	if err := s.call(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: threadID, Levels: levels}, &b); err != nil {
		return nil, err
	}
	return b.StackFrames, nil
}

// TopFrame is the top frame of the stopped thread.
func (s *Session) TopFrame(ctx context.Context) (godap.StackFrame, error) {
	frames, err := s.StackTrace(ctx, 0, 1)
	if err != nil {
		return godap.StackFrame{}, err
	}
	if len(frames) == 0 {
		return godap.StackFrame{}, &Error{Code: CodeNotFound, Message: "the stopped thread has no frames"}
	}
	return frames[0], nil
}

// frameOrTop returns frameID, or the top frame's id when it is 0.
func (s *Session) frameOrTop(ctx context.Context, frameID int) (int, error) {
	if frameID != 0 {
		return frameID, nil
	}
	f, err := s.TopFrame(ctx)
	return f.Id, err
}

// Scopes of a frame (0: top frame).
func (s *Session) Scopes(ctx context.Context, frameID int) ([]godap.Scope, error) {
	frameID, err := s.frameOrTop(ctx, frameID)
	if err != nil {
		return nil, err
	}
	var b godap.ScopesResponseBody
	if err := s.call(ctx, "scopes", godap.ScopesArguments{FrameId: frameID}, &b); err != nil {
		return nil, err
	}
	return b.Scopes, nil
}

// Variables of a variables reference.
func (s *Session) Variables(ctx context.Context, ref int) ([]godap.Variable, error) {
	if ref <= 0 {
		return nil, invalid("variables_reference", "must be positive")
	}
	var b godap.VariablesResponseBody
	if err := s.call(ctx, "variables", godap.VariablesArguments{VariablesReference: ref}, &b); err != nil {
		return nil, err
	}
	return b.Variables, nil
}

// Evaluate an expression in a frame (0: top frame). evalContext is DAP's
// context ("repl" when empty).
func (s *Session) Evaluate(ctx context.Context, expr string, frameID int, evalContext string) (godap.EvaluateResponseBody, error) {
	var b godap.EvaluateResponseBody
	if strings.TrimSpace(expr) == "" {
		return b, invalid("expression", "required")
	}
	frameID, err := s.frameOrTop(ctx, frameID)
	if err != nil {
		return b, err
	}
	if evalContext == "" {
		evalContext = "repl"
	}
	err = s.call(ctx, "evaluate", godap.EvaluateArguments{Expression: expr, FrameId: frameID, Context: evalContext}, &b)
	return b, err
}

// SetVariable sets name in the frame's scopes (locals first) and returns
// the previous and new values.
func (s *Session) SetVariable(ctx context.Context, frameID int, name, value string) (old, updated string, err error) {
	if name == "" {
		return "", "", invalid("name", "required")
	}
	scopes, err := s.Scopes(ctx, frameID)
	if err != nil {
		return "", "", err
	}
	for _, sc := range scopes {
		vars, err := s.Variables(ctx, sc.VariablesReference)
		if err != nil {
			continue
		}
		for _, v := range vars {
			if v.Name != name {
				continue
			}
			var b godap.SetVariableResponseBody
			if err := s.call(ctx, "setVariable", godap.SetVariableArguments{VariablesReference: sc.VariablesReference, Name: name, Value: value}, &b); err != nil {
				return v.Value, "", err
			}
			return v.Value, b.Value, nil
		}
	}
	return "", "", &Error{Code: CodeNotFound, Field: "name", Message: "no variable " + name + " in the frame's scopes"}
}

// SetBreakpoints replaces the breakpoints of file, as DAP does.
func (s *Session) SetBreakpoints(ctx context.Context, file string, bps []Breakpoint) ([]BreakpointState, error) {
	abs, err := existingFile(s.workspace, "file", file, false)
	if err != nil {
		return nil, err
	}
	for i := range bps {
		bps[i].File = abs
	}
	if _, err := validateBreakpoints("/", bps, "breakpoints"); err != nil {
		return nil, err
	}
	return s.setBreakpoints(ctx, abs, bps)
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
	var b godap.SetBreakpointsResponseBody
	if err := s.call(ctx, "setBreakpoints", args, &b); err != nil {
		return nil, err
	}
	out := make([]BreakpointState, len(bps))
	s.mu.Lock()
	prev := map[int]int{}
	for _, old := range s.bps[abs] {
		prev[old.Line] = old.HitCount
	}
	for i, bp := range bps {
		st := BreakpointState{Breakpoint: bp, HitCount: prev[bp.Line]}
		if i < len(b.Breakpoints) {
			st.ID, st.Verified, st.Message = b.Breakpoints[i].Id, b.Breakpoints[i].Verified, b.Breakpoints[i].Message
			if b.Breakpoints[i].Line > 0 {
				st.Line = b.Breakpoints[i].Line
			}
		}
		out[i] = st
	}
	if len(out) == 0 {
		delete(s.bps, abs)
	} else {
		s.bps[abs] = append([]BreakpointState(nil), out...)
	}
	s.notifyLocked()
	s.mu.Unlock()
	for i := range out {
		out[i].File = s.rel(out[i].File)
	}
	return out, nil
}

// Breakpoints lists all breakpoints with hit counts.
func (s *Session) Breakpoints() []BreakpointState { return s.Info().Breakpoints }

// Terminate ends the debuggee (for launches) and the adapter; the
// session's status becomes "terminated" (unless it had ended already).
func (s *Session) Terminate(ctx context.Context) error {
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
		if !s.mux.State().AdapterDead {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			_ = s.mux.Call(ctx, "disconnect", godap.DisconnectArguments{TerminateDebuggee: !s.attached}, nil)
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
		s.m.publish(Event{SessionID: s.id, Kind: "terminated"})
	})
	<-s.done
}

// --- inspect.Target ---

// Request sends a DAP request on the shared connection (inspect.Target).
func (s *Session) Request(ctx context.Context, command string, args any, out any) error {
	return s.racedResume(command, s.debuggeeErr(command, wrap(s.mux.Call(ctx, command, args, out))))
}

// Adapter is the adapter kind ("debugpy" or "dlv").
func (s *Session) Adapter() string { return s.kind }

// StopGen numbers the stops (the inspector drops per-stop caches on a new one).
func (s *Session) StopGen() int { return s.mux.State().StopCount }

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
