// attachsession.go: attaching a session of kind kernel to a live kernel
// (what kernel_attach, `dapscope kernel` and the editor's dapscope/
// kernelAttach do): the kernel is found (a connection file; an id, id
// prefix or the only kernel running; a Jupyter Server URL with a kernel
// id), a client attaches, a non-Python kernel is refused naming what is
// supported, and the virtual adapter is registered with the session
// manager. A kernel that already has a live session gets that session.

package kernel

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/server/session"
)

// AttachSpec names the kernel to attach to: a connection file, a Jupyter
// Server URL (with a kernel id, or Kernel as an id or prefix among its
// kernels), or Kernel alone (an id, id prefix or connection file of a
// local kernel; empty: the only one running).
type AttachSpec struct {
	Kernel         string
	ConnectionFile string
	ServerURL      string
	KernelID       string
	// Token authenticates to ServerURL; else TokenFile, else
	// $JUPYTER_TOKEN, else a ?token= in the URL.
	Token     string
	TokenFile string
	Server    ServerOptions // Token is filled in from the fields above (AllowHosts: the sidecar's --attach-hosts)
	List      ListOptions   // local discovery
	Options   Options       // the client's
	Adapter   AdapterOptions
}

// Attached is a kernel session and the kernel it is on.
type Attached struct {
	Session *session.Session
	Kernel  Kernel
	// Adapter is the session's virtual adapter (nil when Reused).
	Adapter *Adapter
	// Reused: the kernel already had a live session, returned as it is.
	Reused bool
}

// SupportedLanguages are the kernel languages dapscope inspects.
const SupportedLanguages = "Python (ipykernel)"

// AttachSession attaches a kernel session on mgr to the kernel spec names.
func AttachSession(ctx context.Context, mgr *session.Manager, spec AttachSpec) (*Attached, error) {
	k, dial, err := resolve(ctx, spec)
	if err != nil {
		return nil, err
	}
	key := k.ConnectionFile
	if k.Server != "" {
		key = k.Server + "#" + k.ID
	}
	if s := mgr.KernelSession(key); s != nil {
		return &Attached{Session: s, Kernel: k, Reused: true}, nil
	}
	c, err := dial(ctx)
	if err != nil {
		return nil, attachError(err)
	}
	info := c.Info()
	k.Language, k.Implementation = info.Language(), info.Implementation
	if !strings.EqualFold(k.Language, "python") {
		_ = c.Close()
		lang := k.Language
		if lang == "" {
			lang = "an unknown language"
		}
		return nil, &errcode.Error{Code: errcode.NotSupported, Message: fmt.Sprintf(
			"kernel %s runs %s (%s): dapscope inspects %s kernels only", k.ID, lang, info.Implementation, SupportedLanguages)}
	}
	st := c.State()
	k.State, k.Cell = st.Execution, st.Cell
	a := NewAdapter(c, spec.Adapter)
	name := "kernel " + k.ID
	where := k.Notebook
	if where == "" {
		where = k.ConnectionFile
	}
	if k.Notebook != "" {
		name += " (" + k.Notebook + ")"
	}
	s, err := mgr.Kernel(session.KernelSpec{Key: key, Name: name, Where: where, Conn: a.Conn(),
		Busy: a.Busy, Refuses: a.Refusal, Ended: a.Ended, Namespace: NamespaceFrame})
	if err != nil {
		_ = a.Conn().Close()
		return nil, err
	}
	a.Start()
	return &Attached{Session: s, Kernel: k, Adapter: a}, nil
}

