// events.go: the inspector's events, handled in order on one goroutine —
// scripts parsed, breakpoints resolved, pauses (node's first pause held for
// configurationDone; every other one a DAP stopped event with its reason),
// resumes (continued), console calls of an attached program (output) and
// the end of the program's context; and exceptionInfo. Scripts parsed are
// registered on the inspector's read loop already (early).

package node

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	jsonv2 "github.com/chromedp/cdproto/cdp/jsonv2"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// eventLoop handles the inspector's events until the connection ends.
func (s *Server) eventLoop(c *conn) {
	defer s.bg.Done()
	for {
		ev, ok := c.next()
		if !ok {
			break
		}
		s.handleEvent(ev)
	}
	s.mu.Lock()
	attached := s.attached
	s.paused = nil
	s.mu.Unlock()
	s.programEnded()
	if attached {
		s.event("terminated", nil)
	}
}

func (s *Server) handleEvent(ev event) {
	s.log.Debug("inspector event", "method", ev.Method)
	switch ev.Method {
	case debugger.ScriptParsed.Method: // only scripts with a source map come here (early)
		var e parsedScript
		if decode(ev.Params, &e) {
			s.addScript(e)
			s.noteSourceMap(filePath(e.URL), e.SourceMapURL)
		}
	case "Debugger.breakpointResolved":
		var e debugger.ResolvedBreakpoint
		if decode(ev.Params, &e) {
			if bp := s.bps.resolved(e.BreakpointID, e.Location); bp != nil {
				s.event("breakpoint", godap.BreakpointEventBody{Reason: "changed", Breakpoint: s.dapBreakpoint(bp)})
			}
		}
	case debugger.Paused.Method:
		var e debugger.EventPaused
		if !decode(ev.Params, &e) || len(e.CallFrames) == 0 {
			return
		}
		s.mu.Lock()
		if s.proc != nil {
			s.proc.started.Store(true)
		}
		if s.entryCh != nil && !s.configured && s.entry == nil && !s.attached {
			s.entry = &e // node's first pause: configurationDone decides
			close(s.entryCh)
			s.mu.Unlock()
			return
		}
		action := s.lastAction
		s.lastAction = ""
		s.mu.Unlock()
		s.stopped(&e, s.reason(&e, action))
	case debugger.Resumed.Method:
		s.mu.Lock()
		wasPaused := s.paused != nil
		s.resetStop()
		s.mu.Unlock()
		if wasPaused {
			s.event("continued", godap.ContinuedEventBody{ThreadId: ThreadID, AllThreadsContinued: true})
		}
	case runtime.ConsoleAPICalled.Method:
		s.mu.Lock()
		attached := s.attached
		s.mu.Unlock()
		var e runtime.EventConsoleAPICalled
		if attached && decode(ev.Params, &e) {
			s.consoleOutput(&e)
		}
	case "Runtime.executionContextDestroyed":
		s.programEnded()
	case "NodeWorker.attachedToWorker":
		s.runWorker(ev.Params)
	}
}

// runWorker lets a worker thread run: it inherited --inspect-brk and waits
// for a debugger; its code is not debugged (breakpoints in it do not stop).
func (s *Server) runWorker(params []byte) {
	var e struct {
		SessionID string `json:"sessionId"`
	}
	s.mu.Lock()
	c := s.cdp
	s.mu.Unlock()
	if !decode(params, &e) || e.SessionID == "" || c == nil {
		return
	}
	// Not on the event loop: an inspector slow to answer must not hold the
	// session's events (safe to Add: the running event loop keeps bg above 0).
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		msg := `{"id":1,"method":"Runtime.runIfWaitingForDebugger"}`
		if err := c.raw(ctx, "NodeWorker.sendMessageToWorker", map[string]any{"sessionId": e.SessionID, "message": msg}, nil); err != nil {
			s.log.Warn("a worker thread may stay waiting for a debugger", "err", err)
		}
	}()
}

// parsedScript is what the adapter uses of Debugger.scriptParsed.
type parsedScript struct {
	ScriptID     cdp.ScriptID `json:"scriptId"`
	URL          string       `json:"url"`
	SourceMapURL string       `json:"sourceMapURL"`
}

