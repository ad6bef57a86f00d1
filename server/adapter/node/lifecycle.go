// lifecycle.go: the life of a session — initialize (capabilities), launch
// (node started, inspector connected, run to node's first pause so every
// statically loaded script is parsed before breakpoints are set), attach
// (to a running inspector), configurationDone (stop on entry or run), the
// end of the program (exited with node's exit code, then terminated) and
// disconnect/terminate (a launched node is killed).

package node

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/debugger"
	"github.com/chromedp/cdproto/runtime"
	godap "github.com/google/go-dap"

	"github.com/dapscope/dapscope/platform"
)

// capabilities are what this adapter supports.
func capabilities() godap.Capabilities {
	return godap.Capabilities{
		SupportsConfigurationDoneRequest:  true,
		SupportsEvaluateForHovers:         true,
		SupportsConditionalBreakpoints:    true,
		SupportsHitConditionalBreakpoints: true,
		SupportsLogPoints:                 true,
		SupportsTerminateRequest:          true,
		SupportsDelayedStackTraceLoading:  true,
		ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
			{Filter: "uncaught", Label: "Uncaught Exceptions", Default: true},
			{Filter: "all", Label: "Caught Exceptions"},
		},
	}
}

func (s *Server) initialize(context.Context, *godap.Request, []byte) (any, error) {
	return capabilities(), nil
}

// LaunchArgs are the arguments of a launch request.
type LaunchArgs struct {
	Program           string            `json:"program"`
	Args              []string          `json:"args,omitempty"`
	Cwd               string            `json:"cwd,omitempty"`
	Env               map[string]string `json:"env,omitempty"`
	StopOnEntry       bool              `json:"stopOnEntry,omitempty"`
	RuntimeExecutable string            `json:"runtimeExecutable,omitempty"` // node ("": the server's)
	// EvalTimeoutMs bounds one evaluation in V8 (0: Options.EvalTimeout);
	// headless sessions set it from their interrupt timeout.
	EvalTimeoutMs int64 `json:"evalTimeoutMs,omitempty"`
	// Workspace is where the paths a source map names must be ("": cwd;
	// mapguard.go); the session manager gives its workspace.
	Workspace string `json:"dapscopeWorkspace,omitempty"`
}

func (s *Server) launch(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	var a LaunchArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	if a.Program == "" {
		return nil, errors.New(`launch: "program" is required`)
	}
	if a.Cwd == "" {
		a.Cwd = filepath.Dir(a.Program)
	}
	if st, err := os.Stat(a.Program); err != nil || st.IsDir() {
		return nil, fmt.Errorf("launch: program %s is not a file", a.Program)
	}
	if _, err := s.inspector(); err == nil {
		return nil, errors.New("launch: a program is already being debugged")
	}
	exe := a.RuntimeExecutable
	if exe == "" {
		exe = s.opts.Node
	}
	if exe == "" {
		exe = DefaultNode
	}
	if a.EvalTimeoutMs > 0 { // read by handlers only, all on this goroutine
		s.opts.EvalTimeout = time.Duration(a.EvalTimeoutMs) * time.Millisecond
	}
	ctx, cancel := context.WithTimeout(ctx, s.opts.StartTimeout)
	defer cancel()
	flags, err := runtimeFlags(ctx, exe, a.Program)
	if err != nil {
		return nil, err
	}
	p, err := startNode(ctx, launchSpec{Node: exe, Flags: flags, Program: a.Program, Args: a.Args, Cwd: a.Cwd, Env: a.Env,
		Output: s.output, Waiting: s.programEnded}, s.opts.StartTimeout)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	s.proc, s.stopOnEntry = p, a.StopOnEntry
	s.root = mapRoot(a.Workspace, a.Cwd)
	s.out = &outFiles{root: filepath.Dir(a.Program), ws: s.root}
	s.mu.Unlock()
	s.bg.Add(1)
	go s.watchProcess(p)
	s.event("process", godap.ProcessEventBody{Name: a.Program, SystemProcessId: p.cmd.Process.Pid,
		IsLocalProcess: true, StartMethod: "launch"})
	if err := s.connect(ctx, p.url, s.opts.Hops); err != nil {
		p.kill()
		return nil, err
	}
	return s.awaitConfiguration(req)
}

