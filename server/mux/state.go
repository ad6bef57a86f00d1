// state.go: session state tracked passively from the DAP traffic
// (capabilities, initialized, running/stopped/terminated/exited, threads,
// breakpoints). Updated only by the mux's read loops, read as snapshots.

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

// Breakpoint is one breakpoint as the adapter reported it.
type Breakpoint struct {
	ID       int    `json:"id,omitempty"`
	Verified bool   `json:"verified"`
	Path     string `json:"path,omitempty"`
	Line     int    `json:"line,omitempty"`
	Message  string `json:"message,omitempty"`
}

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
	StopCount   int            `json:"stopCount"`
	ExitCode    *int           `json:"exitCode,omitempty"`
	Threads     map[int]string `json:"threads,omitempty"`
	Breakpoints []Breakpoint   `json:"breakpoints,omitempty"`
	AdapterDead bool           `json:"adapterDead,omitempty"`
	// Program is the program (or module) of the launch request, whoever sent it.
	Program string `json:"program,omitempty"`
}

// Paused reports whether a thread is stopped.
func (s State) Paused() bool { return s.Status == StatusStopped && !s.AdapterDead }

func (s *State) clone() State {
	c := *s
	c.Threads = maps.Clone(s.Threads)
	c.Breakpoints = append([]Breakpoint(nil), s.Breakpoints...)
	c.HitBreakpointIDs = append([]int(nil), s.HitBreakpointIDs...)
	return c
}

// resumingCommands are requests whose success means the debuggee runs again.
var resumingCommands = map[string]bool{
	"continue": true, "next": true, "stepIn": true, "stepOut": true,
	"stepBack": true, "reverseContinue": true, "goto": true, "restartFrame": true,
}

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
	case "breakpoint":
		var b struct {
			Reason     string         `json:"reason"`
			Breakpoint wireBreakpoint `json:"breakpoint"`
		}
		if json.Unmarshal(body, &b) != nil {
			return false
		}
		s.updateBreakpoint(b.Reason, b.Breakpoint.state(""))
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

type wireBreakpoint struct {
	ID       int    `json:"id"`
	Verified bool   `json:"verified"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
	Source   *struct {
		Path string `json:"path"`
	} `json:"source"`
}

func (w wireBreakpoint) state(path string) Breakpoint {
	if w.Source != nil && w.Source.Path != "" {
		path = w.Source.Path
	}
	return Breakpoint{ID: w.ID, Verified: w.Verified, Path: path, Line: w.Line, Message: w.Message}
}

func (s *State) updateBreakpoint(reason string, bp Breakpoint) {
	for i := range s.Breakpoints {
		if bp.ID != 0 && s.Breakpoints[i].ID == bp.ID {
			if reason == "removed" {
				s.Breakpoints = append(s.Breakpoints[:i], s.Breakpoints[i+1:]...)
				return
			}
			if bp.Path == "" {
				bp.Path = s.Breakpoints[i].Path
			}
			s.Breakpoints[i] = bp
			return
		}
	}
	if reason != "removed" {
		s.Breakpoints = append(s.Breakpoints, bp)
	}
}

// observeResponse updates the state from a successful response to command;
// path is the source path of a setBreakpoints request.
func (s *State) observeResponse(command, path string, success bool, body json.RawMessage) bool {
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
	case command == "setBreakpoints":
		var b struct {
			Breakpoints []wireBreakpoint `json:"breakpoints"`
		}
		if json.Unmarshal(body, &b) != nil {
			return false
		}
		kept := s.Breakpoints[:0]
		for _, bp := range s.Breakpoints {
			if bp.Path != path {
				kept = append(kept, bp)
			}
		}
		s.Breakpoints = kept
		for _, w := range b.Breakpoints {
			s.Breakpoints = append(s.Breakpoints, w.state(path))
		}
		return true
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
