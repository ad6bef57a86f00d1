// jslocals.go: a JavaScript frame's locals as a person sees them in
// js-debug's Variables view — the Block scopes and the Local scope, nearest
// first, a name shadowed by an inner scope shown once (the inner one); the
// Module scope where there is no Local scope (ES module code); the Closure
// scopes on request — for stop reports, snapshots and debug_variables.
// Each value is the JavaScript probe's one-line summary (one evaluate for
// all of them: tables by shape and nulls, other values by a text cut
// between items), not the adapter's preview cut mid-token. Node's CommonJS
// module wrapper (exports, require, module, __filename, __dirname and its
// this) is left out, as Python's reports leave out the runtime's dunder
// names.

package mcp

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// jsScopes picks a frame's scopes: the locals (Block, Catch, With, Local;
// Module when there is no Local) or the closures.
func jsScopes(scopes []godap.Scope, closures bool) []godap.Scope {
	has := func(name, prefix string) bool { return strings.HasPrefix(strings.ToLower(name), prefix) }
	var out []godap.Scope
	local := false
	for _, sc := range scopes {
		switch {
		case sc.VariablesReference == 0:
		case closures && has(sc.Name, "closure"):
			out = append(out, sc)
		case !closures && (has(sc.Name, "block") || has(sc.Name, "catch") || has(sc.Name, "with") || has(sc.Name, "local")):
			out = append(out, sc)
			local = local || has(sc.Name, "local")
		}
	}
	if !closures && !local {
		for _, sc := range scopes {
			if has(sc.Name, "module") && sc.VariablesReference > 0 {
				out = append(out, sc)
			}
		}
	}
	return out
}

// moduleWrapper are the arguments of Node's CommonJS module wrapper.
var moduleWrapper = []string{"exports", "require", "module", "__filename", "__dirname"}

// jsScopeChoice reads debug_variables' scope for a JavaScript frame: ""
// or "locals" (the merged locals), "closure" or "closures"; ok is false for
// any other name (a scope of its own).
func jsScopeChoice(scopes []godap.Scope, scope string) (picked []godap.Scope, ok bool) {
	switch strings.ToLower(scope) {
	case "", "locals":
		return jsScopes(scopes, false), true
	case "closure", "closures":
		return jsScopes(scopes, true), true
	}
	return nil, false
}

// scopeRefs are the scopes' variables references.
func scopeRefs(scopes []godap.Scope) []int {
	out := make([]int, len(scopes))
	for i, sc := range scopes {
		out[i] = sc.VariablesReference
	}
	return out
}

// jsVariables reads the variables of scopes (their references; one round
// of concurrent requests) and merges them, nearest scope first, each name
// once.
func jsVariables(ctx context.Context, sess *session.Session, refs []int) ([]godap.Variable, error) {
	got := make([][]godap.Variable, len(refs))
	errs := make([]error, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = sess.Variables(ctx, ref)
		}()
	}
	wg.Wait()
	var out []godap.Variable
	seen := map[string]bool{}
	for i := range refs {
		if errs[i] != nil {
			return nil, errs[i]
		}
		for _, v := range got[i] {
			if !seen[v.Name] && !isGroup(v.Name) {
				seen[v.Name] = true
				out = append(out, v)
			}
		}
	}
	if slices.IndexFunc(moduleWrapper, func(n string) bool { return !seen[n] }) < 0 {
		out = slices.DeleteFunc(out, func(v godap.Variable) bool { return v.Name == "this" || slices.Contains(moduleWrapper, v.Name) })
	}
	return out, nil
}

// summariesOf are the probe's summaries of vars by name (those whose name
// is a path and that want takes, every one when want is nil; ONE
// evaluate), bounded by a second inside the debuggee; nil when the probe
// fails.
func summariesOf(ctx context.Context, sess *session.Session, frameID int, vars []godap.Variable, want func(godap.Variable) bool) map[string]inspect.ValueSummary {
	var paths []inspect.Path
	for _, v := range vars {
		if want != nil && !want(v) {
			continue
		}
		if p, err := inspect.ParsePathFor(sess.Language(), v.Name); err == nil {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return nil
	}
	items, err := inspect.Summaries(ctx, sess, frameID, paths, time.Second)
	if err != nil {
		return nil
	}
	out := make(map[string]inspect.ValueSummary, len(items))
	for _, it := range items {
		out[it.Name] = it
	}
	return out
}

// jsLocals reads a JavaScript frame's locals (or closures) for reports:
// at most limit, the rest counted.
func (s *Server) jsLocals(ctx context.Context, sess *session.Session, frameID, limit int, closures bool) ([]VarValue, int, error) {
	scopes, err := sess.Scopes(ctx, frameID)
	if err != nil {
		return nil, 0, err
	}
	vars, err := jsVariables(ctx, sess, scopeRefs(jsScopes(scopes, closures)))
	if err != nil {
		return nil, 0, err
	}
	omitted := max(0, len(vars)-limit)
	vars = vars[:min(len(vars), limit)]
	sums := summariesOf(ctx, sess, frameID, vars, nil)
	out := make([]VarValue, 0, len(vars))
	for _, v := range vars {
		out = append(out, jsValue(v, sums))
	}
	return out, omitted, nil
}

// jsValue is a variable with its summary's line and type, or the adapter's
// value where there is none.
func jsValue(v godap.Variable, sums map[string]inspect.ValueSummary) VarValue {
	vv := varValue(v)
	vv.VariablesReference = 0
	it, ok := sums[v.Name]
	switch {
	case !ok || it.Skipped != "":
	case strings.Contains(it.Error, "is not defined"):
		// listed by the adapter, unknown to the frame's code: V8 keeps no
		// value for it here
		vv.Value, vv.Truncated = "(not available here: uninitialized or optimized away)", false
	case it.Error != "":
		vv.Value, vv.Truncated = "(not read: "+it.Error+")", false
	default:
		if line := it.Line(); line != "" {
			vv.Value, vv.Truncated = line, false
			if it.Type != "" {
				vv.Type = it.Type
			}
		}
	}
	return vv
}
