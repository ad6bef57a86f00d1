// variables.go: reading a scope's variables as the program has them. The
// debug_variables tree: library values (DataFrames, arrays, tensors) read
// as one-line summaries from one probe call, not as cut-off reprs, and not
// expanded into their internals; the second level fetched in one round of
// concurrent requests; a byte budget before any count. Counts: debugpy
// files a scope's functions, classes and dunder names under group entries
// ("function variables", "class variables", "special variables"); a count
// of the program's variables looks inside the groups and leaves out only
// the dunder names the runtime defines (__name__, __file__, …).

package mcp

import (
	"context"
	"fmt"
	"strings"
	"sync"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/session"
)

// Bounds of the debug_variables tree beyond counts.
const (
	maxVarBytes       = 12 << 10 // names, types and values of the whole tree
	maxVarConcurrency = 8        // second-level requests in flight
)

// readVariables fills r with the variables of refs (several: merged, the
// first one's names first; names: only those), depth 1 or 2, at most
// maxItems per level, within maxVarBytes.
func (s *Server) readVariables(ctx context.Context, sess *session.Session, refs []int, names []string, depth, maxItems int, r *VariablesResult) error {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = false
	}
	var vars []godap.Variable
	var err error
	if len(refs) == 1 {
		vars, err = sess.Variables(ctx, refs[0])
	} else {
		vars, err = jsVariables(ctx, sess, refs)
	}
	if err != nil {
		return err
	}
	var picked []godap.Variable
	for _, v := range vars {
		if isGroup(v.Name) {
			continue
		}
		if len(want) > 0 {
			if _, ok := want[v.Name]; !ok {
				continue
			}
			want[v.Name] = true
		}
		if len(picked) == maxItems {
			r.Omitted++
			continue
		}
		picked = append(picked, v)
	}
	for _, n := range sortedKeys(want) {
		if !want[n] {
			r.Missing = append(r.Missing, n)
		}
	}
	summaries := s.librarySummaries(ctx, sess, r.FrameID, picked)
	// At depth 2 the first level may take half the budget: the second
	// level is what was asked for.
	budget, first := maxVarBytes, maxVarBytes
	if depth > 1 {
		first = maxVarBytes / 2
	}
	var expand []int // indexes into r.Variables
	cutFirst := false
	var library []string
	for _, v := range picked {
		vv := varValue(v)
		if line, ok := summaries[v.Name]; ok {
			vv.Value, vv.Truncated = line, false
		}
		cost := len(vv.Name) + len(vv.Type) + len(vv.Value) + 32
		if cost > first {
			r.Omitted++
			cutFirst = true
			continue
		}
		first -= cost
		budget -= cost
		if depth > 1 && v.VariablesReference > 0 {
			if inspect.LibraryType(v.Type) {
				library = append(library, v.Name)
			} else if len(expand) < maxVarExpansions {
				expand = append(expand, len(r.Variables))
			}
		}
		r.Variables = append(r.Variables, vv)
	}
	if len(library) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("not expanded (library internals): %s; use debug_inspect_variable", strings.Join(library, ", ")))
	}
	// The second level: one round of concurrent requests, then the budget
	// in order.
	kids := make([][]godap.Variable, len(expand))
	var wg sync.WaitGroup
	sem := make(chan struct{}, maxVarConcurrency)
	for i, at := range expand {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			kids[i], _ = sess.Variables(ctx, r.Variables[at].VariablesReference)
		}()
	}
	wg.Wait()
	cut := 0
	for i, at := range expand {
		vv := &r.Variables[at]
		for _, k := range kids[i] {
			if isGroup(k.Name) || k.Name == "len()" { // debugpy's own entries
				continue
			}
			kv := varValue(k)
			cost := len(kv.Name) + len(kv.Type) + len(kv.Value) + 32
			if len(vv.Children) == maxItems || cost > budget {
				vv.ChildrenOmitted++
				if cost > budget {
					cut++
				}
				continue
			}
			budget -= cost
			vv.Children = append(vv.Children, kv)
		}
	}
	if cut > 0 || cutFirst {
		r.Notes = append(r.Notes, fmt.Sprintf("cut at %d KB: filter with names or expand one variables_reference", maxVarBytes>>10))
	}
	return nil
}

func varValue(v godap.Variable) VarValue {
	return VarValue{Name: v.Name, Type: v.Type, Value: clip.Bytes.Head(v.Value, maxVarValueLen),
		Truncated: len(v.Value) > maxVarValueLen, VariablesReference: v.VariablesReference}
}

// librarySummaries reads the library values among vars as one-line
// summaries (one probe call, debugpy or node, a frame's scope): name →
// line. debugpy: the candidates are those the editor's smart values take
// (inspect.SummaryType). JavaScript: every value, as in stop reports (the
// probe's line is never cut mid-token; the adapter's previews are).
func (s *Server) librarySummaries(ctx context.Context, sess *session.Session, frameID int, vars []godap.Variable) map[string]string {
	if frameID == 0 || !inspect.SupportsSummaries(sess.Language()) || sess.IsKernel() {
		return nil // a kernel's namespace values are the probe's lines already (one call)
	}
	js := sess.Language() == inspect.JavaScript
	var want func(godap.Variable) bool
	if !js {
		want = func(v godap.Variable) bool { return inspect.SummaryType(sess.Language(), v.Type) }
	}
	out := map[string]string{}
	for _, it := range summariesOf(ctx, sess, frameID, vars, want) {
		if line := it.Line(); line != "" && (js || it.Recognized()) {
			out[it.Name] = line
		}
	}
	return out
}

// countVariables counts the program's variables of a scope, groups
// included (one level), dunder names excluded.
func (s *Server) countVariables(ctx context.Context, sess *session.Session, ref int) int {
	vars, err := sess.Variables(ctx, ref)
	if err != nil {
		return 0
	}
	n := 0
	for _, v := range vars {
		switch {
		case isGroup(v.Name) && v.VariablesReference > 0:
			if kids, err := sess.Variables(ctx, v.VariablesReference); err == nil {
				for _, k := range kids {
					if !isGroup(k.Name) && !isDunder(k.Name) {
						n++
					}
				}
			}
		case !isGroup(v.Name) && !isDunder(v.Name):
			n++
		}
	}
	return n
}

// isDunder: a __name__ the runtime defines.
func isDunder(name string) bool {
	return len(name) > 4 && strings.HasPrefix(name, "__") && strings.HasSuffix(name, "__")
}
