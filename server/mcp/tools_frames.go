// tools_frames.go: the frame tools — debug_stack (frames with their source
// line), debug_scopes (with variable counts), debug_variables (a bounded
// tree), debug_evaluate and debug_set_variable.

package mcp

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"time"

	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

// Bounds of debug_variables.
const (
	maxVarItems      = 50 // the default and maximum of max_items
	maxVarExpansions = 20
)

// VarValue is one variable in a bounded tree.
type VarValue struct {
	Name               string     `json:"name"`
	Type               string     `json:"type,omitempty"`
	Value              string     `json:"value"`
	Truncated          bool       `json:"truncated,omitempty"`
	VariablesReference int        `json:"variables_reference,omitempty"`
	Children           []VarValue `json:"children,omitempty"`
	ChildrenOmitted    int        `json:"children_omitted,omitempty"`
	// fp is the value's fingerprint at a capture (inspect's
	// ValueSummary.Fingerprint): debug_diff compares it.
	fp string
	// fpMissing: why a capture that took fingerprints has none of this
	// value (not read, no fingerprint without running its code, too big
	// for the time left): debug_diff cannot compare it.
	fpMissing string
}

// grouping entries debugpy adds to a scope ("special variables", …).
func isGroup(name string) bool { return strings.Contains(name, " ") }

// frameLocals reads the first scope of a frame (its locals), bounded.
func (s *Server) frameLocals(ctx context.Context, sess *session.Session, frameID, limit int) ([]VarValue, int, error) {
	scopes, err := sess.Scopes(ctx, frameID)
	if err != nil {
		return nil, 0, err
	}
	if len(scopes) == 0 {
		return []VarValue{}, 0, nil
	}
	vars, err := sess.Variables(ctx, scopes[0].VariablesReference)
	if err != nil {
		return nil, 0, err
	}
	out := []VarValue{}
	omitted := 0
	for _, v := range vars {
		if isGroup(v.Name) {
			continue
		}
		if len(out) == limit {
			omitted++
			continue
		}
		out = append(out, varValue(v))
	}
	return out, omitted, nil
}

// --- debug_stack ---

type stackArgs struct {
	SessionRef
	ThreadID int  `json:"thread_id,omitempty"`
	Levels   int  `json:"levels,omitempty" minimum:"1" maximum:"200"`
	Internal bool `json:"internal,omitempty"`
}

