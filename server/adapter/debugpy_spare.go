// debugpy_spare.go: a spare debuggee for debugpy launches. Launching to
// the first stop spends most of its time in processes the sidecar waits
// for: debugpy's launcher, the program's interpreter and pydevd's imports.
// A spare (debugpy_spare.py) pays those while nobody waits: an
// interpreter with debugpy's server and pydevd imported, holding no
// socket, that waits on stdin for the program to run. The session attaches
// its adapter with "listen", and the spare connects to it (debugpy.connect)
// and runs the program as debugpy's own command line does (runpy). It is
// used only where a plain launch would be the same program run the same
// way (server/session/spare.go); Warm keeps one ready.

package adapter

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/dapscope/dapscope/platform"
)

//go:embed debugpy_spare.py
var spareBoot string

// SpareReadyTimeout bounds a spare's start-up (its interpreter and imports).
var SpareReadyTimeout = 30 * time.Second

// SpareRun is what a spare runs: the program (or module), and where the
// session's adapter listens for it.
type SpareRun struct {
	Host         string            `json:"host"`
	Port         int               `json:"port"`
	Program      string            `json:"program,omitempty"`
	Module       string            `json:"module,omitempty"`
	Args         []string          `json:"args,omitempty"`
	Cwd          string            `json:"cwd"`
	Env          map[string]string `json:"env,omitempty"`
	Subprocesses bool              `json:"subprocesses"`
}

// SpareEnvAtStart reports whether a launch's environment variable name is
// one the interpreter, pydevd or debugpy read as they start, which a spare
// started earlier cannot honour (such a launch is not run on a spare).
func SpareEnvAtStart(name string) bool {
	n := strings.ToUpper(name)
	for _, p := range []string{"PYTHON", "PYDEVD", "DEBUGPY", "LD_", "DYLD_"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return n == "PATH" || n == "HOME" || n == "VIRTUAL_ENV"
}

// StartSpareDebuggee starts a spare with cfg's interpreter in cfg.Dir and
// returns once it is ready (its imports done). env is added to the
// spare's environment (pydevd's settings, read as it is imported).
func StartSpareDebuggee(ctx context.Context, cfg StartConfig, env []string) (*Adapter, error) {
	py := pythonOr(cfg.Exe)
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(py, "-Xfrozen_modules=off", "-c", spareBoot)
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), env...)
	a, err := startStdio(ctx, cmd, Debugpy, platform.Python, py, log.With("spare", true), "spare debuggee with "+py)
	if err != nil {
		return nil, err
	}
	ready := make(chan error, 1)
	go func() {
		line, err := bufio.NewReaderSize(a.conn, 64).ReadString('\n')
		if err == nil && strings.TrimSpace(line) != `{"ready": true}` {
			err = fmt.Errorf("unexpected first line %q", clipLine(line))
		}
		ready <- err
	}()
	t := time.NewTimer(SpareReadyTimeout)
	defer t.Stop()
	select {
	case err = <-ready:
	case <-t.C:
		err = errors.New("not ready within " + SpareReadyTimeout.String())
	case <-ctx.Done():
		err = ctx.Err()
	}
	if err != nil {
		_ = a.Close()
		return nil, fmt.Errorf("spare debuggee: %w", err)
	}
	return a, nil
}

// RunOnSpare hands a ready spare its program. The spare's own output is
// then drained (the program's output reaches the session as output
// events, "redirectOutput").
func RunOnSpare(a *Adapter, run SpareRun) error {
	b, err := json.Marshal(run)
	if err != nil {
		return err
	}
	if _, err := a.conn.Write(append(b, '\n')); err != nil {
		return fmt.Errorf("spare debuggee: %w", err)
	}
	go func() { _, _ = io.Copy(io.Discard, a.conn) }()
	return nil
}

// ExitCode is the process's exit code once Exited is closed (-1 when it
// was killed by a signal or never ran).
func (a *Adapter) ExitCode() int {
	<-a.waitDone
	if a.cmd == nil || a.cmd.ProcessState == nil {
		return -1
	}
	return a.cmd.ProcessState.ExitCode()
}

func clipLine(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}
