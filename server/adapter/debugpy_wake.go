// debugpy_wake.go: debugpy's first-stop fixes, sent as ONE evaluate, and
// their undo. pydevd (debugpy ≤ 1.8.5) serves a stopped thread's requests
// from a loop that sleeps 10 ms between polls, so each evaluate, variables,
// step or goto on that thread waited up to 10 ms; the embedded
// debugpy_wake_install.py makes posting a command wake the thread at once
// (feature-detected, idempotent, skipped on 1.8.6+ which has its own fix).
// It rides in the same evaluate as the TCP_NODELAY fix, behind the same
// switch plus its own (launch option "fastWake", flag --fast-wake). An
// attached debuggee outlives the session, so Detach undoes it.

package adapter

import (
	"context"
	_ "embed"
	"strconv"
	"strings"

	godap "github.com/google/go-dap"
)

//go:embed debugpy_wake_install.py
var wakeInstallPy string

//go:embed debugpy_wake_uninstall.py
var wakeUninstallPy string

// WakeMarkerExpr reads the install's status in the debuggee: 'installed', or
// None when the patch is absent (tests and diagnostics).
const WakeMarkerExpr = `__import__('pydevd').__dict__.get('__dapscope_wake__', {}).get('status')`

var (
	// WakeInstallExpr installs the patch; its value is the install status.
	WakeInstallExpr = pyExec(wakeInstallPy, "<dapscope-wake:install>", false)
	// WakeUninstallExpr undoes it on a stopped thread; its value is the status.
	WakeUninstallExpr = pyExec(wakeUninstallPy, "<dapscope-wake:uninstall>", false)
	// WakeUninstallQuietExpr is the frameless form: pydevd runs a frameless
	// evaluate as a statement and prints a non-None value to the user's
	// debug console, so this one evaluates to None (no status read back).
	WakeUninstallQuietExpr = pyExec(wakeUninstallPy, "<dapscope-wake:uninstall>", true)
	// NoDelayWakeExpr applies both fixes in one round trip, TCP_NODELAY
	// first; its value is 'nodelay: ok; wake: <install status>'.
	NoDelayWakeExpr = "'nodelay: ' + str(" + NoDelayExpr + ") + '; wake: ' + str(" + WakeInstallExpr + ")"
)

// pyExec makes one Python expression that exec()s src in a fresh namespace
// (nothing leaks into the user's frame) and evaluates to its RESULT, or to
// None when quiet. A statement-form evaluate would leak names and return no
// status. src is ASCII, so Go's quoting is a valid Python string literal.
func pyExec(src, name string, quiet bool) string {
	run := "__import__('builtins').exec(compile(" + strconv.Quote(src) + ", " + strconv.Quote(name) + ", 'exec'), ns)"
	if quiet {
		return "(lambda ns: " + run + ")({'__name__': '__dapscope_wake__'})"
	}
	return "(lambda ns: (" + run + ", ns.get('RESULT'))[1])({'__name__': '__dapscope_wake__'})"
}

// FirstStop applies the TCP_NODELAY fix in the stopped frame, and with
// opts.FastWake the wake patch in the same evaluate.
func (debugpyDriver) FirstStop(ctx context.Context, c Caller, frameID int, opts FirstStopOptions) (FirstStopResult, error) {
	expr := NoDelayExpr
	if opts.FastWake {
		expr = NoDelayWakeExpr
	}
	var b godap.EvaluateResponseBody
	if err := c.Call(ctx, "evaluate", godap.EvaluateArguments{Expression: expr, FrameId: frameID, Context: "hover"}, &b); err != nil {
		return FirstStopResult{}, err
	}
	if !opts.FastWake {
		return FirstStopResult{Status: "nodelay"}, nil
	}
	status := WakeStatus(b.Result)
	undo := strings.HasPrefix(status, "installed v") || strings.HasPrefix(status, "already v")
	return FirstStopResult{Status: "nodelay; wake: " + status, Undo: undo}, nil
}

// WakeStatus extracts the install status from the combined evaluate's
// result, the repr of 'nodelay: …; wake: <status>'.
func WakeStatus(result string) string {
	if len(result) >= 2 && (result[0] == '\'' || result[0] == '"') && result[len(result)-1] == result[0] {
		result = result[1 : len(result)-1]
	}
	if _, after, ok := strings.Cut(result, "; wake: "); ok {
		return after
	}
	return "unexpected result: " + result
}

// Detach undoes the wake patch in a debuggee the session leaves running.
// With a stopped thread's frame the uninstall's status is read back;
// without one (frameID 0: the debuggee runs) the frameless, silent form is
// sent, which debugpy runs on its command thread.
func (debugpyDriver) Detach(ctx context.Context, c Caller, frameID int) (string, error) {
	if frameID != 0 {
		var b godap.EvaluateResponseBody
		err := c.Call(ctx, "evaluate", godap.EvaluateArguments{Expression: WakeUninstallExpr, FrameId: frameID, Context: "hover"}, &b)
		if err == nil {
			return strings.Trim(b.Result, `'"`), nil
		}
	}
	if err := c.Call(ctx, "evaluate", godap.EvaluateArguments{Expression: WakeUninstallQuietExpr, Context: "repl"}, nil); err != nil {
		return "", err
	}
	return "uninstall sent (debuggee running)", nil
}