// AttachArgs are the arguments of an attach request.
type AttachArgs struct {
	Address string `json:"address,omitempty"` // host ("": 127.0.0.1)
	Port    int    `json:"port"`
	// WebSocketURL is the inspector's ws:// URL; without it the target
	// is looked up at http://address:port/json/list.
	WebSocketURL string `json:"websocketAddress,omitempty"`
	// AllowHosts are the hosts besides loopback and Address that the
	// discovery, its websocket URL and their redirects may lead to (the
	// sidecar's --attach-hosts); any other hop is refused.
	AllowHosts []string `json:"dapscopeAllowHosts,omitempty"`
	// Workspace is where the paths a source map names must be ("": the
	// sidecar's working directory; mapguard.go).
	Workspace string `json:"dapscopeWorkspace,omitempty"`
}

func (s *Server) attach(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	var a AttachArgs
	if err := args(raw, &a); err != nil {
		return nil, err
	}
	if _, err := s.inspector(); err == nil {
		return nil, errors.New("attach: a program is already being debugged")
	}
	// Every hop stays on loopback or the hosts the attach named (hops.go).
	hops := s.opts.Hops.with(a.Address).with(a.AllowHosts...)
	s.mu.Lock()
	s.root = mapRoot(a.Workspace, "")
	s.mu.Unlock()
	url := a.WebSocketURL
	if url == "" {
		var err error
		if url, err = discover(ctx, hops, a.Address, a.Port); err != nil {
			return nil, err
		}
	}
	s.mu.Lock()
	s.attached = true
	s.mu.Unlock()
	if err := s.connect(ctx, url, hops); err != nil {
		return nil, err
	}
	return s.awaitConfiguration(req)
}

// connect dials the inspector, starts the event loop and prepares the
// main thread; a launched node is run to its first pause, which is held.
func (s *Server) connect(ctx context.Context, url string, hops Hops) error {
	c, err := dialCDP(ctx, url, hops, s.early)
	if err != nil {
		return err
	}
	entry := make(chan struct{})
	main := newThread(ThreadID, "main", c)
	s.mu.Lock()
	s.cdp, s.entryCh = c, entry
	s.threads[ThreadID] = main
	launched := s.proc != nil
	s.mu.Unlock()
	s.bg.Add(1)
	go s.eventLoop(c)
	if err := s.prepare(ctx, main); err != nil { // threads.go
		return s.startErr(ctx, err)
	}
	// Worker threads wait for the adapter before they run (threads.go).
	if err := c.raw(ctx, "NodeWorker.enable", map[string]any{"waitForDebuggerOnStart": true}, nil); err != nil {
		s.log.Debug("NodeWorker.enable", "err", err) // not a Node inspector with workers
	}
	if !launched {
		return nil
	}
	if _, err := call(ctx, c, runtime.RunIfWaitingForDebugger, cdp.Empty{}); err != nil {
		return s.startErr(ctx, fmt.Errorf("Runtime.runIfWaitingForDebugger: %w", err))
	}
	select {
	case <-entry:
	case <-s.programDone: // it ended (a syntax error…): its output and exit code tell
	case <-ctx.Done():
		return fmt.Errorf("node did not reach its first statement: %w", ctx.Err())
	}
	return nil
}

// startErr is the error of a launch whose inspector failed while starting:
// none when node itself ended (a program with a syntax error can exit
// before it answers), whose output and exit code then tell what happened.
func (s *Server) startErr(ctx context.Context, err error) error {
	s.mu.Lock()
	p := s.proc
	s.mu.Unlock()
	if p == nil || !errors.Is(err, ErrClosed) {
		return err
	}
	select {
	case <-p.done:
		return nil
	case <-s.programDone:
		return nil
	case <-ctx.Done():
		return err
	}
}

// awaitConfiguration sends initialized; the launch or attach request is
// answered after configurationDone.
func (s *Server) awaitConfiguration(req *godap.Request) (any, error) {
	s.mu.Lock()
	s.pendingInit = req
	s.mu.Unlock()
	s.event("initialized", nil)
	return nil, errNoBody
}

