// evaluate.go: evaluate in a stack frame (Debugger.evaluateOnCallFrame, on
// the frame's thread: a worker's frames evaluate in the worker) or
// globally (Runtime.evaluate on the main thread, also while the program
// runs), bounded by a timeout inside V8 (a runaway loop is terminated, the
// session goes on), side-effect free for hovers and any evaluate with
// dapscope's "throwOnSideEffect": true (a hover of a string too long to
// read is read again cut), and a thrown exception as an error; a
// clipboard evaluation answers a string raw and untruncated.

package node

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// evaluateArguments are DAP's plus dapscope's throwOnSideEffect (any
// context): V8's side-effect check, which a browse filter runs under.
type evaluateArguments struct {
	godap.EvaluateArguments
	ThrowOnSideEffect bool `json:"throwOnSideEffect,omitempty"`
}

func (s *Server) evaluate(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var ea evaluateArguments
	if err := args(raw, &ea); err != nil {
		return nil, err
	}
	a := ea.EvaluateArguments
	checked := a.Context == "hover" || ea.ThrowOnSideEffect
	th := s.mainThread()
	var frame *debugger.CallFrame
	if a.FrameId > 0 {
		fr, fth, ok := handle[frameRef](s, a.FrameId)
		if !ok {
			return nil, s.staleErr("frame", a.FrameId)
		}
		th, frame = fth, fr.frame
	}
	if th == nil {
		_, err := s.inspector()
		return nil, err
	}
	res, exc, err := s.eval(ctx, th, frame, a.Expression, a.Context, checked)
	if checked && errors.Is(err, errTooLarge) {
		// A checked evaluate is side-effect free: read the value again, a
		// long string cut inside V8.
		res, exc, err = s.eval(ctx, th, frame, "((v) => typeof v === 'string' && v.length > "+itoa(longString)+
			" ? v.slice(0, "+itoa(cutString)+") : v)(("+a.Expression+"\n))", a.Context, checked)
	}
	if err != nil {
		return nil, err
	}
	if exc != nil {
		return nil, errors.New(exceptionMessage(exc))
	}
	// A clipboard string is the text itself, unquoted and whole (as in
	// js-debug): what is copied, and how the smart-inspect probe answers.
	// It is a probe's page or inspection (kilobytes to megabytes), not a
	// value to show (no quoted, cut text of it): V8's JSON string literal
	// goes into the DAP body as it came, never decoded and re-encoded here.
	if a.Context == "clipboard" && res != nil && res.Type == runtime.RemoteObjectTypeString && jsonString(res.Value) {
		return clipboardBody{Result: json.RawMessage(res.Value), Type: typeName(res)}, nil
	}
	max := maxValue
	if a.Context == "repl" || a.Context == "clipboard" {
		max = maxFullStr
	}
	v := s.variable(th, "", res, a.Expression)
	if res != nil {
		v.Value = valueText(res, max)
	}
	return godap.EvaluateResponseBody{Result: v.Value, Type: v.Type, VariablesReference: v.VariablesReference,
		IndexedVariables: v.IndexedVariables}, nil
}

// clipboardBody is DAP's EvaluateResponseBody for a clipboard string: its
// result is V8's JSON string literal, passed through.
type clipboardBody struct {
	Result             json.RawMessage `json:"result"`
	Type               string          `json:"type,omitempty"`
	VariablesReference int             `json:"variablesReference"`
}

// appendJSON writes the body with its result as V8 sent it: a JSON string
// literal the inspector's decoder has validated (jsonString), which
// encoding/json would only scan again (a clipboard answer of 10 KB: ~75
// µs, on every probe call).
func (b clipboardBody) appendJSON(dst []byte) []byte {
	dst = append(append(dst, `{"result":`...), b.Result...)
	if b.Type != "" {
		t, _ := json.Marshal(b.Type)
		dst = append(append(dst, `,"type":`...), t...)
	}
	dst = append(dst, `,"variablesReference":`...)
	return append(strconv.AppendInt(dst, int64(b.VariablesReference), 10), '}')
}

// jsonString reports whether v is a JSON string literal (a string
// RemoteObject's value; anything else is decoded the ordinary way).
func jsonString(v []byte) bool { return len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' }

// eval evaluates expr in frame of th (nil: globally), bounded by the
// evaluation timeout inside V8; checked runs it under V8's side-effect
// check.
func (s *Server) eval(ctx context.Context, th *thread, frame *debugger.CallFrame, expr, evalContext string, checked bool) (*runtime.RemoteObject, *runtime.ExceptionDetails, error) {
	timeout := runtime.TimeDelta(s.opts.EvalTimeout.Milliseconds())
	repl := evalContext == "repl"
	if frame != nil {
		r, err := call(ctx, th.c, debugger.EvaluateOnCallFrame, debugger.EvaluateOnCallFrameParams{
			CallFrameID: frame.CallFrameID, Expression: expr, ObjectGroup: objectGroup,
			Silent: ptr(true), GeneratePreview: ptr(true), ThrowOnSideEffect: ptr(checked),
			IncludeCommandLineAPI: ptr(repl), Timeout: timeout})
		if err != nil {
			return nil, nil, evalErr(err)
		}
		return r.Result, r.ExceptionDetails, nil
	}
	r, err := call(ctx, th.c, runtime.Evaluate, runtime.EvaluateParams{Expression: expr,
		ObjectGroup: objectGroup, Silent: ptr(true), GeneratePreview: ptr(true), ThrowOnSideEffect: ptr(checked),
		IncludeCommandLineAPI: ptr(repl), Timeout: timeout})
	if err != nil {
		return nil, nil, evalErr(err)
	}
	return r.Result, r.ExceptionDetails, nil
}

// evalErr explains an inspector error of an evaluation.
func evalErr(err error) error {
	var ce *CDPError
	switch {
	case errors.As(err, &ce) && strings.Contains(ce.Message, "only perform operation while paused"):
		return errNotPaused
	case errors.As(err, &ce) && strings.Contains(ce.Message, "Execution was terminated"):
		return errors.New("evaluation timed out (terminated)")
	}
	return err
}

// exceptionMessage is the first line of a thrown value ("ReferenceError:
// x is not defined"); a runaway evaluation says it timed out.
func exceptionMessage(e *runtime.ExceptionDetails) string {
	if e.Exception != nil {
		desc := e.Exception.Description
		if desc == "" {
			desc = valueText(e.Exception, maxValue)
		}
		first, _, _ := strings.Cut(desc, "\n")
		if first == "" && e.Text != "" {
			first = e.Text
		}
		if strings.Contains(first, "Execution was terminated") {
			return "evaluation timed out (terminated)"
		}
		if strings.Contains(first, "EvalError: Possible side-effect") {
			return "not evaluated: it may have side effects (hover evaluations are side-effect free)"
		}
		return first
	}
	if e.Text != "" {
		return e.Text
	}
	return fmt.Sprintf("exception at line %d", e.LineNumber+1)
}