// early runs on the inspector's read loop, before the event queue: a
// script parsed is registered there and then (scripts are only ever added,
// so registering one before the events queued ahead of it are handled
// changes nothing they see). V8 reports a script for every evaluation, so
// the event loop is not woken for those while node is still preparing the
// evaluation's answer. A script with a source map still goes through the
// queue, for the notice to take its turn among the other output.
func (s *Server) early(ev event) bool {
	if ev.Method != debugger.ScriptParsed.Method {
		return false
	}
	var e parsedScript
	if !decode(ev.Params, &e) {
		return false
	}
	s.addScript(e)
	if e.SourceMapURL != "" && filePath(e.URL) != "" {
		return false
	}
	s.log.Debug("inspector event", "method", ev.Method)
	return true
}

// addScript registers a parsed script (once: its sourceReference stays).
func (s *Server) addScript(e parsedScript) {
	s.mu.Lock()
	if _, ok := s.scripts[e.ScriptID]; !ok {
		s.scripts[e.ScriptID] = &script{url: e.URL}
	}
	s.mu.Unlock()
}

func decode(raw jsonv2.Value, v any) bool {
	return len(raw) > 0 && jsonv2.Unmarshal(raw, v) == nil
}

// reason is the DAP reason of a pause; action is what the client asked
// for last ("step", "pause" or "").
func (s *Server) reason(e *debugger.EventPaused, action string) string {
	switch {
	case e.Reason == debugger.PausedReasonException || e.Reason == debugger.PausedReasonPromiseRejection:
		return "exception"
	case len(e.HitBreakpoints) > 0:
		return "breakpoint"
	case action != "":
		return action
	default:
		return "pause" // a debugger statement
	}
}

// stopped records a pause and sends the stopped event.
func (s *Server) stopped(e *debugger.EventPaused, reason string) {
	s.mu.Lock()
	s.resetStop()
	s.paused = e
	s.mu.Unlock()
	body := godap.StoppedEventBody{Reason: reason, ThreadId: ThreadID, AllThreadsStopped: true}
	switch reason {
	case "breakpoint":
		body.HitBreakpointIds = s.bps.dapIDs(e.HitBreakpoints)
		if len(body.HitBreakpointIds) == 0 { // node's first pause on a breakpoint's line
			if bp := s.bps.at(e.CallFrames[0].Location); bp != nil {
				body.HitBreakpointIds = []int{bp.id}
			}
		}
	case "exception":
		body.Description, body.Text = exceptionText(e.Data)
	case "pause":
		if e.Reason == debugger.PausedReasonOther {
			body.Description = "Paused on debugger statement"
		}
	}
	s.stopGate.Lock() // after the response of the request that resumed
	s.stopGate.Unlock()
	s.event("stopped", body)
}

// resetStop forgets the current stop and its handles (s.mu held).
func (s *Server) resetStop() {
	s.paused = nil
	clear(s.handles)
}

// exceptionText reads a paused event's exception data (a RemoteObject):
// the description is the first line ("TypeError: x is not a function"),
// the text the whole description (with the stack).
func exceptionText(data jsonv2.Value) (desc, text string) {
	var o runtime.RemoteObject
	if !decode(data, &o) {
		return "Paused on exception", ""
	}
	full := o.Description
	if full == "" {
		if o.Type == runtime.RemoteObjectTypeString {
			var str string
			_ = json.Unmarshal(o.Value, &str)
			full = "Uncaught " + str
		} else {
			full = valueText(&o, 200)
		}
	}
	first, _, _ := strings.Cut(full, "\n")
	return first, full
}

// exceptionInfo describes the exception the program is paused on: its
// class ("TypeError"), message and stack.
func (s *Server) exceptionInfo(context.Context, *godap.Request, []byte) (any, error) {
	s.mu.Lock()
	p := s.paused
	s.mu.Unlock()
	if p == nil {
		return nil, errNotPaused
	}
	if p.Reason != debugger.PausedReasonException && p.Reason != debugger.PausedReasonPromiseRejection {
		return nil, errors.New("exceptionInfo: the program is not paused on an exception")
	}
	desc, full := exceptionText(p.Data)
	var o runtime.RemoteObject
	_ = jsonv2.Unmarshal(p.Data, &o)
	id := o.ClassName
	if id == "" {
		id = string(o.Type)
	}
	msg := desc
	if prefix := id + ": "; strings.HasPrefix(desc, prefix) {
		msg = strings.TrimPrefix(desc, prefix)
	}
	mode := "always"
	var data struct {
		Uncaught bool `json:"uncaught"`
	}
	if decode(p.Data, &data) && data.Uncaught {
		mode = "unhandled"
	}
	return godap.ExceptionInfoResponseBody{ExceptionId: id, Description: msg, BreakMode: godap.ExceptionBreakMode(mode),
		Details: &godap.ExceptionDetails{Message: msg, TypeName: id, StackTrace: full}}, nil
}
