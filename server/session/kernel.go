// kernel.go: sessions on live Jupyter kernels (server/kernel) registered
// as first-class sessions. Like a bridged session, a kernel session is an
// in-memory DAP stream whose other end is a virtual adapter inside the
// sidecar (server/kernel's Adapter): the kernel's namespace is a stopped
// thread while the kernel is idle, a user's cell is the program running,
// a cell paused in the kernel's debugger is that debugger's stop. The
// sidecar never sends initialize, launch or configurationDone on it and
// never applies a first-stop fix; ending it detaches (the kernel goes on).

package session

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/inspect/clip"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// OriginKernel is the origin of a session on a live Jupyter kernel.
const OriginKernel = "kernel"

// KernelSpec describes a session on a live kernel.
type KernelSpec struct {
	// Key names the kernel (its connection file, or a Jupyter Server URL
	// and kernel id): KernelSession finds a live session by it.
	Key string
	// Name is what listings show (the kernel id, its notebook).
	Name string
	// Where is the notebook path or connection file, shown as the
	// session's program.
	Where string
	// Conn is the virtual adapter's DAP stream; the session closes it when
	// it ends.
	Conn io.ReadWriteCloser
	// Busy explains why the namespace cannot be read now (a user's cell
	// runs: which, since when) as the NOT_PAUSED error to return; nil
	// when it is not busy. Called without the session's locks.
	Busy func() *errcode.Error
	// Refuses is the NOT_SUPPORTED error of a command the kernel session
	// does not send now (setBreakpoints, setVariable, launch, …), nil for
	// one it sends.
	Refuses func(command string) *errcode.Error
	// Ended says why the session ended on its own (the kernel died), for
	// its outcome; "" when it did not.
	Ended func() string
	// Namespace is the frame id of the kernel's namespace: valid at every
	// stop (a cell paused in the debugger too), not one of a stop's frames.
	Namespace int
}

type kernelInfo struct {
	key, name, where string
	busy             func() *errcode.Error
	refuses          func(string) *errcode.Error
	ended            func() string
	namespace        int
}

// Kernel registers a session on a live kernel behind spec.Conn. It starts
// nothing: the session follows the events the virtual adapter sends.
func (m *Manager) Kernel(spec KernelSpec) (*Session, error) {
	if spec.Conn == nil {
		return nil, errcode.Invalid("conn", "required")
	}
	d, err := adapter.DriverFor(adapter.Kernel)
	if err != nil {
		return nil, err
	}
	ad := adapter.Over(adapter.Kernel, spec.Conn)
	mx := mux.New(ad.Conn(), mux.Options{
		Logger: m.log,
		Reverse: func(cmd string, _ json.RawMessage) (any, error) {
			return nil, fmt.Errorf("%s is not supported on a kernel session", cmd)
		},
	})
	s, err := m.register(OriginKernel, d, ad, mx)
	if err != nil {
		_ = ad.Close()
		return nil, err
	}
	s.attached.Store(true) // the kernel is the user's: ending the session detaches
	s.mu.Lock()
	s.kernel = &kernelInfo{key: spec.Key, name: clip.Bytes.Head(spec.Name, 200), where: clip.Bytes.Head(spec.Where, 1000),
		busy: spec.Busy, refuses: spec.Refuses, ended: spec.Ended, namespace: spec.Namespace}
	s.noDelay = false // never patch a kernel
	s.mu.Unlock()
	s.log.Info("kernel session registered", "kernel", spec.Name)
	m.serve(s, mx, ad, 4096)
	return s, nil
}

// KernelSession is the live session on the kernel named key, if any.
func (m *Manager) KernelSession(key string) *Session {
	for _, s := range m.List() {
		if s.kernel != nil && s.kernel.key == key && !s.gone() && s.Status() != StatusTerminated &&
			s.Status() != StatusCompleted && s.Status() != StatusError {
			return s
		}
	}
	return nil
}

// IsKernel reports whether the session is on a live Jupyter kernel.
func (s *Session) IsKernel() bool { return s.kernel != nil }

// kernelBusy is the kernel's NOT_PAUSED explanation (which cell runs, for
// how long), nil for other sessions or an idle kernel.
func (s *Session) kernelBusy() *errcode.Error {
	if s.kernel == nil || s.kernel.busy == nil {
		return nil
	}
	return s.kernel.busy()
}

// NotPaused explains a request that needs the namespace (or a stopped
// thread) when the session is not paused, better than its status: for a
// kernel busy with a user's cell, the cell and for how long (the inspector
// asks it, inspect.Target's optional NotPaused).
func (s *Session) NotPaused() *errcode.Error { return s.kernelBusy() }

// kernelRefuses is the error for a command a kernel session does not send.
func (s *Session) kernelRefuses(command string) error {
	if s.kernel == nil || s.kernel.refuses == nil {
		return nil
	}
	if e := s.kernel.refuses(command); e != nil {
		return e
	}
	return nil
}

// explainNotPaused replaces a generic NOT_PAUSED of a kernel session by
// the kernel's own explanation.
func (s *Session) explainNotPaused(err error) error {
	if errcode.Is(err, errcode.NotPaused) {
		if e := s.kernelBusy(); e != nil {
			return e
		}
	}
	return err
}

// kernelEnded fills the outcome of a kernel session that ended on its own
// (the kernel died); s.mu is held.
func (s *Session) kernelEndedLocked() {
	if s.kernel == nil || s.kernel.ended == nil {
		return
	}
	if why := s.kernel.ended(); why != "" {
		o := s.outcomeLocked()
		o.ErrorType, o.ErrorMessage = "KernelDied", why
		o.Lost = true // the session lost its kernel: ended "lost", with why
	}
}
