// driver.go: the Driver interface — everything that differs from one debug
// adapter to another (how it starts, what its initialize, launch and attach
// requests say, its exception filters, its first-stop quirk) — and the
// neutral configurations the session API hands a driver. Each adapter
// implements it in its own file (debugpy.go, dlv.go).

package adapter

import (
	"context"
	"log/slog"
	"time"

	"github.com/dapscope/dapscope/inspect"
)

// Driver is one kind of debug adapter. Drivers are stateless values.
type Driver interface {
	// Kind is the adapter's kind.
	Kind() Kind
	// Language is the debuggee's language as the inspector sees it: it
	// picks the probe (or the DAP variables fallback) and the grammar of
	// expressions.
	Language() inspect.Language
	// Start starts the adapter process; its connection speaks DAP.
	Start(ctx context.Context, cfg StartConfig) (*Adapter, error)
	// AdapterID is the adapterID of the initialize request.
	AdapterID() string
	// Targets says what a launch may name besides a program file.
	Targets() Targets
	// Dir is the adapter's working directory for launching program (an
	// absolute path; "" when the adapter does not care: the workspace).
	Dir(program string) string
	// LaunchArgs are the arguments of the launch request.
	LaunchArgs(cfg LaunchConfig) map[string]any
	// Attach says how to reach a debuggee that waits for debuggers on
	// host:port; an error when this adapter cannot attach so.
	Attach(host string, port int) (AttachPlan, error)
	// ExceptionFilters are set with setExceptionBreakpoints before
	// configurationDone (never nil: an empty list clears them).
	ExceptionFilters() []string
	// FirstStop runs once per session, at the first stop that has a top
	// frame (frameID), when the session's first-stop fixes are on (the
	// launch option "nodelay"). Its error is only logged.
	FirstStop(ctx context.Context, c Caller, frameID int, opts FirstStopOptions) (FirstStopResult, error)
	// Detach undoes what FirstStop left in a debuggee that outlives the
	// session (attach), before the disconnect; frameID is a stopped
	// thread's top frame, 0 when the debuggee runs. It returns a status for
	// the log.
	Detach(ctx context.Context, c Caller, frameID int) (string, error)
	// OutputCategory files an output event's category as the program's
	// ("stdout", "stderr", "console") or the adapter's own ("debugger");
	// "" drops it (telemetry).
	OutputCategory(category string) string
	// Traceback writes the stack trace of an exceptionInfo response in the
	// language's own order (Python: most recent call last).
	Traceback(raw string) string
	// ExitSignal decodes an exited event's exit code into the signal that
	// killed the debuggee (0 when the code means a normal exit).
	ExitSignal(code int) (signal int, name string)
	// Diagnose runs after a launch failed with nothing captured: it tries
	// what the adapter does to start the debuggee (same interpreter, env,
	// cwd), bounded, and returns the tail of what that printed ("": no
	// clue). Adapters that lose a dying debuggee's output need it.
	Diagnose(ctx context.Context, cfg LaunchConfig) string
}

// FirstStopOptions are a session's first-stop switches beyond "nodelay".
type FirstStopOptions struct {
	// FastWake: debugpy's wait-loop wake patch (debugpy_wake.go).
	FastWake bool
}

// FirstStopResult says what FirstStop did.
type FirstStopResult struct {
	Status string // for the log
	Undo   bool   // Detach must undo it before leaving a live debuggee
}

// Targets says what a launch may name besides a program file.
type Targets struct {
	Dirs    bool // the program may be a directory (a package)
	Modules bool // a module may be launched instead of a program
}

// Caller sends a DAP request on the session's connection (the mux).
type Caller interface {
	Call(ctx context.Context, command string, args, out any) error
}

// StartConfig configures the start of an adapter process.
type StartConfig struct {
	// Exe is the executable the driver runs (debugpy: the Python
	// interpreter; dlv: the dlv binary); "" for the driver's default.
	Exe    string
	Dir    string // working directory
	Logger *slog.Logger
}

// LaunchConfig is a headless launch, validated and resolved by the session
// API; each driver turns it into its adapter's launch arguments.
type LaunchConfig struct {
	Program     string // absolute path ("" when Module is set)
	Module      string
	Args        []string
	Env         map[string]string
	Cwd         string // absolute
	StopOnEntry bool
	// Exe is the executable of StartConfig (debugpy runs the debuggee
	// with the same interpreter).
	Exe string
	// Scratch is a unique path prefix in the temporary directory for the
	// adapter's own files (dlv: the debug binary it builds).
	Scratch string
	// InterruptTimeout bounds an evaluation stuck in the debuggee, for
	// adapters that can interrupt one (0 or negative: none).
	InterruptTimeout time.Duration
	// Workspace is the session manager's workspace (the Node adapter keeps
	// the paths source maps name in it).
	Workspace string
	// NoSubprocesses: the adapter does not follow the debuggee's child
	// processes (debugpy's subProcess: false); they run undebugged.
	NoSubprocesses bool
}

// baseLaunch holds the launch arguments every adapter takes.
func baseLaunch(cfg LaunchConfig, env map[string]string) map[string]any {
	args := map[string]any{"request": "launch", "cwd": cfg.Cwd, "stopOnEntry": cfg.StopOnEntry}
	if len(cfg.Args) > 0 {
		args["args"] = cfg.Args
	}
	if len(env) > 0 {
		args["env"] = env
	}
	return args
}

// dapOutputCategory is the usual filing: the program writes stdout and
// stderr; "console", "important" and unknown categories are the adapter's
// own notices (debugpy's and Delve's messages); telemetry is dropped.
func dapOutputCategory(category string) string {
	switch category {
	case "stdout", "":
		return "stdout"
	case "stderr":
		return "stderr"
	case "telemetry":
		return ""
	}
	return "debugger"
}

// AttachPlan is how a session attaches to a debuggee listening on
// host:port: Dial connects to a DAP adapter that already runs there
// (debugpy.listen()); otherwise the driver's own adapter is started and
// sent an attach request with Args (the node adapter reaching V8's
// inspector at that address).
type AttachPlan struct {
	Dial bool
	Args map[string]any
}
