// adapter_namespace.go: the kernel's user namespace as a stopped thread
// while the kernel is idle: thread 1 ("kernel"), one frame ("namespace
// after In[7]"), one scope ("Namespace") whose variables are the user's
// variables as the probe's one-line summaries (one summarize call: type,
// shape, size; no user code runs), and evaluate through the silent,
// traceless Client.Evaluate. The namespace is also an inspect.Target (and
// Transport): the listing runs the probe on the client directly.

package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
)

// namespace serves the idle kernel's requests.
type namespace struct {
	a      *Adapter
	mu     sync.Mutex
	values *sync.Map // the inspector's scratch state; a restart replaces it
}

func (n *namespace) handle(ctx context.Context, command string, raw json.RawMessage) (any, error) {
	switch command {
	case "threads":
		return godap.ThreadsResponseBody{Threads: []godap.Thread{{Id: NamespaceThread, Name: "kernel"}}}, nil
	case "stackTrace":
		if e := n.notIdle(); e != nil {
			return nil, e
		}
		return godap.StackTraceResponseBody{StackFrames: []godap.StackFrame{{Id: NamespaceFrame, Name: n.a.frameName(),
			PresentationHint: "normal"}}, TotalFrames: 1}, nil
	case "scopes":
		var args godap.ScopesArguments
		_ = json.Unmarshal(raw, &args)
		if e := n.checkFrame(args.FrameId); e != nil {
			return nil, e
		}
		return godap.ScopesResponseBody{Scopes: []godap.Scope{{Name: "Namespace", PresentationHint: "locals",
			VariablesReference: NamespaceScope}}}, nil
	case "variables":
		var args godap.VariablesArguments
		_ = json.Unmarshal(raw, &args)
		if args.VariablesReference != NamespaceScope {
			return nil, &errcode.Error{Code: errcode.NotFound, Field: "variablesReference",
				Message: fmt.Sprintf("no variables reference %d in the kernel's namespace (its scope is %d; a paused cell's references end with it)",
					args.VariablesReference, NamespaceScope)}
		}
		items, err := n.list(ctx, false)
		if err != nil {
			return nil, err
		}
		return godap.VariablesResponseBody{Variables: dapVariables(items)}, nil
	case "evaluate":
		var args struct {
			Expression string `json:"expression"`
			FrameID    int    `json:"frameId"`
			Format     struct {
				RawString bool `json:"rawString"`
			} `json:"format"`
		}
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, errcode.Invalid("arguments", "%v", err)
		}
		if e := n.checkFrame(args.FrameID); e != nil && args.FrameID != 0 {
			return nil, e
		}
		if !args.Format.RawString {
			return n.evaluateShown(ctx, args.Expression)
		}
		out, err := n.a.c.Evaluate(ctx, args.Expression, CallOptions{})
		if err != nil {
			return nil, err
		}
		return godap.EvaluateResponseBody{Result: out}, nil
	}
	return nil, n.a.refusal(command)
}

// notIdle is the error of a namespace request while a cell runs.
func (n *namespace) notIdle() *errcode.Error {
	n.a.mu.Lock()
	mode := n.a.mode
	n.a.mu.Unlock()
	switch mode {
	case modeIdle, "":
		return nil
	case modeEnded:
		return &errcode.Error{Code: errcode.DebuggeeExited, Message: "the kernel session has ended: " + n.a.Ended()}
	}
	if e := n.a.Busy(); e != nil {
		return e
	}
	return &errcode.Error{Code: errcode.NotPaused, State: StateBusyCode, Message: "a cell is running in the kernel"}
}

// checkFrame accepts the namespace's frame; another id is a frame of a
// paused cell that has finished.
func (n *namespace) checkFrame(id int) *errcode.Error {
	if id == NamespaceFrame {
		return n.notIdle()
	}
	return &errcode.Error{Code: errcode.NotPaused, State: modeIdle,
		Message: fmt.Sprintf("frame %d is gone: the paused cell went on; the kernel's namespace is frame %d", id, NamespaceFrame)}
}

// list summarises the namespace's variables: the user's, or every name.
func (n *namespace) list(ctx context.Context, all bool) ([]inspect.ValueSummary, error) {
	return inspect.SummariesWith(ctx, n, NamespaceFrame, nil, inspect.SummaryOptions{Timeout: n.a.opts.SummaryTimeout, All: all})
}

// dapVariables are the namespace's variables as DAP has them: the value is
// the one-line summary, the type the short type name.
func dapVariables(items []inspect.ValueSummary) []godap.Variable {
	out := make([]godap.Variable, 0, len(items))
	for _, it := range items {
		v := it.Line()
		switch {
		case it.Skipped != "":
			v = "(not read: " + it.Skipped + ")"
		case it.Error != "":
			v = "(not read: " + it.Error + ")"
		}
		out = append(out, godap.Variable{Name: it.Name, Value: v, Type: ShortType(it.Type), EvaluateName: it.Name})
	}
	return out
}

// ShortType is a qualified type name's last part (pandas.core.frame.DataFrame → DataFrame).
func ShortType(t string) string {
	if i := strings.LastIndexByte(t, '.'); i >= 0 {
		return t[i+1:]
	}
	return t
}

// frameName names the namespace's frame by the last cell that ran.
func (a *Adapter) frameName() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.count > 0 {
		return fmt.Sprintf("namespace after In[%d]", a.count)
	}
	return "namespace"
}

// --- inspect.Target ---

// Request serves the inspector's DAP requests on the namespace.
func (n *namespace) Request(ctx context.Context, command string, args any, out any) error {
	raw, err := json.Marshal(args)
	if err != nil {
		return err
	}
	body, err := n.handle(ctx, command, raw)
	if err != nil {
		if e := typed(err); e != nil {
			return e
		}
		return err
	}
	if out == nil {
		return nil
	}
	b, err := json.Marshal(body)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, out)
}

// EvaluateProbe sends a probe call as one silent evaluation
// (inspect.Transport): the probe's answer is a str, returned whole.
func (n *namespace) EvaluateProbe(ctx context.Context, req inspect.EvalRequest) (string, error) {
	out, err := n.a.c.Evaluate(ctx, req.Expression, CallOptions{})
	if err != nil {
		if e := typed(err); e != nil {
			return "", e
		}
		return "", &errcode.Error{Code: errcode.Internal, Message: "the probe raised in the kernel: " + err.Error()}
	}
	return out, nil
}

func (n *namespace) Language() inspect.Language { return inspect.Python }

func (n *namespace) Paused() (int, bool) { return NamespaceThread, n.notIdle() == nil }

func (n *namespace) Status() string {
	n.a.mu.Lock()
	defer n.a.mu.Unlock()
	return n.a.mode
}

// NotPaused explains why the namespace cannot be read now.
func (n *namespace) NotPaused() *errcode.Error { return n.notIdle() }

// Values is the inspector's scratch state for this kernel process.
func (n *namespace) Values() *sync.Map {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.values == nil {
		n.values = &sync.Map{}
	}
	return n.values
}

// reset forgets the inspector's state (a restarted kernel lost the probe).
func (n *namespace) reset() {
	n.mu.Lock()
	n.values = nil
	n.mu.Unlock()
}
