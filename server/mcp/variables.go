// variables.go: reading a scope's variables as the program has them:
// debugpy files a scope's functions, classes and dunder names under group
// entries ("function variables", "class variables", "special variables");
// a count of the program's variables looks inside the groups and leaves
// out only the dunder names the runtime defines (__name__, __file__, …).

package mcp

import (
	"context"
	"strings"

	"github.com/dapscope/dapscope/server/session"
)

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
