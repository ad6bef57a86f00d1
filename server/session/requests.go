// requests.go: the requests a client of the session API sends — continue,
// step, pause, stack traces, scopes, variables, evaluate, setVariable,
// setBreakpoints — with the default operation timeout, typed errors, and
// a fast NOT_PAUSED when a request needs a stopped thread.

package session

import (
	"context"
	"errors"
	"path/filepath"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/adapter"
	godap "github.com/google/go-dap"
)

func (s *Session) opCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.cfg.opTimeout)
}

// call is mux.Call with the default operation timeout and typed errors.
func (s *Session) call(ctx context.Context, command string, args, out any) error {
	if err := s.bridgeRefuses(command); err != nil {
		return err
	}
	if err := s.kernelRefuses(command); err != nil {
		return err
	}
	ctx, cancel := s.opCtx(ctx)
	defer cancel()
	gen := s.StopCount()
	err := s.mux.Call(ctx, command, args, out)
	if errors.Is(err, context.DeadlineExceeded) {
		return &errcode.Error{Code: errcode.Timeout, Message: command + " did not answer within " + s.cfg.opTimeout.String()}
	}
	return s.explainNotPaused(s.racedResume(command, gen, s.debuggeeErr(command, wrap(err))))
}
func (s *Session) stoppedThread() (int, error) {
	st := s.mux.State()
	if !st.Paused() {
		if e := s.kernelBusy(); e != nil {
			return 0, e
		}
		return 0, &errcode.Error{Code: errcode.NotPaused, Message: NotPausedText(s.Status())}
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
		return errcode.Invalid("direction", "must be over, in or out (got %q)", direction)
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
			return &errcode.Error{Code: errcode.NotFound, Message: "no threads to pause"}
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
	gen := s.StopCount()
	var b godap.StackTraceResponseBody
	if err := s.call(ctx, "stackTrace", godap.StackTraceArguments{ThreadId: threadID, Levels: levels}, &b); err != nil {
		return nil, err
	}
	if s.bridge == nil {
		s.canonFrames(gen, threadID, 0, b.StackFrames) // one id per frame for the stop (frames.go)
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
		return godap.StackFrame{}, &errcode.Error{Code: errcode.NotFound, Message: "the stopped thread has no frames"}
	}
	return frames[0], nil
}

// frameOrTop returns frameID once it is known to be a frame of the
// current stop, or the top frame's id when it is 0.
func (s *Session) frameOrTop(ctx context.Context, frameID int) (int, error) {
	if frameID != 0 {
		return frameID, s.checkFrame(ctx, frameID)
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
		return nil, errcode.Invalid("variables_reference", "must be positive")
	}
	var b godap.VariablesResponseBody
	if err := s.call(ctx, "variables", godap.VariablesArguments{VariablesReference: ref}, &b); err != nil {
		return nil, err
	}
	return b.Variables, nil
}

// Evaluate an expression in a frame (0: top frame). evalContext is DAP's
// context (when empty: "repl"; "watch" for lldb, whose REPL runs a word
// that names an lldb command, n or c, as that command).
func (s *Session) Evaluate(ctx context.Context, expr string, frameID int, evalContext string) (godap.EvaluateResponseBody, error) {
	var b godap.EvaluateResponseBody
	if strings.TrimSpace(expr) == "" {
		return b, errcode.Invalid("expression", "required")
	}
	frameID, err := s.frameOrTop(ctx, frameID)
	if err != nil {
		return b, err
	}
	if evalContext == "" {
		evalContext = "repl"
		if s.kind == adapter.LLDB {
			evalContext = "watch"
		}
	}
	err = s.call(ctx, "evaluate", godap.EvaluateArguments{Expression: expr, FrameId: frameID, Context: evalContext}, &b)
	return b, evaluationError(err)
}

// SetVariable sets name in the frame's scopes (locals first) and returns
// the previous and new values.
func (s *Session) SetVariable(ctx context.Context, frameID int, name, value string) (old, updated string, err error) {
	if name == "" {
		return "", "", errcode.Invalid("name", "required")
	}
	if err := s.bridgeRefuses("setVariable"); err != nil {
		return "", "", err
	}
	if err := s.kernelRefuses("setVariable"); err != nil {
		return "", "", err
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
			// lldb-dap 19 names the new value "result" instead of "value".
			var b struct {
				Value  string `json:"value"`
				Result string `json:"result"`
			}
			if err := s.call(ctx, "setVariable", godap.SetVariableArguments{VariablesReference: sc.VariablesReference, Name: name, Value: value}, &b); err != nil {
				return v.Value, "", err
			}
			if b.Value == "" {
				b.Value = b.Result
			}
			return v.Value, b.Value, nil
		}
	}
	return "", "", &errcode.Error{Code: errcode.NotFound, Field: "name", Message: "no variable " + name + " in the frame's scopes"}
}

// SetBreakpoints replaces the breakpoints of file, as DAP does.
func (s *Session) SetBreakpoints(ctx context.Context, file string, bps []Breakpoint) ([]BreakpointState, error) {
	if err := s.bridgeRefuses("setBreakpoints"); err != nil {
		return nil, err
	}
	if err := s.kernelRefuses("setBreakpoints"); err != nil {
		return nil, err
	}
	abs, err := existingFile(s.cfg.workspace, "file", file, false)
	if err != nil {
		return nil, err
	}
	for i := range bps {
		bps[i].File = abs
	}
	// The files are resolved already: the root of abs's volume ("/"; C:\
	// or \\server\share\ on Windows) stands for the workspace.
	if _, err := validateBreakpoints(filepath.VolumeName(abs)+string(filepath.Separator), bps, "breakpoints"); err != nil {
		return nil, err
	}
	states, err := s.setBreakpoints(ctx, abs, bps)
	if err == nil {
		s.childrenSetBreakpoints(ctx, abs, bps) // as in VS Code: the tree's (children.go)
	}
	return states, err
}
