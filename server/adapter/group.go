// group.go: the root of a tree of sessions that is no process of its own —
// a Ray cluster whose paused tasks were attached under it. A virtual
// adapter inside the sidecar (session.Manager.Group) answers for it; like
// a kernel's, no launch or attach starts one.

package adapter

import (
	"context"
	"errors"
)

// Group is the kind of a tree's root that runs no code (a Ray cluster).
const Group Kind = "group"

var errGroupNotLaunched = errors.New(`a cluster root is made by attaching a cluster's paused tasks (ray_list then debug_attach, "dapscope ray inspect"), not launched`)

// groupDriver is kernelDriver's do-nothing driver under its own kind.
type groupDriver struct{ kernelDriver }

func (groupDriver) Kind() Kind        { return Group }
func (groupDriver) AdapterID() string { return string(Group) }

func (groupDriver) Start(context.Context, StartConfig) (*Adapter, error) {
	return nil, errGroupNotLaunched
}

func (groupDriver) Attach(string, int) (AttachPlan, error) {
	return AttachPlan{}, errGroupNotLaunched
}