// resolve finds the kernel spec names and how to dial it.
func resolve(ctx context.Context, spec AttachSpec) (Kernel, func(context.Context) (*Client, error), error) {
	switch {
	case spec.ServerURL != "":
		srv, err := ServerRef{URL: spec.ServerURL, Token: spec.Token, TokenFile: spec.TokenFile, Options: spec.Server}.Open()
		if err != nil {
			return Kernel{}, nil, err
		}
		ks, err := srv.List(ctx)
		if err != nil {
			return Kernel{}, nil, attachError(err)
		}
		ref := spec.KernelID
		if ref == "" {
			ref = spec.Kernel
		}
		k, err := Find(ks, ref)
		if err != nil {
			return Kernel{}, nil, &errcode.Error{Code: errcode.NotFound, Field: "kernel_id", Message: srv.URL() + ": " + err.Error()}
		}
		return k, func(ctx context.Context) (*Client, error) { return srv.Dial(ctx, k.ID, spec.Options) }, nil
	case spec.ConnectionFile != "":
		return fileKernel(spec.ConnectionFile, spec)
	}
	if looksLikeFile(spec.Kernel) {
		return fileKernel(spec.Kernel, spec)
	}
	ks, err := List(ctx, spec.List)
	if err != nil {
		return Kernel{}, nil, err
	}
	k, err := Find(ks, spec.Kernel)
	if err != nil {
		return Kernel{}, nil, &errcode.Error{Code: errcode.NotFound, Field: "kernel", Message: err.Error()}
	}
	switch k.State {
	case KernelRefused, KernelDead, KernelNotAnswering:
		return Kernel{}, nil, &errcode.Error{Code: errcode.NotFound, Field: "kernel", Message: fmt.Sprintf("kernel %s is %s: %s", k.ID, k.State, k.Error)}
	}
	return fileKernel(k.ConnectionFile, spec)
}

func looksLikeFile(ref string) bool {
	return strings.ContainsRune(ref, filepath.Separator) || strings.HasSuffix(ref, ".json")
}

// fileKernel is a local kernel by its connection file (checked now).
func fileKernel(path string, spec AttachSpec) (Kernel, func(context.Context) (*Client, error), error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Kernel{}, nil, errcode.Invalid("connection_file", "%v", err)
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	info, err := ReadConnectionFile(abs, spec.Options.File)
	if err != nil {
		return Kernel{}, nil, attachError(err)
	}
	k := Kernel{ID: kernelIDFromFile(abs), ConnectionFile: abs, KernelName: info.KernelName, Found: "file"}
	for _, p := range scanKernelProcesses() {
		if p.ConnectionFile == abs {
			k.PID, k.Cwd, k.Started, k.Found = p.PID, p.Cwd, p.Started, "process"
		}
	}
	o := spec.Options
	if o.PID == 0 {
		o.PID = k.PID // its death is then seen at once
	}
	return k, func(ctx context.Context) (*Client, error) { return Dial(ctx, info, o) }, nil
}

// attachError types an error of finding or attaching to a kernel.
func attachError(err error) error {
	var (
		fe *FileError
		se *ServerError
	)
	switch {
	case errcode.As(err) != nil:
		return err
	case errors.As(err, &fe):
		return &errcode.Error{Code: errcode.InvalidArgument, Field: "connection_file", Message: err.Error()}
	case errors.As(err, &se) && (se.Status == 401 || se.Status == 403):
		return &errcode.Error{Code: errcode.InvalidArgument, Field: "token", Message: err.Error(),
			Hint: "give the server's token in a private token file or JUPYTER_TOKEN"}
	case errors.Is(err, syscall.ECONNREFUSED), errors.Is(err, syscall.ECONNRESET):
		// The message names the server's URL (never its token).
		return &errcode.Error{Code: errcode.NotFound, Field: "server_url", Message: err.Error(),
			Hint: "no Jupyter Server listens there: check the URL (jupyter server list)"}
	case errors.Is(err, ErrSignature):
		return &errcode.Error{Code: errcode.InvalidArgument, Field: "connection_file", Message: err.Error()}
	case errors.Is(err, ErrDead):
		return &errcode.Error{Code: errcode.NotFound, Field: "kernel", Message: err.Error(), Hint: hintKernelDead}
	case errors.Is(err, ErrNotKernelReply), errors.Is(err, ErrFrameTooLarge):
		return &errcode.Error{Code: errcode.NotFound, Field: "kernel", Message: err.Error(), Hint: hintNotKernel}
	case errors.Is(err, ErrNotAnswering), errors.Is(err, context.DeadlineExceeded):
		return &errcode.Error{Code: errcode.Timeout, Message: err.Error(), Hint: hintKernelTimeout}
	}
	return typed(err)
}
