// attach_pid.go: attaching to a running process by its id, for adapters
// that debug native processes (lldb-dap): the adapter is started and sent
// an attach request naming the pid.

package session

import (
	"context"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/adapter"
)

// attachPid attaches spec.Adapter to process spec.Pid.
func (m *Manager) attachPid(ctx context.Context, spec AttachSpec) (*Session, error) {
	if spec.Pid < 0 {
		return nil, errcode.Invalid("pid", "must be a process id")
	}
	if spec.Adapter == "" {
		spec.Adapter = string(adapter.LLDB)
	}
	d, err := driverOf(spec.Adapter, "")
	if err != nil {
		return nil, err
	}
	pa, ok := d.(adapter.PidAttacher)
	if !ok {
		return nil, errcode.Invalid("pid", "adapter %s attaches to host:port, not to a process id", d.Kind())
	}
	program := ""
	if spec.Program != "" {
		if program, err = existingFile(m.opts.Workspace, "program", spec.Program, false); err != nil {
			return nil, err
		}
	}
	byFile, err := validateBreakpoints(m.opts.Workspace, spec.Breakpoints, "breakpoints")
	if err != nil {
		return nil, err
	}
	plan, err := pa.AttachPid(spec.Pid, program)
	if err != nil {
		return nil, errcode.Invalid("pid", "%s", err.Error())
	}
	s, err := m.newLive(ctx, OriginHeadless, d, "", "")
	if err != nil {
		return nil, err
	}
	s.attached.Store(true)
	if err := s.start(ctx, "attach", plan.Args, byFile); err != nil {
		s.end(context.Background())
		m.Remove(s.id)
		return nil, err
	}
	return s, nil
}
