// typed.go: the typed side of the test client — generic helpers that wait
// for a response or event as its go-dap struct, one method per request the
// tests send (arguments from go-dap structs), and the launch-to-a-line
// sequence every debugger test starts with.

package daptest

import (
	"fmt"

	godap "github.com/google/go-dap"
)

// ExpectResponse waits for the response to seq and returns it as T; the
// test fails if it is an error response or not a T.
func ExpectResponse[T godap.ResponseMessage](c *Client, seq int) T {
	c.t.Helper()
	m := c.OK(seq)
	r, ok := m.Decoded.(T)
	if !ok {
		var zero T
		c.t.Fatalf("daptest: response to %d is %T (%v), want %T: %s", seq, m.Decoded, m.DecodeErr, zero, m.Raw)
	}
	return r
}

// ExpectEvent waits for the first event go-dap decodes as T (events before
// it stay queued).
func ExpectEvent[T godap.EventMessage](c *Client) T {
	c.t.Helper()
	var zero T
	m := c.Expect(fmt.Sprintf("%T", zero), func(m Msg) bool { _, ok := m.Decoded.(T); return ok })
	return m.Decoded.(T)
}

// Call sends a request and returns its successful response as T.
func Call[T godap.ResponseMessage](c *Client, command string, args any) T {
	c.t.Helper()
	return ExpectResponse[T](c, c.Send(command, args))
}

// InitArgs are an editor's usual initialize arguments: lines and columns
// from 1, paths as paths.
func InitArgs(clientID, adapterID string) godap.InitializeRequestArguments {
	return godap.InitializeRequestArguments{ClientID: clientID, AdapterID: adapterID,
		LinesStartAt1: true, ColumnsStartAt1: true, PathFormat: "path"}
}

// PythonLaunch is a debugpy launch configuration for program, with its
// output in the debug console.
func PythonLaunch(program string) map[string]any {
	return map[string]any{"type": "python", "request": "launch", "program": program, "console": "internalConsole"}
}

// Initialize sends initialize and returns the adapter's capabilities.
//
//	→ initialize  ← initialize response (capabilities)
func (c *Client) Initialize(args godap.InitializeRequestArguments) godap.Capabilities {
	c.t.Helper()
	return Call[*godap.InitializeResponse](c, "initialize", args).Body
}

// StartLaunch sends launch with the adapter-specific configuration and
// returns its seq: adapters answer it only after configurationDone.
func (c *Client) StartLaunch(config any) int {
	c.t.Helper()
	return c.Send("launch", config)
}

// setBreakpointsWire keeps an empty breakpoints list on the wire ("clear
// this file", as editors send it): go-dap's struct would omit it.
type setBreakpointsWire struct {
	godap.SetBreakpointsArguments
	Breakpoints []godap.SourceBreakpoint `json:"breakpoints"`
}

// SetBreakpoints sets line breakpoints in path (none: clears the file) and
// returns the adapter's breakpoints.
//
//	→ setBreakpoints  ← response (breakpoints)
func (c *Client) SetBreakpoints(path string, lines ...int) []godap.Breakpoint {
	c.t.Helper()
	bps := make([]godap.SourceBreakpoint, 0, len(lines))
	for _, l := range lines {
		bps = append(bps, godap.SourceBreakpoint{Line: l})
	}
	args := godap.SetBreakpointsArguments{Source: godap.Source{Path: path}, Breakpoints: bps}
	return c.SetBreakpointsArgs(args)
}

// SetBreakpointsArgs sends setBreakpoints with full arguments.
func (c *Client) SetBreakpointsArgs(args godap.SetBreakpointsArguments) []godap.Breakpoint {
	c.t.Helper()
	var wire any = args
	if args.Breakpoints != nil && len(args.Breakpoints) == 0 {
		wire = setBreakpointsWire{args, args.Breakpoints}
	}
	return Call[*godap.SetBreakpointsResponse](c, "setBreakpoints", wire).Body.Breakpoints
}

// SetExceptionBreakpoints sets the exception filters (none: an empty list).
func (c *Client) SetExceptionBreakpoints(filters ...string) {
	c.t.Helper()
	if filters == nil {
		filters = []string{}
	}
	Call[*godap.SetExceptionBreakpointsResponse](c, "setExceptionBreakpoints", godap.SetExceptionBreakpointsArguments{Filters: filters})
}

