// events.go: the inspector's events, of every thread, handled in order on
// one goroutine — workers attached and detached, scripts parsed (a map
// loaded), breakpoints resolved, pauses (node's first pause held for
// configurationDone; a step in unmapped code continued; every other one a DAP stopped event
// with its thread and reason), resumes (continued), console calls of an
// attached program (output), conditions that threw, and the end of the
// program's context; and exceptionInfo. Scripts parsed are registered on
// the inspector's read loop already (early).

package node

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

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
	for _, th := range s.threads {
		s.forgetStopLocked(th)
	}
	s.mu.Unlock()
	s.connectionEnded(c) // lost.go
	s.programEnded()
	if attached {
		s.event("terminated", nil)
	}
}

func (s *Server) handleEvent(ev event) {
	s.log.Debug("inspector event", "method", ev.Method, "session", ev.Session)
	switch ev.Method {
	case "NodeWorker.attachedToWorker":
		s.attachedToWorker(ev.Params)
		return
	case "NodeWorker.detachedFromWorker":
		s.detachedFromWorker(ev.Params)
		return
	}
	th := s.threadOf(ev.Session)
	if th == nil {
		return // a worker that has ended
	}
	switch ev.Method {
	case debugger.ScriptParsed.Method: // only scripts with a source map come here (early)
		var e parsedScript
		if decode(ev.Params, &e) {
			s.addScript(th, e)
			s.loadMap(th, e) // sourcemaps.go
		}
	case "Debugger.breakpointResolved":
		var e debugger.ResolvedBreakpoint
		if decode(ev.Params, &e) {
			s.breakpointResolved(th, &e)
		}
	case debugger.Paused.Method:
		var e debugger.EventPaused
		if !decode(ev.Params, &e) || len(e.CallFrames) == 0 {
			return
		}
		s.paused(th, &e)
	case debugger.Resumed.Method:
		s.mu.Lock()
		wasPaused := th.paused != nil
		s.forgetStopLocked(th)
		s.mu.Unlock()
		if wasPaused {
			s.stopGate.Lock()
			s.reannounce(s.continued(s.continuedBody(th), th))
			s.stopGate.Unlock()
		}
	case runtime.ConsoleAPICalled.Method:
		s.mu.Lock()
		attached := s.attached
		s.mu.Unlock()
		var e runtime.EventConsoleAPICalled
		if attached && decode(ev.Params, &e) {
			s.consoleOutput(&e)
		}
	case "Runtime.bindingCalled":
		s.bindingCalled(th, ev.Params) // conditions.go
	case "Runtime.executionContextCreated":
		var e struct {
			Context struct {
				ID      int64 `json:"id"`
				AuxData struct {
					IsDefault bool `json:"isDefault"`
				} `json:"auxData"`
			} `json:"context"`
		}
		if th.id == ThreadID && decode(ev.Params, &e) && e.Context.AuxData.IsDefault {
			s.mu.Lock()
			s.mainContext = e.Context.ID
			s.mu.Unlock()
		}
	case "Runtime.executionContextDestroyed":
		// The program's own context, not a vm context that was collected.
		var e struct {
			ID int64 `json:"executionContextId"`
		}
		s.mu.Lock()
		main := s.mainContext
		s.mu.Unlock()
		if th.id == ThreadID && decode(ev.Params, &e) && (main == 0 || e.ID == main) {
			s.programEnded()
		}
	case oversizedEvent:
		s.oversizedEvent(th, ev.Params) // lost.go
	}
}

// paused handles a pause of th: node's first pause is held for
// configurationDone, a step that landed in unmapped code goes on; anything
// else is a stop.
func (s *Server) paused(th *thread, e *debugger.EventPaused) {
	s.mu.Lock()
	if s.proc != nil {
		s.proc.started.Store(true)
	}
	if th.id == ThreadID && s.entryCh != nil && !s.configured && s.entry == nil && !s.attached {
		s.entry = e // node's first pause: configurationDone decides
		close(s.entryCh)
		s.mu.Unlock()
		return
	}
	first := th.id != ThreadID && !th.entered
	th.entered = true
	action := th.lastAction
	th.lastAction = ""
	s.mu.Unlock()
	if first && len(e.HitBreakpoints) == 0 && s.bps.at(th.id, e.CallFrames[0].Location) == nil {
		// A worker inherits --inspect-brk: its first pause, before its
		// first statement, is not the user's.
		s.resumeQuietly(th)
		return
	}
	if action == "step" && s.stepOn(th, e) { // stepping.go
		return
	}
	s.stopped(th, e, s.reason(e, action), action)
}

// resumeQuietly resumes th from a pause the client never saw.
func (s *Server) resumeQuietly(th *thread) {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.CallTimeout)
	defer cancel()
	if _, err := call(ctx, th.c, debugger.Resume, debugger.ResumeParams{}); err != nil {
		s.log.Debug("resuming a thread", "thread", th.id, "err", err)
	}
}

