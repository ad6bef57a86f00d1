// probe_javascript.go: the JavaScript probe (inspect/probe/javascript,
// joined into one function body that returns the probe object): installed
// once per debuggee under globalThis[Symbol.for('dapscope.probe.<hash>')],
// then every call is ONE evaluate in the frame, P.fn(() => NAME, ARGS), whose
// thunks read the names in the frame's own scope; context "clipboard" brings
// the answer (one JSON string) back whole: raw from dapscope's Node adapter
// and js-debug, or as a quoted string literal from adapters that quote it.

package inspect

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/dapscope/dapscope/errcode"
)

// jsSections are the JavaScript probe's sections, in the order they are
// joined.
// guard.js is last: it wraps the entry points the others define.
var jsSections = []string{"core.js", "heap.js", "dates.js", "values.js", "objects.js", "stats.js", "table.js", "rowcheck.js", "libs.js", "order.js", "select.js", "filter.js", "summary.js", "guard.js"}

// jsUsedKeys are the property names the probe's sources name after a dot
// (USED_KEYS: the built-ins' properties guard.js keeps as installed).
func jsUsedKeys(src string) string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range regexp.MustCompile(`\.\s*([A-Za-z_$][\w$]*)`).FindAllStringSubmatch(src, -1) {
		if !seen[m[1]] {
			seen[m[1]] = true
			keys = append(keys, m[1])
		}
	}
	sort.Strings(keys)
	b, _ := json.Marshal(keys)
	return string(b)
}

var jsProbe = func() *probe {
	body := joinSources("probe/javascript", "", jsSections)
	src := "(function () {\n'use strict';\nconst LIMITS = " + ProbeLimits.json() + ";\nconst USED_KEYS = " + jsUsedKeys(body) + ";\n" +
		body + "\nreturn P;\n})()"
	return &probe{
		lang: JavaScript, source: src, slot: slotName("dapscope.probe.", src),
		fns:         []string{"run", "summarize", "select"},
		evalContext: "clipboard",
		expr:        jsCall,
		decode:      jsString,
		evalError:   jsEvalError,
		frameNames:  jsFrameNames,
		summaryType: jsSummaryType,
	}
}()

// jsThunk is the function the probe calls to read name in the frame's
// scope ("undefined" without a name).
func jsThunk(name string) string {
	if name == "" {
		return "undefined"
	}
	return "() => " + name
}

// jsCall builds the evaluate expression calling the probe's entry fn with
// a thunk per root (summarize: an array of thunks; the others: one) and the
// JSON arguments; install defines the probe first when the debuggee does
// not have it.
func jsCall(p *probe, fn string, roots []string, argsJSON string, install bool) string {
	var arg string
	if fn == "summarize" {
		thunks := make([]string, len(roots))
		for i, r := range roots {
			thunks[i] = jsThunk(r)
		}
		arg = "[" + strings.Join(thunks, ", ") + "]"
	} else {
		arg = jsThunk(roots[0])
	}
	// found by its string key: a call finds the probe without calling a
	// function the program could have replaced (Symbol.for); installing it
	// also names it Symbol.for(slot) (install-time calls are the program's
	// built-ins as they are then: guard.js)
	k := jsLiteral(p.slot)
	slot := "globalThis[" + k + "]"
	a := jsLiteral(argsJSON)
	if !install {
		return fmt.Sprintf("((P) => P ? P.%s(%s, %s) : %q)(%s)", fn, arg, a, probeMissing, slot)
	}
	return fmt.Sprintf("((P) => P.%s(%s, %s))(%s || ((v) => (Object.defineProperty(globalThis, Symbol.for(%s), {value: v, configurable: true}), "+
		"Object.defineProperty(globalThis, %s, {value: v, configurable: true}), v))(%s))",
		fn, arg, a, slot, k, k, p.source)
}

// jsLiteral is s as a JavaScript string literal (JSON is valid JavaScript).
func jsLiteral(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
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

// jsEvalError explains an evaluate that failed before the probe could
// answer: the name is not a valid JavaScript identifier (a syntax error), or
// a path's getter ran past the adapter's evaluation timeout.
func jsEvalError(err error, root string) error {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "SyntaxError"):
		return &errcode.Error{Code: errcode.InvalidExpression, Message: fmt.Sprintf("%q is not a JavaScript variable name: %s", root, msg), Hint: expressionHint}
	case strings.Contains(msg, "timed out"):
		return &errcode.Error{Code: errcode.InspectionTimeout, Message: "the evaluation did not finish within the adapter's evaluation timeout (a getter on the path may loop)",
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
