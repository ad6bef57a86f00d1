// kernels.go: the editor channel's methods for live Jupyter kernels (the
// extension's kernel view): dapscope/kernels lists the kernels this user
// can reach (local, or a Jupyter Server's), dapscope/kernelAttach makes a
// session of kind kernel on one (or returns the one it already has), and
// dapscope/kernelVariables lists a kernel session's variables as one-line
// summaries with their fingerprints (what changed since the last stop). The session is then a session like any other:
// dapscope/inspect and dapscope/page take its sessionId, and its
// dapscope/sessionEvent notifications say when a cell ran (stopped:
// "after In[n]"), runs (continued) or the kernel is gone (terminated).

package editor

import (
	"context"
	"encoding/json"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/server/kernel"
	"github.com/dapscope/dapscope/server/session"
)

// kernelAttachTimeout bounds finding, attaching to and first reading a kernel.
const kernelAttachTimeout = 30 * time.Second

// KernelsParams are the dapscope/kernels parameters: a Jupyter Server's
// kernels (its token from tokenFile, $JUPYTER_TOKEN or a ?token= in the
// URL), else the local ones.
type KernelsParams struct {
	ServerURL string `json:"serverUrl,omitempty"`
	TokenFile string `json:"tokenFile,omitempty"`
}

// KernelsResult is the dapscope/kernels answer.
type KernelsResult struct {
	Kernels []kernel.Kernel `json:"kernels"`
}

func (s *Server) kernels(ctx context.Context, params json.RawMessage) (any, error) {
	var p KernelsParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, kernelAttachTimeout)
	defer cancel()
	ref := kernel.ServerRef{URL: p.ServerURL, TokenFile: p.TokenFile, Options: kernel.ServerOptions{AllowHosts: s.mgr.Options().AttachHosts}}
	ks, err := kernel.Kernels(ctx, ref, s.opts.Kernels)
	if err != nil {
		return nil, errcode.From(err)
	}
	return KernelsResult{Kernels: ks}, nil
}

// KernelAttachParams are the dapscope/kernelAttach parameters: kernel (an
// id, id prefix or connection file; empty: the only kernel running), or a
// connectionFile, or a serverUrl with a kernelId.
type KernelAttachParams struct {
	Kernel         string `json:"kernel,omitempty"`
	ConnectionFile string `json:"connectionFile,omitempty"`
	ServerURL      string `json:"serverUrl,omitempty"`
	KernelID       string `json:"kernelId,omitempty"`
	TokenFile      string `json:"tokenFile,omitempty"`
}

// KernelAttachResult is the kernel session: its id, its summary (status
// "paused" in the namespace once the kernel is idle), and the kernel.
type KernelAttachResult struct {
	SessionID string `json:"sessionId"`
	session.Summary
	Kernel kernel.Kernel `json:"kernel"`
}

func (s *Server) kernelAttach(ctx context.Context, params json.RawMessage) (any, error) {
	var p KernelAttachParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, kernelAttachTimeout)
	defer cancel()
	at, err := kernel.AttachSession(ctx, s.mgr, kernel.AttachSpec{Kernel: p.Kernel, ConnectionFile: p.ConnectionFile,
		ServerURL: p.ServerURL, KernelID: p.KernelID, TokenFile: p.TokenFile, List: s.opts.Kernels,
		Server:  kernel.ServerOptions{AllowHosts: s.mgr.Options().AttachHosts},
		Options: kernel.Options{Logger: s.log}, Adapter: kernel.AdapterOptions{Logger: s.log}})
	if err != nil {
		return nil, err
	}
	// The namespace's stop comes at once when the kernel is idle: answer
	// with it (a running cell is answered at once, status running).
	if at.Kernel.State != kernel.StateBusy {
		if _, err := at.Session.Wait(ctx, 5*time.Second); err != nil {
			return nil, err
		}
	}
	return KernelAttachResult{SessionID: at.Session.ID(), Summary: at.Session.Info().Summary, Kernel: at.Kernel}, nil
}

// KernelVariablesParams are the dapscope/kernelVariables parameters.
type KernelVariablesParams struct {
	SessionID string `json:"sessionId"`
	// All lists IPython's own names, modules, functions and classes too.
	All bool `json:"all,omitempty"`
}

// KernelVariable is one variable of a kernel's namespace (or of the frame
// of a cell paused in its debugger).
type KernelVariable struct {
	Name    string  `json:"name"`
	Type    string  `json:"type"`
	Kind    string  `json:"kind"`
	Shape   []int64 `json:"shape,omitempty"`
	Dtype   string  `json:"dtype,omitempty"`
	Memory  *int64  `json:"memory,omitempty"`
	Summary string  `json:"summary"`
	// Fingerprint changes when the value's content changes, even where its
	// summary does not (a cell written in place): the kernel view compares
	// it with the last stop's to mark what a cell changed (inspect's
	// ValueSummary.Fingerprint, the one debug_diff compares).
	Fingerprint string `json:"fp,omitempty"`
	// Error says why the value could not be read (then Summary is empty).
	Error string `json:"error,omitempty"`
}

// KernelVariablesResult is the dapscope/kernelVariables answer.
type KernelVariablesResult struct {
	Items []KernelVariable `json:"items"`
}

func (s *Server) kernelVariables(ctx context.Context, params json.RawMessage) (any, error) {
	var p KernelVariablesParams
	if err := decode(params, &p); err != nil {
		return nil, err
	}
	if p.SessionID == "" {
		return nil, invalidParams("sessionId is required")
	}
	ss, err := s.mgr.Get(p.SessionID)
	if err != nil {
		return nil, err
	}
	if !ss.IsKernel() {
		return nil, errcode.Invalid("sessionId", "session %s is not a kernel session (dapscope/kernelAttach makes one)", p.SessionID)
	}
	items, err := inspect.SummariesWith(ctx, ss, 0, nil, inspect.SummaryOptions{Timeout: 2 * time.Second, All: p.All, Fingerprints: true})
	if err != nil {
		return nil, err
	}
	out := KernelVariablesResult{Items: []KernelVariable{}}
	for _, it := range items {
		v := KernelVariable{Name: it.Name, Type: kernel.ShortType(it.Type), Kind: it.Kind, Shape: it.Shape, Dtype: it.Dtype,
			Memory: it.Memory, Summary: it.Line(), Fingerprint: it.Fingerprint}
		switch {
		case it.Skipped != "":
			v.Error = "not read: " + it.Skipped
		case it.Error != "":
			v.Error = it.Error
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}
