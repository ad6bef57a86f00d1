// setvar.go: debug_set_variable for nested paths (issue 13.4): attribute,
// subscript and mixed paths (self.rows_seen, cfg['limit'], items[0].qty;
// Go s.Name, m["k"]) through setExpression where the adapter has it, and
// through the variables tree otherwise (the parent container's child);
// an error names the alternatives when a path cannot be set.

package mcp

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/session"
)

func (s *Server) setVariable(ctx context.Context, sess *session.Session, p *setVariableArgs) (*SetVariableResult, error) {
	path, err := inspect.ParsePathFor(sess.Language(), p.Name) // JavaScript names and reserved words on Node
	if err != nil || len(path) == 1 {
		// A plain name (or not a path at all: the scopes say what exists).
		old, updated, err := sess.SetVariable(ctx, p.FrameID, p.Name, p.Value)
		if err != nil {
			return nil, err
		}
		return &SetVariableResult{Name: p.Name, Previous: old, Value: updated}, nil
	}
	goLang := sess.Language() == inspect.Go
	expr, parent := path.String(), path[:len(path)-1].String()
	if goLang {
		if expr, err = path.GoExpr(); err != nil {
			return nil, argError("name", "%s", toolError(err).Message)
		}
		parent, _ = path[:len(path)-1].GoExpr()
	}
	cannot := func(why string) error {
		alt := fmt.Sprintf("debug_evaluate {\"expression\": %q, \"context\": \"repl\"} (the repl runs statements), or set %s as a whole", expr+" = "+p.Value, parent)
		if goLang {
			alt = "set " + parent + " as a whole, or a plain local with debug_set_variable"
		}
		return &errcode.Error{Code: errcode.NotFound, Field: "name", Message: fmt.Sprintf("cannot set %s: %s; alternatives: %s", expr, why, alt)}
	}
	before, err := sess.Evaluate(ctx, expr, p.FrameID, "watch")
	if err != nil {
		return nil, cannot(toolError(err).Message)
	}
	if sess.SupportsSetExpression() {
		v, err := sess.SetExpression(ctx, p.FrameID, expr, p.Value)
		if err != nil {
			return nil, err
		}
		return &SetVariableResult{Name: expr, Previous: before.Result, Value: v}, nil
	}
	// The variables tree: the parent's child named as the adapter names it.
	pb, err := sess.Evaluate(ctx, parent, p.FrameID, "watch")
	if err != nil {
		return nil, cannot(toolError(err).Message)
	}
	if goLang && strings.HasPrefix(pb.Type, "*") {
		// A pointer: its fields are the pointee's.
		if db, err := sess.Evaluate(ctx, "(*"+parent+")", p.FrameID, "watch"); err == nil {
			pb = db
		}
	}
	if pb.VariablesReference == 0 {
		return nil, cannot(parent + " has no children to set")
	}
	last := path[len(path)-1]
	want := childNames(last, goLang)
	kids, err := sess.Variables(ctx, pb.VariablesReference)
	if err != nil {
		return nil, err
	}
	for _, k := range kids {
		if slices.Contains(want, k.Name) {
			v, err := sess.SetChild(ctx, pb.VariablesReference, k.Name, p.Value)
			if err != nil {
				return nil, err
			}
			return &SetVariableResult{Name: expr, Previous: before.Result, Value: v}, nil
		}
	}
	return nil, cannot(fmt.Sprintf("%s has no child named %s", parent, strings.Join(want, " or ")))
}

// childNames are the names an adapter gives the child a path step reaches:
// attributes and fields by name; Python keys by repr ('k', 3); Go map keys
// quoted ("k") and indexes in brackets ([0]).
func childNames(st inspect.Step, goLang bool) []string {
	switch v := st.Value.(type) {
	case int64:
		n := strconv.FormatInt(v, 10)
		if goLang {
			return []string{"[" + n + "]"}
		}
		return []string{n}
	case string:
		if st.Kind == "attr" {
			return []string{v}
		}
		if goLang {
			return []string{strconv.Quote(v)}
		}
		return []string{(&valueDiff{}).literal(v), strconv.Quote(v)}
	}
	return nil
}

type setVariableArgs struct {
	SessionRef
	Name    string `json:"name" jsonschema:"self.n, d['k']"`
	Value   string `json:"value"`
	FrameID int    `json:"frame_id,omitempty"`
}

// SetVariableResult is the effect of debug_set_variable.
type SetVariableResult struct {
	Name     string `json:"name"`
	Previous string `json:"previous"`
	Value    string `json:"value"`
}

func (r *SetVariableResult) text() string {
	return fmt.Sprintf("%s: %s → %s", r.Name, r.Previous, r.Value)
}
