// tools_kernel.go: live Jupyter kernels for agents — kernel_list and
// kernel_attach, which makes a session of kind kernel (server/kernel): the
// kernel's namespace is the stopped frame while it is idle, each cell a
// user runs is a run and a stop, so debug_variables, debug_inspect_variable,
// debug_evaluate (silent, no trace), debug_snapshot, debug_diff ("what did
// the last cell change?"), debug_watch (after each execution) and debug_wait
// work on it as on any session; what makes no sense on a kernel (stepping,
// breakpoints) is refused saying what to do instead, and debug_terminate
// detaches, leaving the kernel running.

package mcp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

// kernelAttachTimeout bounds finding and attaching to a kernel.
const kernelAttachTimeout = 30 * time.Second

type kernelListArgs struct {
	ServerURL string `json:"server_url,omitempty"`
	TokenFile string `json:"token_file,omitempty"`
}

// KernelListResult lists kernels.
type KernelListResult struct {
	Kernels []kernel.Kernel `json:"kernels"`
}

func (r *KernelListResult) text() string {
	if len(r.Kernels) == 0 {
		return "no running kernels"
	}
	var b strings.Builder
	for _, k := range r.Kernels {
		fmt.Fprintf(&b, "%s %s %s", k.ID, k.Language, k.State)
		if k.Cell != nil && k.Cell.Known {
			fmt.Fprintf(&b, " (running In[%d])", k.Cell.ExecutionCount)
		}
		if where := firstOf(k.Notebook, k.ConnectionFile); where != "" {
			fmt.Fprintf(&b, " %s", where)
		}
		if k.Error != "" {
			fmt.Fprintf(&b, ": %s", k.Error)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func firstOf(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

type kernelAttachArgs struct {
	Kernel         string `json:"kernel,omitempty" jsonschema:"id or prefix"`
	ConnectionFile string `json:"connection_file,omitempty"`
	ServerURL      string `json:"server_url,omitempty"`
	KernelID       string `json:"kernel_id,omitempty"`
	TokenFile      string `json:"token_file,omitempty" jsonschema:"else $JUPYTER_TOKEN"`
}

// KernelAttachResult is the kernel session's first report: the kernel,
// and the namespace's variables (or the cell that runs).
type KernelAttachResult struct {
	Kernel kernel.Kernel `json:"kernel"`
	*StopReport
}

func (r *KernelAttachResult) text() string {
	k := r.Kernel
	var about []string // "(python, sales.ipynb)"; a server kernel without a notebook names its server
	for _, x := range []string{firstOf(k.Language, k.KernelName), firstOf(k.Notebook, k.ConnectionFile, k.Server)} {
		if x != "" {
			about = append(about, x)
		}
	}
	paren := ""
	if len(about) > 0 {
		paren = " (" + strings.Join(about, ", ") + ")"
	}
	head := fmt.Sprintf("kernel %s%s attached: session %s\n", k.ID, paren, r.SessionID)
	return head + r.StopReport.text()
}

func (s *Server) registerKernelTools() {
	addTool(s, toolSpec{name: "kernel_list", title: "List Jupyter kernels",
		desc:  "Running Jupyter kernels: id, language, state, notebook.",
		hints: hints{readOnly: true, idempotent: true}, more: "kernels were omitted"},
		func(ctx context.Context, c *call, p *kernelListArgs) (*KernelListResult, error) {
			ctx, cancel := context.WithTimeout(ctx, kernelAttachTimeout)
			defer cancel()
			ref := kernel.ServerRef{URL: p.ServerURL, TokenFile: p.TokenFile, Options: kernel.ServerOptions{AllowHosts: s.mgr.Options().AttachHosts}}
			ks, err := kernel.Kernels(ctx, ref, s.opts.Kernels)
			if err != nil {
				return nil, kernelHint(kernelListError(err))
			}
			return &KernelListResult{Kernels: ks}, nil
		})

	addTool(s, toolSpec{name: "kernel_attach", title: "Attach to a Jupyter kernel",
		desc:  "Attach a Python kernel: its namespace is a stopped frame; each cell run is a stop.",
		hints: hints{idempotent: true}, more: "use debug_variables or debug_inspect_variable"},
		func(ctx context.Context, c *call, p *kernelAttachArgs) (*KernelAttachResult, error) {
			actx, cancel := context.WithTimeout(ctx, kernelAttachTimeout)
			defer cancel()
			at, err := kernel.AttachSession(actx, s.mgr, kernel.AttachSpec{Kernel: p.Kernel, ConnectionFile: p.ConnectionFile,
				ServerURL: p.ServerURL, KernelID: p.KernelID, TokenFile: p.TokenFile, List: s.opts.Kernels,
				Server:  kernel.ServerOptions{AllowHosts: s.mgr.Options().AttachHosts},
				Options: kernel.Options{Logger: s.log}, Adapter: kernel.AdapterOptions{Logger: s.log}})
			if err != nil {
				return nil, kernelHint(err)
			}
			sess := at.Session
			s.state(sess.ID())
			st := session.Stop{Running: true} // a running cell: answered at once
			if at.Kernel.State != kernel.StateBusy {
				if st, err = sess.Wait(actx, 5*time.Second); err != nil { // the namespace's stop comes at once
					return nil, kernelHint(err)
				}
			}
			r, err := s.stopReport(ctx, sess, st)
			if err != nil {
				return nil, err
			}
			if r.Status == session.StatusRunning {
				r.Hint = "a cell is running in the kernel: debug_wait returns when it finishes"
				if e := sess.NotPaused(); e != nil {
					r.Hint = e.Message + "; debug_wait returns when it finishes"
				}
			}
			return &KernelAttachResult{Kernel: at.Kernel, StopReport: r}, nil
		})
}

// kernelListError types a listing's failure (a refused token, an
// unreachable server).
// kernelHint gives a timeout or a cancellation a kernel's hint instead
// of the debugger's ("debug_pause first" does not apply to a kernel).
func kernelHint(err error) error {
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return &errcode.Error{Code: errcode.Timeout, Message: fmt.Sprintf("no answer within %v: %v", kernelAttachTimeout, err),
			Hint: "the kernel (or the disk or server holding it) did not answer in time: check it in your notebook, then retry"}
	}
	if e := errcode.As(err); e != nil && e.Hint == "" && e.Code == errcode.Timeout {
		c := *e
		c.Hint = "the kernel did not answer in time: it is stopped, hung or busy; check it in your notebook (kernel_list shows its state), then retry"
		return &c
	}
	return err
}

func kernelListError(err error) error {
	var se *kernel.ServerError
	if errors.As(err, &se) && (se.Status == 401 || se.Status == 403) {
		return argError("token_file", "%v", err)
	}
	return err
}