// Frame is one stack frame.
type Frame struct {
	ID       int    `json:"id"`
	Name     string `json:"name"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Column   int    `json:"column,omitempty"`
	Source   string `json:"source,omitempty" desc:"the text of the line"`
	External bool   `json:"external,omitempty" desc:"outside the workspace"`
	Internal bool   `json:"internal,omitempty" desc:"the runtime's own code (node:internal/…)"`
	Folded   int    `json:"folded,omitempty" desc:"this entry stands for this many internal frames (internal: true lists them)"`
}

// StackResult is the stack of a thread.
type StackResult struct {
	SessionID string  `json:"session_id"`
	ThreadID  int     `json:"thread_id,omitempty"`
	Frames    []Frame `json:"frames"`
}

func (r *StackResult) text() string {
	var b strings.Builder
	for i, f := range r.Frames {
		if f.Folded > 0 {
			fmt.Fprintf(&b, "#%d … %d internal frames (%s …), folded\n", i, f.Folded, f.File)
			continue
		}
		fmt.Fprintf(&b, "#%d [frame %d] %s at %s:%d", i, f.ID, f.Name, f.File, f.Line)
		if f.Source != "" {
			fmt.Fprintf(&b, "  | %s", f.Source)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// foldInternal folds each run of internal frames into one entry, as
// js-debug folds its skipped frames.
func foldInternal(frames []Frame) []Frame {
	out := frames[:0:0]
	for _, f := range frames {
		if n := len(out); f.Internal && n > 0 && out[n-1].Folded > 0 {
			out[n-1].Folded++
			continue
		}
		if f.Internal {
			f = Frame{ID: f.ID, Name: "internal frames", File: f.File, Internal: true, Folded: 1}
		}
		out = append(out, f)
	}
	return out
}

// --- debug_scopes ---

type scopesArgs struct {
	SessionRef
	FrameID int `json:"frame_id,omitempty"`
}

// Scope is one scope of a frame.
type Scope struct {
	Name               string `json:"name"`
	VariablesReference int    `json:"variables_reference"`
	Count              int    `json:"count" desc:"variables in the scope"`
	Expensive          bool   `json:"expensive,omitempty"`
}

// ScopesResult is the scope chain of a frame.
type ScopesResult struct {
	SessionID string  `json:"session_id"`
	FrameID   int     `json:"frame_id"`
	Scopes    []Scope `json:"scopes"`
}

func (r *ScopesResult) text() string {
	var b strings.Builder
	for _, sc := range r.Scopes {
		fmt.Fprintf(&b, "%s: %d variables (ref %d)\n", sc.Name, sc.Count, sc.VariablesReference)
	}
	return b.String()
}

// --- debug_variables ---

type variablesArgs struct {
	SessionRef
	FrameID            int      `json:"frame_id,omitempty"`
	Scope              string   `json:"scope,omitempty"`
	VariablesReference int      `json:"variables_reference,omitempty"`
	Names              []string `json:"names,omitempty"`
	Depth              int      `json:"depth,omitempty" minimum:"1" maximum:"2"`
	MaxItems           int      `json:"max_items,omitempty" minimum:"1" maximum:"50"`
}

// VariablesResult is a bounded variable tree.
type VariablesResult struct {
	SessionID string     `json:"session_id"`
	FrameID   int        `json:"frame_id,omitempty"`
	Scope     string     `json:"scope,omitempty"`
	Variables []VarValue `json:"variables"`
	Omitted   int        `json:"omitted,omitempty" desc:"variables past max_items or the byte budget"`
	Missing   []string   `json:"missing,omitempty" desc:"requested names not found"`
	Notes     []string   `json:"notes,omitempty" desc:"what was left out and how to get it"`
}

func (r *VariablesResult) text() string {
	var b strings.Builder
	var walk func(vs []VarValue, indent string)
	walk = func(vs []VarValue, indent string) {
		for _, v := range vs {
			fmt.Fprintf(&b, "%s%s", indent, v.Name)
			if v.Type != "" {
				fmt.Fprintf(&b, " (%s)", v.Type)
			}
			fmt.Fprintf(&b, " = %s\n", v.Value)
			walk(v.Children, indent+"  ")
			if v.ChildrenOmitted > 0 {
				fmt.Fprintf(&b, "%s  … %d more\n", indent, v.ChildrenOmitted)
			}
		}
	}
	walk(r.Variables, "")
	if r.Omitted > 0 {
		fmt.Fprintf(&b, "… %d more variables\n", r.Omitted)
	}
	if len(r.Missing) > 0 {
		fmt.Fprintf(&b, "not found: %s\n", strings.Join(r.Missing, ", "))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if b.Len() == 0 { // an empty namespace (or scope) said in words, never ""
		return "no variables\n"
	}
	return b.String()
}

// --- debug_evaluate / debug_set_variable ---

func (s *Server) registerFrameTools() {
	addTool(s, toolSpec{name: "debug_stack", title: "Stack trace",
		desc:  "The stopped thread's frames and line texts; ids hold until it resumes.",
		hints: hints{readOnly: true, idempotent: true}, more: "ask for fewer levels"},
		func(ctx context.Context, c *call, p *stackArgs) (*StackResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			levels := p.Levels
			if levels == 0 {
				levels = 20
			}
			frames, err := sess.StackTrace(ctx, p.ThreadID, levels)
			if err != nil {
				return nil, err
			}
			r := &StackResult{SessionID: sess.ID(), ThreadID: p.ThreadID, Frames: []Frame{}}
			if r.ThreadID == 0 {
				r.ThreadID, _ = sess.Paused()
			}
			for _, f := range frames {
				fr := Frame{ID: f.Id, Name: f.Name, Line: f.Line, Column: f.Column}
				if f.Source != nil {
					fr.File = s.relPath(f.Source.Path)
					fr.External = fr.File == f.Source.Path
					fr.Source = sourceLine(f.Source.Path, f.Line)
					if f.Source.Path == "" { // the runtime's own code: node:internal/…
						fr.File, fr.External = f.Source.Name, true
					}
					fr.Internal = f.PresentationHint == "subtle" || f.Source.PresentationHint == "deemphasize"
				}
				r.Frames = append(r.Frames, fr)
			}
			if !p.Internal {
				r.Frames = foldInternal(r.Frames)
			}
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_scopes", title: "Scopes of a frame",
		desc:  "A frame's scopes with variable counts.",
		hints: hints{readOnly: true, idempotent: true}},
		func(ctx context.Context, c *call, p *scopesArgs) (*ScopesResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			frameID, err := s.frameOrTop(ctx, sess, p.FrameID)
			if err != nil {
				return nil, err
			}
			scopes, err := sess.Scopes(ctx, frameID)
			if err != nil {
				return nil, err
			}
			r := &ScopesResult{SessionID: sess.ID(), FrameID: frameID, Scopes: []Scope{}}
			for _, sc := range scopes {
				n := sc.NamedVariables + sc.IndexedVariables
				if n == 0 && sc.VariablesReference > 0 {
					n = s.countVariables(ctx, sess, sc.VariablesReference) // variables.go
				}
				r.Scopes = append(r.Scopes, Scope{Name: sc.Name, VariablesReference: sc.VariablesReference, Count: n, Expensive: sc.Expensive})
			}
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_variables", title: "Variables (bounded tree)",
		desc:  "A scope's variables (default Locals) or a reference's children, bounded.",
		hints: hints{readOnly: true, idempotent: true}, more: "filter with names, or expand a variables_reference"},
		func(ctx context.Context, c *call, p *variablesArgs) (*VariablesResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			maxItems := p.MaxItems
			if maxItems == 0 {
				maxItems = maxVarItems
			}
			depth := p.Depth
			if depth == 0 {
				depth = 1
			}
			r := &VariablesResult{SessionID: sess.ID(), Variables: []VarValue{}}
			refs := []int{p.VariablesReference}
			if p.VariablesReference == 0 {
				frameID, err := s.frameOrTop(ctx, sess, p.FrameID)
				if err != nil {
					return nil, err
				}
				r.FrameID = frameID
				scopes, err := sess.Scopes(ctx, frameID)
				if err != nil {
					return nil, err
				}
				if refs, r.Scope, err = pickScopes(sess, scopes, p.Scope); err != nil {
					return nil, err
				}
			}
			if err := s.readVariables(ctx, sess, refs, p.Names, depth, maxItems, r); err != nil { // variables.go
				return nil, err
			}
			return r, nil
		})

	addTool(s, toolSpec{name: "debug_evaluate", title: "Evaluate an expression",
		desc:  "Evaluate in a frame (repl runs statements); one past its timeout keeps running.",
		hints: hints{}, more: "inspect large values with debug_inspect_variable or expand variables_reference with debug_variables"},
		func(ctx context.Context, c *call, p *evaluateArgs) (*EvaluateResult, error) {
			timeout := 10 * time.Second
			if p.Timeout > 0 {
				timeout = time.Duration(p.Timeout * float64(time.Second))
			}
			if set, err := s.processSet(p.SessionID); err != nil || set != nil {
				if err != nil {
					return nil, err
				}
				return s.evaluateAll(ctx, set, p, timeout), nil // allprocs.go
			}
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			return s.evaluate(ctx, sess, p, timeout) // evaluate.go
		})

	addTool(s, toolSpec{name: "debug_set_variable", title: "Set a variable",
		desc:  "Assign a variable or path; returns old and new values.",
		hints: hints{destructive: true, idempotent: true}},
		func(ctx context.Context, c *call, p *setVariableArgs) (*SetVariableResult, error) {
			sess, err := s.session(p.SessionID)
			if err != nil {
				return nil, err
			}
			return s.setVariable(ctx, sess, p) // setvar.go
		})
}

// pickScopes finds debug_variables' scope: by name (a prefix will do:
// "closure" for "Closure (outer)"), else the first one; on JavaScript
// frames "" or "locals" is the merged Block and Local scopes and "closure"
// the Closure scopes (jslocals.go).
func pickScopes(sess *session.Session, scopes []godap.Scope, scope string) ([]int, string, error) {
	var names []string
	for _, sc := range scopes {
		names = append(names, sc.Name)
	}
	if sess.Language() == inspect.JavaScript {
		if picked, ok := jsScopeChoice(scopes, scope); ok {
			if len(picked) == 0 {
				return nil, "", &errcode.Error{Code: errcode.NotFound, Field: "scope", Message: fmt.Sprintf("no %s scope in this frame (have: %s)", cmp.Or(scope, "local"), strings.Join(names, ", "))}
			}
			var ns []string
			for _, sc := range picked {
				ns = append(ns, sc.Name)
			}
			return scopeRefs(picked), strings.Join(ns, " + "), nil
		}
	}
	for _, exact := range []bool{true, false} {
		for _, sc := range scopes {
			if sc.VariablesReference > 0 && (scope == "" || strings.EqualFold(sc.Name, scope) || !exact && strings.HasPrefix(strings.ToLower(sc.Name), strings.ToLower(scope))) {
				return []int{sc.VariablesReference}, sc.Name, nil
			}
		}
	}
	return nil, "", &errcode.Error{Code: errcode.NotFound, Field: "scope", Message: fmt.Sprintf("no scope %q (have: %s)", scope, strings.Join(names, ", "))}
}

// frameOrTop resolves frame 0 to the top frame of the stopped thread.
func (s *Server) frameOrTop(ctx context.Context, sess *session.Session, frameID int) (int, error) {
	if frameID != 0 {
		return frameID, nil
	}
	f, err := sess.TopFrame(ctx)
	if err != nil {
		return 0, err
	}
	return f.Id, nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
