// This file builds a Result from the DAP variables tree, for adapters without
// a Python probe (Delve now, any adapter later): bounded depth and breadth.
package inspect

import "context"

func inspectVariables(ctx context.Context, t Target, frameID int, path Path, opts Options) (*Result, error) {
	return nil, &Error{Code: CodeInternal, Message: "adapter " + t.Adapter() + " is not supported yet"}
}
