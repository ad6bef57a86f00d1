// state.go: session state tracked passively from the DAP traffic
// (capabilities, initialized, running/stopped/terminated/exited, threads,
// the launched program). Updated only by the mux's read loops, read as
// snapshots. Breakpoints are the session's (server/session), not tracked
// here.

package mux

import (
	"encoding/json"
	"maps"
)

// Status values tracked from traffic.
const (
	StatusStarting   = "starting"
	StatusRunning    = "running"
	StatusStopped    = "stopped"
	StatusTerminated = "terminated"
	StatusExited     = "exited"
)

// State is a snapshot of what the traffic said about the session.
type State struct {
	Capabilities      json.RawMessage `json:"capabilities,omitempty"`
	SupportsCancel    bool            `json:"supportsCancel"`
	Initialized       bool            `json:"initialized"`
	Status            string          `json:"status"`
	StoppedThread     int             `json:"stoppedThread,omitempty"`
	StopReason        string          `json:"stopReason,omitempty"`
	StopDescription   string          `json:"stopDescription,omitempty"`
	AllThreadsStopped bool            `json:"allThreadsStopped,omitempty"`
	HitBreakpointIDs  []int           `json:"hitBreakpointIds,omitempty"`
	// StopCount increments on every stopped event: a generation number
	// that lets a waiter tell a new stop from the one it already saw.
	StopCount int `json:"stopCount"`
	// ChangeCount increments on every stopped event and on every request
	// that may change the debuggee's values, whoever sends it: evaluate,
	// setVariable, setExpression and the resuming requests (internal
	// requests sent with ReadOnly are not counted). A generation that
	// tells the values seen from values possibly changed since (the
	// inspector's cached row orders are dropped when it moves).
	ChangeCount int            `json:"changeCount"`
	ExitCode    *int           `json:"exitCode,omitempty"`
	Threads     map[int]string `json:"threads,omitempty"`
	AdapterDead bool           `json:"adapterDead,omitempty"`
	// Program is the program (or module) of the launch request, whoever sent it.
	Program string `json:"program,omitempty"`
}

// Paused reports whether a thread is stopped.
func (s State) Paused() bool { return s.Status == StatusStopped && !s.AdapterDead }

func (s *State) clone() State {
	c := *s
	c.Threads = maps.Clone(s.Threads)
	c.HitBreakpointIDs = append([]int(nil), s.HitBreakpointIDs...)
	return c
}

// resumingCommands are requests whose success means the debuggee runs again.
var resumingCommands = map[string]bool{
	"continue": true, "next": true, "stepIn": true, "stepOut": true,
	"stepBack": true, "reverseContinue": true, "goto": true, "restartFrame": true,
}

// changingCommands may change the debuggee's values (ChangeCount).
var changingCommands = map[string]bool{"evaluate": true, "setVariable": true, "setExpression": true}

// pausedCommands need a stopped thread; internal clients get ErrNotPaused
// for them instead of waiting on an adapter that cannot answer.
var pausedCommands = map[string]bool{
	"stackTrace": true, "scopes": true, "variables": true, "evaluate": true,
	"setVariable": true, "setExpression": true, "next": true, "stepIn": true,
	"stepOut": true, "stepBack": true, "continue": true, "reverseContinue": true,
	"restartFrame": true, "goto": true, "exceptionInfo": true, "stepInTargets": true,
}

// observeEvent updates the state from an adapter event; it reports whether
// anything changed.
func (s *State) observeEvent(name string, body json.RawMessage) bool {
	switch name {
	case "initialized":
		s.Initialized = true
	case "stopped":
		var b struct {
			Reason            string `json:"reason"`
			Description       string `json:"description"`
			ThreadID          int    `json:"threadId"`
			AllThreadsStopped bool   `json:"allThreadsStopped"`
			HitBreakpointIDs  []int  `json:"hitBreakpointIds"`
		}
		_ = json.Unmarshal(body, &b)
		s.Status = StatusStopped
		s.StopReason, s.StopDescription = b.Reason, b.Description
		s.StoppedThread, s.AllThreadsStopped = b.ThreadID, b.AllThreadsStopped
		s.HitBreakpointIDs = b.HitBreakpointIDs
		s.StopCount++
		s.ChangeCount++
	case "continued":
		var b struct {
			ThreadID            int   `json:"threadId"`
			AllThreadsContinued *bool `json:"allThreadsContinued"`
		}
		_ = json.Unmarshal(body, &b)
		s.markRunning()
	case "terminated":
		if s.Status != StatusExited {
			s.Status = StatusTerminated
		}
	case "exited":
		var b struct {
			ExitCode int `json:"exitCode"`
		}
		_ = json.Unmarshal(body, &b)
		code := b.ExitCode
		s.ExitCode = &code
		s.Status = StatusExited
	case "thread":
		var b struct {
			Reason   string `json:"reason"`
			ThreadID int    `json:"threadId"`
		}
		_ = json.Unmarshal(body, &b)
		if s.Threads == nil {
			s.Threads = map[int]string{}
		}
		if b.Reason == "exited" {
			delete(s.Threads, b.ThreadID)
		} else if _, ok := s.Threads[b.ThreadID]; !ok {
			s.Threads[b.ThreadID] = ""
		}
	default:
		return false
	}
	return true
}

func (s *State) markRunning() {
	if s.Status == StatusTerminated || s.Status == StatusExited {
		return
	}
	s.Status = StatusRunning
	s.StoppedThread, s.StopReason, s.StopDescription = 0, "", ""
	s.HitBreakpointIDs = nil
}

// observeResponse updates the state from a successful response to command.
func (s *State) observeResponse(command string, success bool, body json.RawMessage) bool {
	if !success {
		return false
	}
	switch {
	case command == "initialize":
		s.Capabilities = append(json.RawMessage(nil), body...)
		var caps struct {
			SupportsCancelRequest bool `json:"supportsCancelRequest"`
		}
		_ = json.Unmarshal(body, &caps)
		s.SupportsCancel = caps.SupportsCancelRequest
		return true
	case resumingCommands[command]:
		s.markRunning()
		return true
	case command == "configurationDone" || command == "launch" || command == "attach":
		// Adapters send no "continued" when the program starts running.
		if s.Status == StatusStarting {
			s.Status = StatusRunning
			return true
		}
		return false
	case command == "threads":
		var b struct {
			Threads []struct {
				ID   int    `json:"id"`
				Name string `json:"name"`
			} `json:"threads"`
		}
		if json.Unmarshal(body, &b) != nil {
			return false
		}
		s.Threads = make(map[int]string, len(b.Threads))
		for _, t := range b.Threads {
			s.Threads[t.ID] = t.Name
		}
		return true
	}
	return false
}
