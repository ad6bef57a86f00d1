// model.go: the session model the API reports — status and origin values,
// breakpoints with what the adapter said of them, stop locations, stops,
// outcomes, timings, the Summary and Info snapshots of a session, and the
// lifecycle Event.

package session

import (
	"time"

	godap "github.com/google/go-dap"
)

// Status values of the session model.
const (
	StatusIdle      = "idle"
	StatusRunning   = "running"
	StatusPaused    = "paused"
	StatusCompleted = "completed"
	StatusError     = "error"
	// StatusTerminated: ended by the user (Terminate), not by the program.
	StatusTerminated = "terminated"
)

// NotPausedText says a status in words for a "not paused" error ("the
// debuggee is error" read badly).
func NotPausedText(status string) string {
	switch status {
	case StatusError:
		return "the debuggee has ended with an error"
	case StatusCompleted:
		return "the debuggee has completed"
	case StatusTerminated:
		return "the debuggee was terminated"
	case "":
		return "the debuggee is not paused"
	}
	return "the debuggee is " + status
}

// Origins (and OriginBridged, bridged.go).
const (
	OriginHeadless = "headless"
	OriginEditor   = "editor"
)

// Breakpoint is a requested breakpoint.
type Breakpoint struct {
	File         string `json:"file"`
	Line         int    `json:"line"`
	Condition    string `json:"condition,omitempty"`
	HitCondition string `json:"hit_condition,omitempty"`
	LogMessage   string `json:"log_message,omitempty"`
}

// BreakpointState is a breakpoint with what the adapter said of it.
type BreakpointState struct {
	Breakpoint
	ID       int    `json:"id,omitempty"`
	Verified bool   `json:"verified"`
	Message  string `json:"message,omitempty"`
	HitCount int    `json:"hit_count"`
	// RequestedLine is the line asked for when the adapter moved the
	// breakpoint (Line is where it is).
	RequestedLine int `json:"requested_line,omitempty"`
	// State is empty once the adapter confirmed the file's set, "pending"
	// while it has not answered yet, "unknown" when it never did
	// (breakpoints.go).
	State string `json:"state,omitempty"`
	// Column is where on its line a verified breakpoint is bound (1-based;
	// 0: the adapter did not say).
	Column int `json:"column,omitempty"`
	// Error is what its condition, hit condition or log message threw
	// last (it then never stops or logs: the adapter counts it false).
	Error *BreakpointError `json:"error,omitempty"`
}

// BreakpointError is a breakpoint whose condition, hit condition or log
// message threw in the debuggee.
type BreakpointError struct {
	ID    int    `json:"id"`
	File  string `json:"file"`
	Line  int    `json:"line"`
	Kind  string `json:"kind" desc:"condition | hit condition | log message"`
	Error string `json:"error"`
	Note  string `json:"note,omitempty"`
}

// StopLocation is where the debuggee stopped.
type StopLocation struct {
	Reason      string `json:"reason"`
	Description string `json:"description,omitempty"`
	ThreadID    int    `json:"thread_id"`
	FrameID     int    `json:"frame_id,omitempty"`
	Function    string `json:"function,omitempty"`
	File        string `json:"file,omitempty"` // workspace-relative when inside it
	Path        string `json:"path,omitempty"` // absolute
	Line        int    `json:"line,omitempty"`
	Column      int    `json:"column,omitempty"`
}

// Stop is what Wait returns.
type Stop struct {
	Running  bool              `json:"running,omitempty"` // timed out, still running
	Exited   bool              `json:"exited,omitempty"`  // the session ended
	Location *StopLocation     `json:"location,omitempty"`
	Frame    *godap.StackFrame `json:"-"`
	Outcome  *Outcome          `json:"outcome,omitempty"`
	// BreakpointErrors are the breakpoints whose condition threw since the
	// previous stop.
	BreakpointErrors []BreakpointError `json:"breakpoint_errors,omitempty"`
	// Gen is the stop's number (StopCount): frame ids are a stop's own,
	// and an adapter may hand out the same ids at its next stop (Delve).
	Gen int `json:"-"`
}

