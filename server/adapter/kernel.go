// kernel.go: a live Jupyter kernel as a session (server/kernel): a virtual
// adapter that runs inside the sidecar and starts no process. Its sessions
// are attached (kernel_attach, `dapscope kernel`), never launched; the
// debuggee is the kernel's Python namespace, so the inspector uses the
// Python probe.

package adapter

import (
	"context"
	"errors"

	"github.com/dapscope/dapscope/inspect"
)

// Kernel is the kind of a session on a live Jupyter kernel. It is not among
// Kinds(): no launch, attach-by-port or editor proxy can start one.
const Kernel Kind = "kernel"

// errKernelNotLaunched is what any attempt to start a kernel session like
// a debug adapter gets.
var errKernelNotLaunched = errors.New(`a kernel session is attached to a running Jupyter kernel, not launched: ` +
	`use kernel_attach (MCP), "dapscope kernel" (CLI) or the editor's kernel view`)

// kernelDriver is the Driver of kernel sessions: the virtual adapter is
// registered by the session manager (session.Manager.Kernel), so Start
// and Attach refuse, and the first-stop fixes do nothing (the kernel is
// no debugpy of ours).
type kernelDriver struct{}

func (kernelDriver) Kind() Kind                 { return Kernel }
func (kernelDriver) Language() inspect.Language { return inspect.Python }
func (kernelDriver) AdapterID() string          { return string(Kernel) }
func (kernelDriver) Targets() Targets           { return Targets{} }
func (kernelDriver) Dir(string) string          { return "" }
func (kernelDriver) ExceptionFilters() []string { return []string{} }

func (kernelDriver) Start(context.Context, StartConfig) (*Adapter, error) {
	return nil, errKernelNotLaunched
}

func (kernelDriver) LaunchArgs(LaunchConfig) map[string]any { return map[string]any{} }

func (kernelDriver) Attach(string, int) (AttachPlan, error) {
	return AttachPlan{}, errKernelNotLaunched
}

func (kernelDriver) FirstStop(context.Context, Caller, int, FirstStopOptions) (FirstStopResult, error) {
	return FirstStopResult{}, nil
}

func (kernelDriver) Detach(context.Context, Caller, int) (string, error) { return "", nil }

// OutputCategory: the virtual adapter's notices (the kernel died,
// restarted) are its own.
func (kernelDriver) OutputCategory(c string) string { return dapOutputCategory(c) }

func (kernelDriver) Traceback(raw string) string { return raw }

func (kernelDriver) ExitSignal(int) (int, string) { return 0, "" }

func (kernelDriver) Diagnose(context.Context, LaunchConfig) string { return "" }