// ConfigurationDone ends the configuration phase.
func (c *Client) ConfigurationDone() {
	c.t.Helper()
	Call[*godap.ConfigurationDoneResponse](c, "configurationDone", nil)
}

// Threads lists the debuggee's threads.
func (c *Client) Threads() []godap.Thread {
	c.t.Helper()
	return Call[*godap.ThreadsResponse](c, "threads", nil).Body.Threads
}

// StackTrace returns up to levels frames of thread (0: all).
func (c *Client) StackTrace(threadID, levels int) []godap.StackFrame {
	c.t.Helper()
	return Call[*godap.StackTraceResponse](c, "stackTrace", godap.StackTraceArguments{ThreadId: threadID, Levels: levels}).Body.StackFrames
}

// TopFrame returns the top frame of thread (stackTrace without levels).
func (c *Client) TopFrame(threadID int) godap.StackFrame {
	c.t.Helper()
	frames := c.StackTrace(threadID, 0)
	if len(frames) == 0 {
		c.t.Fatalf("daptest: thread %d has no frames", threadID)
	}
	return frames[0]
}

// Scopes returns the scopes of a frame.
func (c *Client) Scopes(frameID int) []godap.Scope {
	c.t.Helper()
	return Call[*godap.ScopesResponse](c, "scopes", godap.ScopesArguments{FrameId: frameID}).Body.Scopes
}

// Variables returns the variables of a reference.
func (c *Client) Variables(ref int) []godap.Variable {
	c.t.Helper()
	return Call[*godap.VariablesResponse](c, "variables", godap.VariablesArguments{VariablesReference: ref}).Body.Variables
}

// Evaluate evaluates expression in frame (context: watch, repl, hover…).
func (c *Client) Evaluate(expression string, frameID int, context string) godap.EvaluateResponseBody {
	c.t.Helper()
	return Call[*godap.EvaluateResponse](c, "evaluate", godap.EvaluateArguments{Expression: expression, FrameId: frameID, Context: context}).Body
}

// Continue resumes thread (the response only: stops come as events).
func (c *Client) Continue(threadID int) {
	c.t.Helper()
	Call[*godap.ContinueResponse](c, "continue", godap.ContinueArguments{ThreadId: threadID})
}

// Next steps over on thread (the response only; the stop is an event).
func (c *Client) Next(threadID int) {
	c.t.Helper()
	Call[*godap.NextResponse](c, "next", godap.NextArguments{ThreadId: threadID})
}

// Disconnect ends the session; terminate also ends the debuggee (without
// it, the request carries no arguments).
func (c *Client) Disconnect(terminate bool) {
	c.t.Helper()
	var args any
	if terminate {
		args = godap.DisconnectArguments{TerminateDebuggee: true}
	}
	Call[*godap.DisconnectResponse](c, "disconnect", args)
}

// Stopped waits for the next stopped event.
func (c *Client) Stopped() *godap.StoppedEvent {
	c.t.Helper()
	return ExpectEvent[*godap.StoppedEvent](c)
}

// LaunchTo runs the editor side of a launch (after initialize) to a
// breakpoint at path:line and returns the stopped event. config is the
// adapter's launch configuration. Wire sequence:
//
//	→ launch               (answered after configurationDone)
//	← initialized
//	→ setBreakpoints(line) ← response
//	→ configurationDone    ← response, ← launch response
//	← stopped
func (c *Client) LaunchTo(config any, path string, line int) *godap.StoppedEvent {
	c.t.Helper()
	launch := c.StartLaunch(config)
	c.Event("initialized")
	c.SetBreakpoints(path, line)
	c.ConfigurationDone()
	c.OK(launch)
	return c.Stopped()
}

// LaunchToFrame is LaunchTo followed by a stackTrace: the stopped event and
// the top frame of the stopped thread.
//
//	→ stackTrace(threadId, levels 1)  ← response (top frame)
func (c *Client) LaunchToFrame(config any, path string, line int) (*godap.StoppedEvent, godap.StackFrame) {
	c.t.Helper()
	stopped := c.LaunchTo(config, path, line)
	frames := c.StackTrace(stopped.Body.ThreadId, 1)
	if len(frames) == 0 {
		c.t.Fatalf("daptest: thread %d stopped without frames", stopped.Body.ThreadId)
	}
	return stopped, frames[0]
}
