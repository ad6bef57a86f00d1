// discover.go: listing the kernels this user can reach: connection files
// in the runtime directory and those named by running kernel processes,
// each probed (kernel_info, busy or idle), and a Jupyter Server's kernels
// with their notebooks; Find picks one by id, file or prefix.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// Kernel is one kernel found by List or Server.List.
type Kernel struct {
	ID             string    `json:"id"`
	ConnectionFile string    `json:"connection_file,omitempty"`
	Server         string    `json:"server,omitempty"`   // the Jupyter Server's URL (no token)
	Notebook       string    `json:"notebook,omitempty"` // the notebook using it (server sessions)
	KernelName     string    `json:"kernel_name,omitempty"`
	Language       string    `json:"language,omitempty"`
	Implementation string    `json:"implementation,omitempty"`
	PID            int       `json:"pid,omitempty"`
	Cwd            string    `json:"cwd,omitempty"`
	Started        time.Time `json:"started,omitzero"`
	// State: idle, busy, starting, dead (stale file), not answering,
	// refused (a file that may not be used), unknown.
	State       string `json:"state"`
	Cell        *Cell  `json:"cell,omitempty"`
	Connections int    `json:"connections,omitempty"`
	Error       string `json:"error,omitempty"`
	// Found: "runtime-dir", "process" or "server".
	Found string `json:"found"`
}

// MarshalJSON is encoding/json's, whatever encoder asks (the editor
// channel's JSON-RPC library does not know omitzero).
func (k Kernel) MarshalJSON() ([]byte, error) {
	type plain Kernel
	return json.Marshal(plain(k))
}

// Kernel states beyond the execution states.
const (
	KernelDead         = "dead"
	KernelNotAnswering = "not answering"
	KernelRefused      = "refused"
)

// ListOptions tune List.
type ListOptions struct {
	RuntimeDir   string        // default RuntimeDir()
	NoProcesses  bool          // skip the process scan
	ProbeTimeout time.Duration // per kernel (default 3 s)
	Options      Options       // for the probes' clients
}

// ProcessScanAvailable says whether List can find kernels by their
// processes on this platform (Linux only).
func ProcessScanAvailable() bool { return processScanAvailable }

// List finds local kernels and probes each (concurrently, each within
// ProbeTimeout). A file that cannot be used is listed with its reason.
func List(ctx context.Context, opts ListOptions) ([]Kernel, error) {
	dir := opts.RuntimeDir
	if dir == "" {
		dir = RuntimeDir()
	}
	if opts.ProbeTimeout <= 0 {
		opts.ProbeTimeout = 3 * time.Second
	}
	byFile := map[string]*Kernel{}
	var order []string
	add := func(file, found string) *Kernel {
		key := file
		if r, err := filepath.EvalSymlinks(file); err == nil {
			key = r
		}
		if k := byFile[key]; k != nil {
			return k
		}
		k := &Kernel{ID: kernelIDFromFile(file), ConnectionFile: file, Found: found}
		byFile[key] = k
		order = append(order, key)
		return k
	}
	matches, _ := filepath.Glob(filepath.Join(dir, "kernel-*.json"))
	sort.Strings(matches)
	for _, f := range matches {
		add(f, "runtime-dir")
	}
	if !opts.NoProcesses {
		for _, p := range scanKernelProcesses() {
			k := add(p.ConnectionFile, "process")
			k.PID, k.Cwd, k.Started = p.PID, p.Cwd, p.Started
		}
	}
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for _, key := range order {
		k := byFile[key]
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			probe(ctx, k, opts)
		}()
	}
	wg.Wait()
	out := make([]Kernel, 0, len(order))
	for _, key := range order {
		out = append(out, *byFile[key])
	}
	return out, ctx.Err()
}

// kernelIDFromFile is the id Jupyter gives a kernel: its connection
// file's name without "kernel-" and ".json".
func kernelIDFromFile(file string) string {
	b := strings.TrimSuffix(filepath.Base(file), ".json")
	return strings.TrimPrefix(b, "kernel-")
}