// continuedBody is the continued event of th.
func (s *Server) continuedBody(th *thread) godap.ContinuedEventBody {
	s.mu.Lock()
	defer s.mu.Unlock()
	return godap.ContinuedEventBody{ThreadId: th.id, AllThreadsContinued: len(s.threads) == 1}
}

// parsedScript is what the adapter uses of Debugger.scriptParsed.
type parsedScript struct {
	ScriptID     cdp.ScriptID `json:"scriptId"`
	URL          string       `json:"url"`
	SourceMapURL string       `json:"sourceMapURL"`
	EndLine      int64        `json:"endLine"`
}

// early runs on the inspector's read loop, before the event queue: a
// script parsed is registered there and then (scripts are only ever added,
// so registering one before the events queued ahead of it are handled
// changes nothing they see). V8 reports a script for every evaluation, so
// the event loop is not woken for those while node is still preparing the
// evaluation's answer. A script with a source map still goes through the
// queue: its map is loaded there. A worker's end fails its pending calls
// there too (and is queued): a request waiting on one may hold stopGate,
// which the event loop may be waiting for ahead of the detach.
func (s *Server) early(ev *event) bool {
	if ev.Method == "NodeWorker.detachedFromWorker" {
		var e struct {
			SessionID string `json:"sessionId"`
		}
		if c, err := s.inspector(); err == nil && decode(ev.Params, &e) {
			c.detachWorker(e.SessionID)
		}
		return false
	}
	if ev.Method != debugger.ScriptParsed.Method {
		return false
	}
	var e parsedScript
	th := s.threadOf(ev.Session)
	if th == nil || !decode(ev.Params, &e) {
		return false
	}
	s.addScript(th, e)
	if e.SourceMapURL != "" && filePath(e.URL) != "" {
		return false
	}
	s.log.Debug("inspector event", "method", ev.Method)
	return true
}

// addScript registers a parsed script (once: its sourceReference stays).
func (s *Server) addScript(th *thread, e parsedScript) {
	s.mu.Lock()
	if _, ok := th.scripts[e.ScriptID]; !ok {
		th.scripts[e.ScriptID] = &script{url: e.URL}
	}
	s.mu.Unlock()
}

func decode(raw jsonv2.Value, v any) bool {
	return len(raw) > 0 && jsonv2.Unmarshal(raw, v, lenient) == nil
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

// stopped records a pause of th and sends the stopped event; action is
// what the client asked for ("pause": a pause it requested, which V8 too
// reports as "other", like a debugger statement).
func (s *Server) stopped(th *thread, e *debugger.EventPaused, reason, action string) {
	s.mu.Lock()
	s.forgetStopLocked(th)
	th.paused, th.step = e, nil
	all := len(s.threads) == 1
	s.mu.Unlock()
	body := godap.StoppedEventBody{Reason: reason, ThreadId: th.id, AllThreadsStopped: all}
	switch reason {
	case "breakpoint":
		body.HitBreakpointIds = s.bps.dapIDs(th.id, e.HitBreakpoints)
		if len(body.HitBreakpointIds) == 0 { // node's first pause on a breakpoint's line
			if bp := s.bps.at(th.id, e.CallFrames[0].Location); bp != nil {
				body.HitBreakpointIds = []int{bp.id}
			}
		}
	case "exception":
		body.Description, body.Text = exceptionText(e.Data)
	case "pause":
		switch {
		case action == "pause":
			body.Description = "Paused (pause requested)"
		case e.Reason == debugger.PausedReasonOther:
			body.Description = "Paused on debugger statement"
		}
	}
	if th.id != ThreadID {
		if body.Description == "" {
			body.Description = "Paused"
		}
		body.Description += " in " + th.name
	}
	s.stopGate.Lock() // after the response of the request that resumed
	defer s.stopGate.Unlock()
	s.mu.Lock()
	current := th.paused == e // not resumed meanwhile (its continued event is out)
	if current {
		th.shown = e
	}
	s.mu.Unlock()
	if current {
		s.event("stopped", body)
	}
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
func (s *Server) exceptionInfo(_ context.Context, _ *godap.Request, raw []byte) (any, error) {
	var a godap.ExceptionInfoArguments
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	th, err := s.threadByID(a.ThreadId)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	p := th.paused
	s.mu.Unlock()
	if p == nil {
		return nil, errNotPaused
	}
	if p.Reason != debugger.PausedReasonException && p.Reason != debugger.PausedReasonPromiseRejection {
		return nil, errors.New("exceptionInfo: the program is not paused on an exception")
	}
	desc, full := exceptionText(p.Data)
	full = s.mapStack(full) // sourcemaps.go
	var o runtime.RemoteObject
	_ = decode(p.Data, &o)
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