// How a run ended (Outcome.Ended): one word, the same in every report.
const (
	// EndedExited: the program ran to its end (ExitCode says how).
	EndedExited = "exited"
	// EndedTerminated: the user ended it (Terminate, debug_terminate);
	// an exit code is the kill's, not the program's.
	EndedTerminated = "terminated"
	// EndedCrashed: an uncaught exception ended it (ErrorType,
	// ErrorMessage, Traceback).
	EndedCrashed = "crashed"
	// EndedKilled: a signal from outside ended it (Signal, SignalName).
	EndedKilled = "killed"
	// EndedLost: the debug adapter went away before the program ended
	// (ErrorMessage says why); what the program did next is unknown.
	EndedLost = "lost"
)

// Outcome is how the program ended (or the exception it raised).
type Outcome struct {
	Reached bool `json:"reached"` // some breakpoint was hit
	// Ended says how the run ended (Ended* constants); empty while it runs
	// (an exception stop fills ErrorType before the end).
	Ended string `json:"ended,omitempty"`
	// Finished: the program is over (set from the adapter's events; Ended
	// is derived from it when the outcome is read).
	Finished bool `json:"-"`
	// Terminated: ended by the user (debug_terminate), not by itself
	// (reported as Ended "terminated").
	Terminated bool `json:"-"`
	ExitCode   *int `json:"exit_code,omitempty"`
	// Signal is set when the process was killed by a signal (decoded from
	// the exit code by the adapter's driver); SignalName is e.g. "SIGKILL".
	Signal       int    `json:"signal,omitempty"`
	SignalName   string `json:"signal_name,omitempty"`
	ErrorType    string `json:"error_type,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	Traceback    string `json:"traceback,omitempty"`
	Truncated    bool   `json:"truncated,omitempty"`
	// Survivors are processes the program started in a process group of
	// their own (Node's detached: true, Python's start_new_session) that
	// were still running after Terminate ended the program's group.
	Survivors []Survivor `json:"survivors,omitempty"`
	// Lost: the debugger lost the program (the connection to node's
	// inspector ended under it); ErrorMessage says why. Reported as Ended
	// "lost", never as a completion.
	Lost bool `json:"-"`
	// BreakpointErrors are the breakpoints whose condition threw during
	// the run: why they never stopped.
	BreakpointErrors []BreakpointError `json:"breakpoint_errors,omitempty"`
}

// Survivor is a process that outlived its program's Terminate.
type Survivor struct {
	PID     int    `json:"pid"`
	Command string `json:"command,omitempty"`
}

// Timings of the debuggee's running time.
type Timings struct {
	LastRunMs  int64 `json:"last_run_ms"`
	TotalRunMs int64 `json:"total_run_ms"`
}

// Summary is what a listing shows of a session.
type Summary struct {
	ID      string `json:"id"`
	Origin  string `json:"origin"`
	Adapter string `json:"adapter"` // an adapter.Kind
	Status  string `json:"status"`
	Program string `json:"program,omitempty"`
	Module  string `json:"module,omitempty"`
	// Name and DebugType are the editor's, for a bridged session.
	Name      string        `json:"name,omitempty"`
	DebugType string        `json:"debug_type,omitempty"`
	Stop      *StopLocation `json:"stop,omitempty"`
	Active    bool          `json:"active,omitempty"`
	// Ended is the outcome's Ended once the run is over.
	Ended string `json:"ended,omitempty"`
	// The tree of processes (children.go): the session of the process
	// that started this one, the debuggee's pid, and the sessions of its
	// own subprocesses.
	ParentID string   `json:"parent_id,omitempty"`
	PID      int      `json:"pid,omitempty"`
	Children []string `json:"children,omitempty"`
}

// Info is a full snapshot of a session: its Summary and the rest.
type Info struct {
	Summary
	Args           []string          `json:"args,omitempty"`
	EnvKeys        []string          `json:"env_keys,omitempty"` // values are not reported (may be secrets)
	CreatedAt      time.Time         `json:"created_at"`
	UpdatedAt      time.Time         `json:"updated_at"`
	LastBreakpoint *BreakpointState  `json:"last_breakpoint,omitempty"`
	Timings        Timings           `json:"timings"`
	Breakpoints    []BreakpointState `json:"breakpoints,omitempty"`
	Outcome        *Outcome          `json:"outcome,omitempty"`
}

// Event is a session lifecycle event for subscribers (editor channel).
type Event struct {
	SessionID string        `json:"sessionId"`
	Kind      string        `json:"kind"` // stopped | continued | terminated
	Stop      *StopLocation `json:"stop,omitempty"`
}