// probe attaches to one kernel briefly and fills in what it learns.
func probe(ctx context.Context, k *Kernel, opts ListOptions) {
	info, err := ReadConnectionFile(k.ConnectionFile, opts.Options.File)
	if err != nil {
		k.State, k.Error = KernelRefused, err.Error()
		if errors.Is(err, os.ErrNotExist) {
			k.State = KernelDead
		}
		return
	}
	k.KernelName = info.KernelName
	pctx, cancel := context.WithTimeout(ctx, opts.ProbeTimeout)
	defer cancel()
	o := opts.Options
	o.HeartbeatInterval = time.Hour // the probe's client lives for an instant
	c, err := Dial(pctx, info, o)
	if err != nil {
		k.State, k.Error = KernelNotAnswering, err.Error()
		switch {
		case errors.Is(err, ErrDead):
			k.State = KernelDead
		case errors.Is(err, ErrNotKernelReply), errors.Is(err, ErrFrameTooLarge):
			k.State = KernelRefused // not a kernel: the reason says so
		}
		return
	}
	defer c.Close()
	ki := c.Info()
	k.Language, k.Implementation = ki.Language(), ki.Implementation
	st := c.State()
	k.State, k.Cell = st.Execution, st.Cell
}

// List lists the server's kernels with their notebooks and languages.
func (s *Server) List(ctx context.Context) ([]Kernel, error) {
	ks, err := s.Kernels(ctx)
	if err != nil {
		return nil, err
	}
	sessions, err := s.Sessions(ctx)
	if err != nil {
		return nil, err
	}
	specs, err := s.KernelSpecs(ctx)
	if err != nil {
		return nil, err
	}
	notebook := map[string]string{}
	for _, ss := range sessions {
		if notebook[ss.Kernel.ID] == "" {
			notebook[ss.Kernel.ID] = ss.Path
		}
	}
	out := make([]Kernel, 0, len(ks))
	for _, k := range ks {
		out = append(out, Kernel{
			ID: k.ID, Server: s.URL(), Notebook: notebook[k.ID], KernelName: k.Name,
			Language: specs[k.Name].Language, State: k.ExecutionState, Connections: k.Connections, Found: "server",
		})
	}
	return out, nil
}

// Find picks one kernel from a listing: ref is a kernel id, a unique id
// prefix, or a connection file path; an empty ref is the only kernel.
func Find(kernels []Kernel, ref string) (Kernel, error) {
	if ref == "" {
		switch len(kernels) {
		case 1:
			return kernels[0], nil
		case 0:
			return Kernel{}, errors.New("no running kernel found")
		}
		return Kernel{}, fmt.Errorf("%d kernels are running: name one (%s)", len(kernels), ids(kernels))
	}
	if strings.ContainsRune(ref, filepath.Separator) || strings.HasSuffix(ref, ".json") {
		abs, _ := filepath.Abs(ref)
		for _, k := range kernels {
			if k.ConnectionFile == abs || k.ConnectionFile == ref {
				return k, nil
			}
		}
		return Kernel{ID: kernelIDFromFile(ref), ConnectionFile: abs, Found: "file"}, nil
	}
	var hits []Kernel
	for _, k := range kernels {
		if k.ID == ref {
			return k, nil
		}
		if strings.HasPrefix(k.ID, ref) {
			hits = append(hits, k)
		}
	}
	switch len(hits) {
	case 1:
		return hits[0], nil
	case 0:
		return Kernel{}, fmt.Errorf("no kernel %q among %s", ref, ids(kernels))
	}
	return Kernel{}, fmt.Errorf("%q names %d kernels: %s", ref, len(hits), ids(hits))
}

func ids(ks []Kernel) string {
	var s []string
	for _, k := range ks {
		s = append(s, k.ID)
	}
	if len(s) == 0 {
		return "none"
	}
	return strings.Join(s, ", ")
}