func (s *Server) configurationDone(ctx context.Context, req *godap.Request, _ []byte) (any, error) {
	s.mu.Lock()
	if s.configured {
		s.mu.Unlock()
		return nil, nil
	}
	s.configured = true
	defer s.settle() // after the launch's response
	pending, entry, stopOnEntry, attached := s.pendingInit, s.entry, s.stopOnEntry, s.attached
	s.pendingInit, s.entry = nil, nil
	c := s.cdp
	s.mu.Unlock()
	s.respond(req, nil)
	if pending != nil {
		s.respond(pending, nil)
	}
	if attached && c != nil { // a node started with --inspect-brk waits for this
		_, _ = call(ctx, c, runtime.RunIfWaitingForDebugger, cdp.Empty{})
	}
	if entry != nil {
		main := s.mainThread()
		switch {
		case stopOnEntry:
			s.stopped(main, entry, "entry", "")
		case s.bps.at(ThreadID, entry.CallFrames[0].Location) != nil:
			s.stopped(main, entry, "breakpoint", "")
		default:
			if _, err := call(ctx, c, debugger.Resume, debugger.ResumeParams{}); err != nil {
				s.log.Debug("resuming from node's first pause", "err", err)
			}
		}
	}
	return nil, errNoBody
}

// programEnded closes the inspector once the program is over (node waits
// for its debugger to go before it exits, an attached one too: its end
// then reads as terminated); it may run more than once.
func (s *Server) programEnded() {
	s.endOnce.Do(func() {
		close(s.programDone)
		s.mu.Lock()
		c := s.cdp
		s.mu.Unlock()
		if c != nil {
			s.mu.Lock()
			s.closing = true
			s.mu.Unlock()
			// Safe to Add: watchProcess, or the event loop that called
			// this, keeps bg above 0.
			s.bg.Add(1)
			go func() { defer s.bg.Done(); c.closeGracefully() }()
		}
	})
}

// settle ends the configuration phase: the end of a program that died
// before it (a syntax error) is reported after the launch was answered,
// so a client is never cut off in the middle of configuring.
func (s *Server) settle() { s.settleOnce.Do(func() { close(s.settled) }) }

// watchProcess reports node's end: exited with its code, then terminated.
func (s *Server) watchProcess(p *process) {
	defer s.bg.Done()
	<-p.done
	<-s.settled
	s.programEnded()
	s.mu.Lock()
	c := s.cdp
	s.mu.Unlock()
	if c != nil {
		_ = c.Close() // pending requests fail at once
	}
	if le, ok := p.loadError(); ok {
		s.event(LoadErrorEvent, le)
	}
	s.event("exited", godap.ExitedEventBody{ExitCode: p.exitCode()})
	s.event("terminated", nil)
	close(s.exited)
}

func (s *Server) disconnect(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	var a godap.DisconnectArguments
	_ = args(raw, &a)
	s.settle()
	s.mu.Lock()
	p, c, attached := s.proc, s.cdp, s.attached
	s.closing = true
	s.mu.Unlock()
	switch {
	case p != nil:
		p.kill()
		select { // exited and terminated go out before the response
		case <-s.exited:
		case <-time.After(5 * time.Second):
		}
	case attached && c != nil:
		if a.TerminateDebuggee {
			_, _ = call(ctx, c, runtime.Evaluate, runtime.EvaluateParams{Expression: "process.exit()"})
		} else {
			_, _ = call(ctx, c, debugger.Disable, cdp.Empty{}) // resumes a paused program
		}
		_ = c.Close()
	}
	return nil, nil
}

func (s *Server) terminate(ctx context.Context, req *godap.Request, raw []byte) (any, error) {
	s.mu.Lock()
	p, c := s.proc, s.cdp
	s.mu.Unlock()
	if p == nil {
		return nil, errors.New("terminate: only a launched program can be terminated")
	}
	if err := p.tree.Terminate(); errors.Is(err, platform.ErrNoPoliteStop) {
		// Windows: node is asked through its inspector, as an attached
		// program is (it exits before it answers), and killed when it
		// has not ended after a grace period.
		if c != nil {
			_, _ = call(ctx, c, runtime.Evaluate, runtime.EvaluateParams{Expression: "process.exit()"})
		}
		select {
		case <-p.done:
		case <-time.After(terminateGrace):
			p.kill()
		}
	}
	return nil, nil
}

// terminateGrace is how long a program asked to exit (Windows) has before
// it is killed.
const terminateGrace = 2 * time.Second
