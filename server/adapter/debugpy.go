// debugpy.go: starts debugpy's adapter (`python -m debugpy.adapter`) over
// stdio.

package adapter

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
)

// DefaultPython is the interpreter that has Debian's debugpy.
const DefaultPython = "/usr/bin/python3"

// DebugpyConfig configures a debugpy adapter.
type DebugpyConfig struct {
	Python string // default DefaultPython
	Dir    string
	Env    []string // extra environment for the adapter process
	Logger *slog.Logger
}

// StartDebugpy starts the adapter; the returned connection speaks DAP.
func StartDebugpy(ctx context.Context, cfg DebugpyConfig) (*Adapter, error) {
	py := cfg.Python
	if py == "" {
		py = DefaultPython
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(py, "-m", "debugpy.adapter")
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	a, err := startProcess(cmd, log.With("adapter", "debugpy"), false)
	if err != nil {
		return nil, fmt.Errorf("starting debugpy adapter with %s: %w", py, err)
	}
	a.Kind = "debugpy"
	a.conn = &pipeConn{ReadCloser: stdout, w: stdin}
	a.stdin = stdin
	if err := ctx.Err(); err != nil {
		_ = a.Close()
		return nil, err
	}
	return a, nil
}
