// debugpy.go: debugpy, the Python adapter: starting it (`python -m
// debugpy.adapter` over stdio) and its Driver — launch and attach
// arguments, the "uncaught" exception filter, and the pydevd TCP_NODELAY
// fix applied at the first stop.

package adapter

import (
	"context"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/dapscope/dapscope/inspect"

	"github.com/dapscope/dapscope/platform"
)

// DefaultPython is the interpreter debugpy runs with when none is given:
// an activated venv's, else the first Python 3 where the system's
// installers put it (platform.Find; on Linux /usr/bin/python3 first, which
// has Debian's python3-debugpy); "" when there is none.
func DefaultPython() string {
	p, _ := platform.Find(platform.Python)
	return p
}

// pythonOr is py, or the default interpreter when py is "".
func pythonOr(py string) string {
	if py == "" {
		if py = DefaultPython(); py == "" {
			py = "python3"
		}
	}
	return py
}

// DebugpyConfig configures a debugpy adapter.
type DebugpyConfig struct {
	Python string // default DefaultPython()
	Dir    string
	Env    []string // extra environment for the adapter process
	Logger *slog.Logger
}

// StartDebugpy starts the adapter; the returned connection speaks DAP.
func StartDebugpy(ctx context.Context, cfg DebugpyConfig) (*Adapter, error) {
	py := cfg.Python
	if py == "" {
		var err error
		if py, err = platform.Find(platform.Python); err != nil {
			return nil, err
		}
	}
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	cmd := exec.Command(py, debugpyAdapterArgs()...)
	cmd.Dir = cfg.Dir
	cmd.Env = append(os.Environ(), cfg.Env...)
	return startStdio(ctx, cmd, Debugpy, platform.Python, py, log, "debugpy adapter with "+py)
}

// debugpyDriver is the Driver of debugpy.
type debugpyDriver struct{}

func (debugpyDriver) Kind() Kind                 { return Debugpy }
func (debugpyDriver) Language() inspect.Language { return inspect.Python }
func (debugpyDriver) AdapterID() string          { return string(Debugpy) }
func (debugpyDriver) Targets() Targets           { return Targets{Modules: true} }
func (debugpyDriver) Dir(string) string          { return "" }

func (debugpyDriver) Start(ctx context.Context, cfg StartConfig) (*Adapter, error) {
	return StartDebugpy(ctx, DebugpyConfig{Python: cfg.Exe, Dir: cfg.Dir, Logger: cfg.Logger})
}

// LaunchArgs runs the debuggee with the adapter's interpreter, its output
// as DAP output events, and PYDEVD_INTERRUPT_THREAD_TIMEOUT set (unless
// the caller's env sets it) so pydevd interrupts a stuck evaluation.
func (debugpyDriver) LaunchArgs(cfg LaunchConfig) map[string]any {
	env := maps.Clone(cfg.Env)
	if cfg.InterruptTimeout > 0 {
		if _, set := env["PYDEVD_INTERRUPT_THREAD_TIMEOUT"]; !set {
			if env == nil {
				env = map[string]string{}
			}
			env["PYDEVD_INTERRUPT_THREAD_TIMEOUT"] = fmt.Sprintf("%g", cfg.InterruptTimeout.Seconds())
		}
	}
	args := baseLaunch(cfg, env)
	args["type"] = "python"
	args["console"] = "internalConsole"
	args["redirectOutput"] = true
	args["justMyCode"] = true
	// -Xfrozen_modules=off: Python 3.11+ imports parts of its standard
	// library frozen, which pydevd warns may make it miss breakpoints,
	// asking for this flag. debugpy's launcher adds it itself on 3.11+
	// (1.6.3 and 1.8 alike); it is given here too so that a launcher that
	// does not never warns (TestLaunchWithoutFrozenModulesWarning). Older
	// Pythons ignore an unknown -X option.
	args["python"] = []string{pythonOr(cfg.Exe), "-Xfrozen_modules=off"}
	args["subProcess"] = !cfg.NoSubprocesses
	if cfg.Program != "" {
		args["program"] = cfg.Program
	} else {
		args["module"] = cfg.Module
	}
	return args
}

// Attach dials the adapter debugpy.listen() runs for the debuggee.
func (debugpyDriver) Attach(string, int) (AttachPlan, error) {
	return AttachPlan{Dial: true, Args: map[string]any{"request": "attach", "type": "python", "justMyCode": true}}, nil
}

func (debugpyDriver) ExceptionFilters() []string { return []string{"uncaught"} }

// NoDelayExpr sets TCP_NODELAY on pydevd's socket to the adapter. pydevd
// writes header and body in two sends, so without it every small response
// waits for a delayed ACK (~52 ms per evaluate, ~10.5 ms with it).
const NoDelayExpr = `(lambda so, w: (w.sock.setsockopt(so.IPPROTO_TCP, so.TCP_NODELAY, 1) if hasattr(w, 'sock') else None) or 'ok')(__import__('socket'), getattr(__import__('pydevd').get_global_debugger(), 'writer', None))`

// (FirstStop and Detach: debugpy_wake.go; Traceback: debugpy_traceback.go.)

// OutputCategory: debugpy's "console" messages are its own.
func (debugpyDriver) OutputCategory(c string) string { return dapOutputCategory(c) }

// fatalSignals are the signals whose exit codes debugpy reports as 256-N
// (its launcher masks Popen's -N to 8 bits). 1 (SIGHUP → 255) and 2
// (SIGINT → 254) are left out: 255 and 254 are common exit codes of their
// own.
var fatalSignals = map[int]string{
	3: "SIGQUIT", 4: "SIGILL", 6: "SIGABRT", 7: "SIGBUS", 8: "SIGFPE",
	9: "SIGKILL", 11: "SIGSEGV", 13: "SIGPIPE", 15: "SIGTERM",
}

// ExitSignal: debugpy reports a debuggee killed by signal N as 256-N.
func (debugpyDriver) ExitSignal(code int) (int, string) {
	if code < 256-64 || code > 255 {
		return 0, ""
	}
	if name, ok := fatalSignals[256-code]; ok {
		return 256 - code, name
	}
	return 0, ""
}

// diagnoseScript imports what debugpy's launcher imports in the debuggee
// before it connects back (pydevd reads its PYDEVD_* settings there).
const diagnoseScript = "import debugpy, debugpy._vendored.force_pydevd, pydevd"

// Diagnose: debugpy 1.6 holds a debuggee's output until the start has
// completed and drops it when the start fails ("Timed out waiting for
// debuggee to spawn"), so the reason (a bad PYDEVD_* value, an interpreter
// without debugpy) never reaches the client. Re-run the debuggee's own
// imports with its interpreter, env and cwd, and return their error.
func (debugpyDriver) Diagnose(ctx context.Context, cfg LaunchConfig) string {
	py := pythonOr(cfg.Exe)
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, "-c", diagnoseScript)
	cmd.Dir = cfg.Cwd
	cmd.Env = os.Environ()
	for k, v := range cfg.Env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	out, err := cmd.CombinedOutput()
	if err == nil {
		return ""
	}
	text := strings.TrimSpace(string(out))
	if len(text) > 2048 {
		text = "…" + text[len(text)-2048:]
	}
	if text == "" {
		text = err.Error()
	}
	return text
}
