// lldb.go: LLVM's lldb-dap, the adapter for compiled programs (C, C++,
// Rust): starting it over stdio and its Driver — launch arguments (the
// Rust toolchain's formatters for Rust programs: lldb_rust.go), attach to
// a pid, and lldb's way of reporting an exit.

package adapter

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"sort"

	"github.com/dapscope/dapscope/inspect"
	"github.com/dapscope/dapscope/platform"
)

// LLDBConfig configures an lldb-dap adapter.
type LLDBConfig struct {
	LLDBDap string // default: platform.Find(platform.LLDBDap)
	Dir     string
	Logger  *slog.Logger
}

// StartLLDB starts lldb-dap; its stdio speaks DAP.
func StartLLDB(ctx context.Context, cfg LLDBConfig) (*Adapter, error) {
	bin := cfg.LLDBDap
	if bin == "" {
		var err error
		if bin, err = platform.Find(platform.LLDBDap); err != nil {
			return nil, err
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(bin)
	cmd.Dir = cfg.Dir
	cmd.Env = os.Environ()
	return startStdio(ctx, cmd, LLDB, platform.LLDBDap, bin, log, bin)
}

// lldbDriver is the Driver of lldb-dap.
type lldbDriver struct{}

func (lldbDriver) Kind() Kind                 { return LLDB }
func (lldbDriver) Language() inspect.Language { return inspect.Native }
func (lldbDriver) AdapterID() string          { return "lldb-dap" }
func (lldbDriver) Targets() Targets           { return Targets{} }
func (lldbDriver) Dir(string) string          { return "" }

// ExceptionFilters: none; signals (SIGSEGV, SIGABRT…) stop the program
// anyway, as "exception" stops.
func (lldbDriver) ExceptionFilters() []string { return []string{} }

func (lldbDriver) FirstStop(context.Context, Caller, int, FirstStopOptions) (FirstStopResult, error) {
	return FirstStopResult{}, nil
}

func (lldbDriver) Detach(context.Context, Caller, int) (string, error) { return "", nil }

// OutputCategory: lldb-dap's "console" lines are its own.
func (lldbDriver) OutputCategory(c string) string { return dapOutputCategory(c) }

// Traceback: lldb's frames are innermost first already.
func (lldbDriver) Traceback(raw string) string { return raw }

// ExitSignal: lldb reports a killed process's signal as its exit status,
// the same number a program's exit(N) gives: nothing to decode.
func (lldbDriver) ExitSignal(int) (int, string) { return 0, "" }

// Diagnose: lldb-dap reports a launch that failed (no such file, not an
// executable) in its error response.
func (lldbDriver) Diagnose(context.Context, LaunchConfig) string { return "" }

func (lldbDriver) Start(ctx context.Context, cfg StartConfig) (*Adapter, error) {
	return StartLLDB(ctx, LLDBConfig{LLDBDap: cfg.Exe, Dir: cfg.Dir, Logger: cfg.Logger})
}

// LaunchArgs launch the binary; env is lldb-dap 19's list of "K=V";
// initCommands load the Rust formatters for a Rust program.
func (lldbDriver) LaunchArgs(cfg LaunchConfig) map[string]any {
	args := baseLaunch(cfg, nil)
	args["program"] = cfg.Program
	if len(cfg.Env) > 0 {
		env := make([]string, 0, len(cfg.Env))
		for k, v := range cfg.Env {
			env = append(env, k+"="+v)
		}
		sort.Strings(env)
		args["env"] = env
	}
	if cmds := InitCommands(cfg.Program); len(cmds) > 0 {
		args["initCommands"] = cmds
	}
	return args
}

// Attach: lldb-dap attaches to a pid (AttachPid), not to an address.
func (lldbDriver) Attach(string, int) (AttachPlan, error) {
	return AttachPlan{}, fmt.Errorf("lldb attaches to a process id: give pid")
}

// AttachPid attaches lldb-dap to the running process pid.
func (lldbDriver) AttachPid(pid int, program string) (AttachPlan, error) {
	args := map[string]any{"request": "attach", "pid": pid}
	if program != "" {
		args["program"] = program
		if cmds := InitCommands(program); len(cmds) > 0 {
			args["initCommands"] = cmds
		}
	}
	return AttachPlan{Args: args}, nil
}

// PidAttacher is a Driver that attaches to a process id.
type PidAttacher interface {
	AttachPid(pid int, program string) (AttachPlan, error)
}
