// This file drives the JavaScript probe (probe_core.js, probe_values.js,
// probe_table.js, probe_libs.js and probe_summary.js, embedded and concatenated into one
// function body) through a Node session: the probe is installed once per
// debuggee under globalThis[Symbol.for('dapscope.probe.<hash>')] (the hash
// of its source, so a new sidecar never talks to a stale probe), then every
// inspection is ONE evaluate in the frame, P.run(() => NAME, ARGS), with
// context "clipboard" so that the answer (one JSON string) comes back whole:
// raw from dapscope's Node adapter and js-debug, or as a quoted string
// literal from adapters that quote it.

package inspect

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
)

var (
	//go:embed probe_core.js
	jsCore string
	//go:embed probe_values.js
	jsValues string
	//go:embed probe_table.js
	jsTable string
	//go:embed probe_libs.js
	jsLibs string
	//go:embed probe_summary.js
	jsSummary string
)

// jsProbeSource is the probe: an expression whose value is the probe object.
var jsProbeSource = "(function () {\n'use strict';\n" + jsCore + "\n" + jsValues + "\n" + jsTable + "\n" + jsLibs + "\n" + jsSummary + "\nreturn P;\n})()"

// jsProbeKey names the probe's global slot; it changes with the source.
var jsProbeKey = func() string {
	h := sha256.Sum256([]byte(jsProbeSource))
	return "dapscope.probe." + hex.EncodeToString(h[:6])
}()

// JSProbeSource returns the JavaScript probe (an expression evaluating to
// the probe object), for tests that run it outside a debugger.
func JSProbeSource() string { return jsProbeSource }

// jsThunk is the function the probe calls to read name in the frame's
// scope ("undefined" without a name).
func jsThunk(name string) string {
	if name == "" {
		return "undefined"
	}
	return "() => " + name
}

// jsProbeCall builds the evaluate expression calling the probe's entry fn
// with arg (a thunk, or an array of thunks) and the JSON arguments; install
// defines the probe first when the debuggee does not have it.
func jsProbeCall(fn, arg, argsJSON string, install bool) string {
	slot := "globalThis[Symbol.for(" + jsLiteral(jsProbeKey) + ")]"
	a := jsLiteral(argsJSON)
	if !install {
		return fmt.Sprintf("((P) => P ? P.%s(%s, %s) : %q)(%s)", fn, arg, a, probeMissing, slot)
	}
	return fmt.Sprintf("((P) => P.%s(%s, %s))(%s || Object.defineProperty(globalThis, Symbol.for(%s), {value: %s, configurable: true})[Symbol.for(%s)])",
		fn, arg, a, slot, jsLiteral(jsProbeKey), jsProbeSource, jsLiteral(jsProbeKey))
}

// jsLiteral is s as a JavaScript string literal (JSON is valid JavaScript).
func jsLiteral(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func inspectJS(ctx context.Context, t Target, frameID int, path Path, opts Options) (*Result, error) {
	root := path[0].Value.(string)
	out, err := callJSProbe(ctx, t, frameID, "run", jsThunk(root), ProbeArgsJSON(path, opts))
	if err != nil {
		return nil, jsEvalError(err, root)
	}
	res, err := DecodeProbeResult(out)
	if err != nil {
		return nil, err
	}
	if res.Error != nil {
		if res.Error.Code == CodeVariableNotFound && len(path) == 1 && res.Error.AvailableVariables == nil {
			res.Error.AvailableVariables = jsFrameNames(ctx, t, frameID)
		}
		return nil, res.Error
	}
	res.Source = "probe"
	res.Language = "javascript"
	if opts.Reference {
		res.VariablesReference = variablesReference(ctx, t, frameID, path.JSExpr())
	}
	return res, nil
}

// callJSProbe evaluates the probe's entry fn in the frame with arg (see
// jsProbeCall) and returns its JSON answer, installing the probe when this
// session has not (or the debuggee lost it: a new process).
func callJSProbe(ctx context.Context, t Target, frameID int, fn, arg, argsJSON string) (string, error) {
	key := "inspect.jsprobe." + jsProbeKey
	_, loaded := t.Values().Load(key)
	out, err := evalJSProbe(ctx, t, frameID, jsProbeCall(fn, arg, argsJSON, !loaded))
	if err == nil && out == probeMissing {
		out, err = evalJSProbe(ctx, t, frameID, jsProbeCall(fn, arg, argsJSON, true))
	}
	if err == nil {
		t.Values().Store(key, true)
	}
	return out, err
}

func evalJSProbe(ctx context.Context, t Target, frameID int, expr string) (string, error) {
	var body evaluateBody
	if err := t.Request(ctx, "evaluate", evaluateArgs{Expression: expr, FrameID: frameID, Context: "clipboard"}, &body); err != nil {
		return "", err
	}
	return jsString(body.Result), nil
}

// jsString accepts the answer raw (dapscope's adapter and js-debug return a
// clipboard string as it is) or as a quoted JavaScript string literal.
func jsString(s string) string {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') && s[len(s)-1] == s[0] {
		inner := s[1 : len(s)-1]
		if s[0] == '\'' {
			inner = strings.ReplaceAll(strings.ReplaceAll(inner, `\'`, `'`), `"`, `\"`)
		}
		var out string
		if err := json.Unmarshal([]byte(`"`+inner+`"`), &out); err == nil {
			return out
		}
	}
	return s
}

