// threads.go: the threads the adapter debugs — node's main thread (DAP
// thread 1, the inspector connection itself) and each worker thread
// (NodeWorker.attachToWorker through waitForDebuggerOnStart: a worker
// waits until its domains are enabled and every breakpoint is set in it,
// then runs). Each thread pauses, steps and evaluates on its own; a
// worker's end is a DAP thread event and a notice. The threads request.

package node

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"
)

// ThreadID is the DAP id of Node's main thread; workers get 2, 3, ….
const ThreadID = 1

// thread is one JavaScript thread (an isolate with its own inspector
// session). Fields below c are guarded by Server.mu.
type thread struct {
	id      int
	name    string
	c       caller
	session string      // the worker's NodeWorker session ("": main)
	w       *workerConn // nil for main

	paused     *debugger.EventPaused    // nil while running
	shown      *debugger.EventPaused    // the pause whose stopped event is out (nil: none)
	lastAction string                   // "step" or "pause": the reason of the next stop
	step       *stepping                // an unfinished step in mapped code (stepping.go)
	scripts    map[cdp.ScriptID]*script // every script parsed in it
	ready      bool                     // its breakpoints are set (binds with bindMu)
	entered    bool                     // a worker's first pause (its start) was seen
}

func newThread(id int, name string, c caller) *thread {
	return &thread{id: id, name: name, c: c, scripts: map[cdp.ScriptID]*script{}}
}

// mainThread is thread 1 (nil before launch or attach).
func (s *Server) mainThread() *thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.threads[ThreadID]
}

// threadByID is a thread by DAP id: 0 means the main thread.
func (s *Server) threadByID(id int) (*thread, error) {
	if id == 0 {
		id = ThreadID
	}
	s.mu.Lock()
	th := s.threads[id]
	s.mu.Unlock()
	if th == nil {
		if _, err := s.inspector(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("unknown thread %d (see the threads request; a worker's thread ends with it)", id)
	}
	return th, nil
}

// threadOf is the thread of an event's session (nil: not known).
func (s *Server) threadOf(session string) *thread {
	s.mu.Lock()
	defer s.mu.Unlock()
	if session == "" {
		return s.threads[ThreadID]
	}
	return s.bySession[session]
}

// otherShownLocked is the first thread (by id) other than th that is
// paused where its stopped event told clients it is (s.mu held).
func (s *Server) otherShownLocked(th *thread) *thread {
	ids := make([]int, 0, len(s.threads))
	for id := range s.threads {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	for _, id := range ids {
		if o := s.threads[id]; o != th && o.paused != nil && o.shown == o.paused {
			return o
		}
	}
	return nil
}

func (s *Server) threadsRequest(context.Context, *godap.Request, []byte) (any, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := []godap.Thread{}
	for _, th := range s.threads {
		out = append(out, godap.Thread{Id: th.id, Name: th.name})
	}
	if len(out) == 0 {
		out = append(out, godap.Thread{Id: ThreadID, Name: "main"})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Id < out[j].Id })
	return godap.ThreadsResponseBody{Threads: out}, nil
}

// workerInfo is NodeWorker.attachedToWorker's params.
type workerInfo struct {
	SessionID  string `json:"sessionId"`
	WorkerInfo struct {
		WorkerID string `json:"workerId"`
		Title    string `json:"title"`
		URL      string `json:"url"`
	} `json:"workerInfo"`
	WaitingForDebugger bool `json:"waitingForDebugger"`
}

// attachedToWorker registers a worker as a thread (on the event loop, so
// its events, which only come once its domains are enabled, find it) and
// prepares it on its own goroutine: domains, breakpoints, then run.
func (s *Server) attachedToWorker(params []byte) {
	var e workerInfo
	c, err := s.inspector()
	if !decode(params, &e) || e.SessionID == "" || err != nil {
		return
	}
	w := c.attachWorker(e.SessionID)
	s.mu.Lock()
	s.nextThread++
	name := "worker " + e.WorkerInfo.WorkerID
	if path := filePath(e.WorkerInfo.URL); path != "" {
		name += " (" + filepath.Base(path) + ")"
	}
	th := newThread(s.nextThread, name, w)
	th.session, th.w = e.SessionID, w
	s.threads[th.id] = th
	s.bySession[e.SessionID] = th
	s.mu.Unlock()
	// Safe to Add: the running event loop keeps bg above 0.
	s.bg.Add(1)
	go func() {
		defer s.bg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), s.opts.CallTimeout)
		defer cancel()
		if err := s.prepare(ctx, th); err != nil {
			s.log.Warn("a worker thread could not be prepared for debugging", "thread", th.id, "err", err)
		}
		s.event("thread", godap.ThreadEventBody{Reason: "started", ThreadId: th.id})
		if _, err := call(ctx, th.c, runtime.RunIfWaitingForDebugger, cdp.Empty{}); err != nil {
			s.log.Warn("a worker thread may stay waiting for a debugger", "thread", th.id, "err", err)
		}
	}()
}

