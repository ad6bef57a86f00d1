// sideeffect.go: evaluations under V8's side-effect check, which a browse
// filter of the JavaScript probe runs in (filter.js writes its
// expression): the transport is asked for EvalRequest.SideEffectFree, and
// once per debuggee the driver proves that the check is really made — a
// canary evaluate that writes to the probe's own object must be refused —
// so an adapter that ignores the request can never run a filter with its
// side effects. Errors are told in a filter's words.

package inspect

import (
	"context"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
)

// checkedKey marks, in Target.Values, a debuggee whose transport was seen
// refusing a write under SideEffectFree.
const checkedKey = "inspect.sideEffectChecked"

// filterHint says what a JavaScript filter may be.
const filterHint = `a JavaScript expression over the row's fields, e.g. qty > 5 && city === "Nice" ($row is the row, $i its position); ` +
	"it may read anything and call functions without side effects, never assign or call one that writes"

// jsCanary writes to the probe's own object, found by its string key:
// refused under the check; otherwise it answers "unchecked" and the write
// touched nothing of the program's.
func jsCanary(slot string) string {
	return "(() => { const p = globalThis[" + jsLiteral(slot) + "]; if (p) p.canary = 1; " + `return "unchecked"; })()`
}

// sideEffectRefused reports an evaluate ended by the side-effect check.
func sideEffectRefused(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "side-effect") || strings.Contains(msg, "side effect")
}

// evalChecked evaluates expr in the frame under the side-effect check,
// after the canary has shown (once per debuggee) that the check is made.
func evalChecked(ctx context.Context, t Target, p *probe, frameID int, expr string) (string, error) {
	ctx = asProbeCall(ctx) // side-effect checked: it changes nothing
	tr := transportOf(t)
	req := EvalRequest{FrameID: frameID, Context: p.evalContext, RawString: p.raw, SideEffectFree: true}
	if v, _ := t.Values().Load(checkedKey); v != true {
		req.Expression = jsCanary(p.slot)
		_, err := tr.EvaluateProbe(ctx, req)
		switch {
		case err == nil:
			return "", &errcode.Error{Code: errcode.NotSupported,
				Message: "this session's adapter evaluates without V8's side-effect check (a write went through), so a filter could change the program: filters are refused",
				Hint:    "browse without a filter, or debug with dapscope's Node adapter (or js-debug with its CDP proxy)"}
		case !sideEffectRefused(err):
			return "", err
		}
		t.Values().Store(checkedKey, true)
	}
	req.Expression = expr
	out, err := tr.EvaluateProbe(ctx, req)
	if err != nil {
		return "", err
	}
	return p.decode(out), nil
}

// filterRows runs a filter's expression (from the probe) and returns its
// answer for the probe's next select call; a refused or broken filter is
// INVALID_EXPRESSION saying why.
func filterRows(ctx context.Context, t Target, p *probe, frameID int, filter, expr string) (string, error) {
	out, err := evalChecked(ctx, t, p, frameID, expr)
	if err == nil {
		return out, nil
	}
	if ie := errcode.As(err); ie != nil && ie.Code != errcode.EvaluationError && ie.Code != errcode.AdapterError {
		return "", err
	}
	what := "filter " + pyQuote(clip.Runes.Fit(filter, 200))
	msg := err.Error()
	if ie := errcode.As(err); ie != nil {
		msg = ie.Message
	}
	msg, _, _ = strings.Cut(msg, "\n") // an exception's first line, not its stack
	switch {
	case ctx.Err() != nil:
		return "", err
	case sideEffectRefused(err):
		return "", &errcode.Error{Code: errcode.InvalidExpression, Message: what + " was refused: it could change the program (V8's side-effect check stops assignments, ++, delete and calls of functions that write)", Hint: filterHint}
	case strings.Contains(msg, "timed out"):
		return "", &errcode.Error{Code: errcode.InspectionTimeout, Message: what + " did not finish within the adapter's evaluation timeout", Hint: "filter fewer rows, or use a cheaper test (dates: d.getTime() > ms is cheaper than d > date)"}
	}
	return "", &errcode.Error{Code: errcode.InvalidExpression, Message: what + ": " + clip.Runes.Fit(msg, 300), Hint: filterHint}
}

// pyQuote quotes s as Python's repr of a str does (single quotes), as the
// probes quote a filter in their messages.
func pyQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}