// jsSummaries calls the probe's summarize for paths in ONE evaluate: one
// thunk per path reads its root in the frame; the probe walks the rest.
func jsSummaries(ctx context.Context, t Target, frameID int, paths []Path, argsJSON string) (string, error) {
	thunks := make([]string, len(paths))
	for i, p := range paths {
		thunks[i] = jsThunk(p[0].Value.(string))
	}
	return callJSProbe(ctx, t, frameID, "summarize", "["+strings.Join(thunks, ", ")+"]", argsJSON)
}

// jsEvalError explains an evaluate that failed before the probe could
// answer: the name is not a valid JavaScript identifier (a syntax error), or
// a path's getter ran past the adapter's evaluation timeout.
func jsEvalError(err error, root string) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "SyntaxError"):
		return &Error{Code: CodeInvalidExpression, Message: fmt.Sprintf("%q is not a JavaScript variable name: %s", root, msg), Hint: expressionHint}
	case strings.Contains(msg, "timed out"):
		return &Error{Code: CodeInspectionTimeout, Message: "the evaluation did not finish within the adapter's evaluation timeout (a getter on the path may loop)",
			Hint: "the session stays usable; inspect the object above the getter instead"}
	}
	return err
}

// JSExpr renders the path in JavaScript syntax.
func (p Path) JSExpr() string {
	out, _ := p.render(func(v any) (string, error) {
		if s, ok := v.(string); ok {
			return jsLiteral(s), nil
		}
		return fmt.Sprint(v), nil
	})
	return out
}

type scopesBody struct {
	Scopes []struct {
		Name               string `json:"name"`
		PresentationHint   string `json:"presentationHint"`
		VariablesReference int    `json:"variablesReference"`
		Expensive          bool   `json:"expensive"`
	} `json:"scopes"`
}

type variablesBody struct {
	Variables []struct {
		Name string `json:"name"`
	} `json:"variables"`
}

// jsFrameNames lists the names visible in the frame (its scopes but the
// global one), for VARIABLE_NOT_FOUND: JavaScript cannot enumerate a scope
// from inside, so they come from the adapter's scopes and variables.
func jsFrameNames(ctx context.Context, t Target, frameID int) []string {
	var sc scopesBody
	if err := t.Request(ctx, "scopes", map[string]int{"frameId": frameID}, &sc); err != nil {
		return nil
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range sc.Scopes {
		if s.Expensive || strings.EqualFold(s.Name, "global") || s.VariablesReference == 0 {
			continue
		}
		var vb variablesBody
		if err := t.Request(ctx, "variables", map[string]int{"variablesReference": s.VariablesReference}, &vb); err != nil {
			continue
		}
		for _, v := range vb.Variables {
			if !seen[v.Name] && v.Name != "this" && !strings.HasPrefix(v.Name, "[[") {
				seen[v.Name] = true
				out = append(out, v.Name)
			}
		}
		if len(out) >= 50 {
			return out[:50]
		}
	}
	return out
}