// prepare enables a thread's domains and sets the session's breakpoints
// and exception filter in it (the main thread before node's first
// statement, a worker before it runs).
func (s *Server) prepare(ctx context.Context, th *thread) error {
	if _, err := call(ctx, th.c, runtime.Enable, cdp.Empty{}); err != nil {
		return fmt.Errorf("Runtime.enable: %w", err)
	}
	if _, err := call(ctx, th.c, debugger.Enable, debugger.EnableParams{}); err != nil {
		return fmt.Errorf("Debugger.enable: %w", err)
	}
	if _, err := call(ctx, th.c, debugger.SetAsyncCallStackDepth, debugger.SetAsyncCallStackDepthParams{MaxDepth: 0}); err != nil {
		return err
	}
	// Breakpoint conditions report what they throw through this binding
	// (conditions.go).
	if err := th.c.raw(ctx, "Runtime.addBinding", map[string]any{"name": errBinding}, nil); err != nil {
		s.log.Debug("Runtime.addBinding", "err", err)
	}
	s.bindMu.Lock()
	defer s.bindMu.Unlock()
	s.mu.Lock()
	state := s.pauseOnExceptions
	s.mu.Unlock()
	if state != "" && state != debugger.SetPauseOnExceptionsStateNone {
		if _, err := call(ctx, th.c, debugger.SetPauseOnExceptions, debugger.SetPauseOnExceptionsParams{State: state}); err != nil {
			return err
		}
	}
	s.bindAll(ctx, th)
	s.mu.Lock()
	th.ready = true
	s.mu.Unlock()
	return nil
}

// detachedFromWorker reports a worker's end: its pending calls fail, its
// handles go, a thread event (exited) and a notice go out.
func (s *Server) detachedFromWorker(params []byte) {
	var e struct {
		SessionID string `json:"sessionId"`
	}
	c, err := s.inspector()
	if !decode(params, &e) || err != nil {
		return
	}
	c.detachWorker(e.SessionID)
	s.mu.Lock()
	th := s.bySession[e.SessionID]
	if th == nil {
		s.mu.Unlock()
		return
	}
	delete(s.bySession, e.SessionID)
	delete(s.threads, th.id)
	wasPaused := th.paused != nil
	s.forgetStopLocked(th)
	s.mu.Unlock()
	s.bps.forgetThread(th.id)
	s.stopGate.Lock()
	defer s.stopGate.Unlock()
	if wasPaused {
		s.reannounce(s.continued(godap.ContinuedEventBody{ThreadId: th.id}, th))
	}
	s.event("thread", godap.ThreadEventBody{Reason: "exited", ThreadId: th.id})
	s.output("important", fmt.Sprintf("dapscope: %s (thread %d) ended\n", th.name, th.id))
}

// shownStop is a thread's stop that clients were told of.
type shownStop struct {
	th *thread
	e  *debugger.EventPaused
}

// continued sends the continued event of th, which clients that track one
// stop (the mux, the session) read as "nothing is paused", and returns the
// stop of another thread they had been told of before it, if any, for
// reannounce. A pause whose stopped event is not out yet is not one: its
// own event comes after this one. Called with stopGate held, as stopped
// sends under it: whether a stop was told comes before or after is exact.
func (s *Server) continued(body godap.ContinuedEventBody, th *thread) shownStop {
	s.mu.Lock()
	var o shownStop
	if t := s.otherShownLocked(th); t != nil {
		o = shownStop{th: t, e: t.paused}
	}
	s.mu.Unlock()
	s.event("continued", body)
	return o
}

// reannounce sends again the stop that a continued event hid (continued),
// when that thread is still paused there: clients that track one stop
// see it paused again. Called with stopGate held.
func (s *Server) reannounce(o shownStop) {
	if o.th == nil {
		return
	}
	s.mu.Lock()
	still := o.th.paused == o.e
	s.mu.Unlock()
	if !still {
		return // resumed meanwhile: its own continued event said so
	}
	body := godap.StoppedEventBody{Reason: "pause", ThreadId: o.th.id, PreserveFocusHint: true,
		Description: "still paused (" + o.th.name + ")"}
	if len(o.e.HitBreakpoints) > 0 {
		body.Reason = "breakpoint"
	}
	s.event("stopped", body)
}
