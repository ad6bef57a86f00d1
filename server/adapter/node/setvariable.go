// setvariable.go: setVariable (a scope's variable through
// Debugger.setVariableValue, an object's property or array element by
// assignment) and setExpression (an assignment evaluated in the frame); the
// new value is an expression evaluated in the stopped frame.

package node

import (
	"context"
	"errors"
	"strconv"

	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// setPropertyFn assigns a property of this.
const setPropertyFn = `function(k, v) { this[k] = v; }`

func (s *Server) setVariable(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.SetVariableArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	ref, th, err := live[*varRef](s, "variablesReference", a.VariablesReference)
	if err != nil {
		return nil, err
	}
	c := th.c
	frame := ref.frame
	if frame == nil {
		s.mu.Lock()
		if th.paused != nil {
			frame = th.paused.CallFrames[0]
		}
		s.mu.Unlock()
	}
	if frame == nil {
		return nil, errNotPaused
	}
	val, err := s.evalIn(ctx, c, frame, a.Value)
	if err != nil {
		return nil, err
	}
	arg := callArg(val)
	if ref.isScope {
		if _, err := call(ctx, c, debugger.SetVariableValue, debugger.SetVariableValueParams{ScopeNumber: int64(ref.scope),
			VariableName: a.Name, NewValue: arg, CallFrameID: frame.CallFrameID}); err != nil {
			return nil, err
		}
	} else {
		res, err := call(ctx, c, runtime.CallFunctionOn, runtime.CallFunctionOnParams{FunctionDeclaration: setPropertyFn,
			ObjectID: ref.object, Silent: ptr(true),
			Arguments: []*runtime.CallArgument{{Value: []byte(strconv.Quote(a.Name))}, arg}})
		if err != nil {
			return nil, err
		}
		if res.ExceptionDetails != nil {
			return nil, errors.New(exceptionMessage(res.ExceptionDetails))
		}
	}
	v := s.variable(th, a.Name, val, "")
	return godap.SetVariableResponseBody{Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference,
		IndexedVariables: v.IndexedVariables}, nil
}

func (s *Server) setExpression(ctx context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.SetExpressionArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	fr, th, err := live[frameRef](s, "frame", a.FrameId)
	if err != nil {
		return nil, err
	}
	val, err := s.evalIn(ctx, th.c, fr.frame, a.Expression+" = ("+a.Value+"\n)")
	if err != nil {
		return nil, err
	}
	v := s.variable(th, "", val, a.Expression)
	return godap.SetExpressionResponseBody{Value: v.Value, Type: v.Type, VariablesReference: v.VariablesReference,
		IndexedVariables: v.IndexedVariables}, nil
}

// evalIn evaluates expr in frame, bounded by the evaluation timeout.
func (s *Server) evalIn(ctx context.Context, c caller, frame *debugger.CallFrame, expr string) (*runtime.RemoteObject, error) {
	r, err := call(ctx, c, debugger.EvaluateOnCallFrame, debugger.EvaluateOnCallFrameParams{CallFrameID: frame.CallFrameID,
		Expression: expr, ObjectGroup: objectGroup, Silent: ptr(true), GeneratePreview: ptr(true),
		Timeout: runtime.TimeDelta(s.opts.EvalTimeout.Milliseconds())})
	if err != nil {
		return nil, evalErr(err)
	}
	if r.ExceptionDetails != nil {
		return nil, errors.New(exceptionMessage(r.ExceptionDetails))
	}
	return r.Result, nil
}

// callArg passes a value back into the debuggee.
func callArg(o *runtime.RemoteObject) *runtime.CallArgument {
	switch {
	case o == nil || o.Type == runtime.RemoteObjectTypeUndefined:
		return &runtime.CallArgument{}
	case o.ObjectID != "":
		return &runtime.CallArgument{ObjectID: o.ObjectID}
	case o.UnserializableValue != "":
		return &runtime.CallArgument{UnserializableValue: o.UnserializableValue}
	}
	return &runtime.CallArgument{Value: o.Value}
}
