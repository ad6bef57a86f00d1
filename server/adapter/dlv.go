// dlv.go: Delve, the Go adapter: starting its DAP server (the sidecar
// listens on loopback first and starts `dlv dap --client-addr` so Delve
// dials in: no port race) and its Driver — Delve builds the program in the
// program's directory, into a debug binary kept out of the user's tree.

package adapter

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/dapscope/dapscope/inspect"

	"github.com/dapscope/dapscope/platform"
)

// DlvConfig configures a Delve adapter.
type DlvConfig struct {
	Dlv    string // default: FindDlv()
	Dir    string
	Env    []string
	Logger *slog.Logger
	// ConnectTimeout bounds the wait for Delve to dial in (default 20 s).
	ConnectTimeout time.Duration
}

// FindDlv looks for dlv (dlv.exe) on PATH, then in $GOBIN, $GOPATH/bin and
// ~/go/bin; its error says how to install Delve.
func FindDlv() (string, error) { return platform.Find(platform.Dlv) }

// StartDlv starts `dlv dap` and waits for it to connect back.
func StartDlv(ctx context.Context, cfg DlvConfig) (*Adapter, error) {
	bin := cfg.Dlv
	if bin == "" {
		var err error
		if bin, err = FindDlv(); err != nil {
			return nil, err
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	timeout := cfg.ConnectTimeout
	if timeout == 0 {
		timeout = 20 * time.Second
	}
	ln, err := net.ListenTCP("tcp", &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		return nil, err
	}
	defer ln.Close()
	cmd := exec.Command(bin, "dap", "--client-addr", ln.Addr().String())
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	a, err := startProcess(cmd, log.With("adapter", "dlv"), true)
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return nil, platform.Missing(platform.Dlv, bin)
	}
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", bin, err)
	}
	a.Kind = Dlv
	type accepted struct {
		c   net.Conn
		err error
	}
	ch := make(chan accepted, 1)
	go func() {
		c, err := ln.Accept()
		ch <- accepted{c, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case r := <-ch:
		if r.err != nil {
			_ = a.Close()
			return nil, fmt.Errorf("waiting for dlv to connect: %w", r.err)
		}
		if tc, ok := r.c.(*net.TCPConn); ok {
			_ = tc.SetNoDelay(true)
		}
		a.conn = r.c
		return a, nil
	case <-a.Exited():
		_ = ln.Close()
		return nil, fmt.Errorf("dlv exited before connecting: %v", a.waitErr)
	case <-timer.C:
	case <-ctx.Done():
	}
	_ = ln.Close()
	_ = a.Close()
	return nil, fmt.Errorf("dlv did not connect within %s", timeout)
}

// dlvDriver is the Driver of Delve.
type dlvDriver struct{}

func (dlvDriver) Kind() Kind                 { return Dlv }
func (dlvDriver) Language() inspect.Language { return inspect.Go }
func (dlvDriver) AdapterID() string          { return string(Dlv) }
func (dlvDriver) Targets() Targets           { return Targets{Dirs: true} }
func (dlvDriver) ExceptionFilters() []string { return []string{} }
func (dlvDriver) FirstStop(context.Context, Caller, int, FirstStopOptions) (FirstStopResult, error) {
	return FirstStopResult{}, nil
}

func (dlvDriver) Detach(context.Context, Caller, int) (string, error) { return "", nil }

// OutputCategory: Delve's "console" messages are its own.
func (dlvDriver) OutputCategory(c string) string { return dapOutputCategory(c) }

// Traceback: Delve's stack trace is already in Go's order (innermost first).
func (dlvDriver) Traceback(raw string) string { return raw }

// ExitSignal: Delve reports the process's own exit status.
func (dlvDriver) ExitSignal(int) (int, string) { return 0, "" }

// Diagnose: Delve reports build and start errors itself.
func (dlvDriver) Diagnose(context.Context, LaunchConfig) string { return "" }

func (dlvDriver) Start(ctx context.Context, cfg StartConfig) (*Adapter, error) {
	return StartDlv(ctx, DlvConfig{Dlv: cfg.Exe, Dir: cfg.Dir, Logger: cfg.Logger})
}

// Dir is the package directory: Delve builds the program in its own
// working directory.
func (dlvDriver) Dir(program string) string {
	if program == "" {
		return ""
	}
	if st, err := os.Stat(program); err == nil && !st.IsDir() {
		return filepath.Dir(program)
	}
	return program
}

// LaunchArgs build and debug the program, with the debug binary in the
// scratch path and program output as DAP output events.
func (dlvDriver) LaunchArgs(cfg LaunchConfig) map[string]any {
	args := baseLaunch(cfg, cfg.Env)
	args["mode"] = "debug"
	args["program"] = cfg.Program
	args["output"] = cfg.Scratch + "-debug"
	args["outputMode"] = "remote"
	return args
}

func (dlvDriver) Attach(string, int) (AttachPlan, error) {
	return AttachPlan{}, fmt.Errorf("attaching to a running Delve is not supported")
}
