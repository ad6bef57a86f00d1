// session.go: one live debug session — an adapter process behind a mux —
// its own configuration, its status and Info snapshot, and accessors. How
// its state follows the event stream is in events.go; the requests it sends
// are in requests.go, its start-up in handshake.go, its end in end.go.

package session

import (
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dapscope/dapscope/errcode"
	"github.com/dapscope/dapscope/platform"
	"github.com/dapscope/dapscope/server/adapter"
	"github.com/dapscope/dapscope/server/mux"
)

// sessionConfig is what a session needs of its creator, copied at creation:
// a session never reaches back into its manager.
type sessionConfig struct {
	workspace   string
	opTimeout   time.Duration
	outputLimit int
	noDelay     bool // run the driver's first-stop fix (launch option "nodelay")
	fastWake    bool // with it, debugpy's wake patch (launch option "fastWake")
	log         *slog.Logger
	// observe receives the session's lifecycle events, in order.
	observe func(Event)
	// startChild starts a child session for a subprocess (children.go).
	startChild func(parent *Session, cfg map[string]any)
}

// Session is one live adapter session.
type Session struct {
	id         string
	origin     string
	kind       adapter.Kind
	driver     adapter.Driver
	cfg        sessionConfig
	mux        *mux.Mux
	ad         *adapter.Adapter
	log        *slog.Logger
	attached   atomic.Bool                      // attach (don't terminate the debuggee on end; undo the first-stop fix)
	programRan atomic.Bool                      // output no longer needs the start-up check (events.go)
	output     *outputBuffer                    // the program's output, all categories in order
	outputs    *categoryBuffers                 // each category apart, the adapter's notices too
	smart      *smartValues                     // the editor's smart values (mux rewriter)
	events     atomic.Pointer[mux.Subscription] // the adapter's events (dropped output counted there); set by serve after the session is listed
	bridge     *bridgeInfo                      // set for a session of the editor's own debugger (bridged.go)
	kernel     *kernelInfo                      // set for a session on a live Jupyter kernel (kernel.go)
	group      atomic.Pointer[groupInfo]        // set for a tree's root that runs no code (group.go)
	tree       treeInfo                         // its parent and children (children.go)
	spare      *adapter.Adapter                 // the spare debuggee the program runs in (spare.go), or nil
	// initialized: initialize was already answered (attach checks the peer first).
	initialized bool

	mu          sync.Mutex
	changed     chan struct{}
	program     string
	module      string
	args        []string
	envKeys     []string
	createdAt   time.Time
	updatedAt   time.Time
	stop        *Stop
	stopGen     int // StopCount of the stop in s.stop
	bps         map[string][]BreakpointState
	bpGen       int            // setBreakpoints requests so far (breakpoints.go)
	bpLatest    map[string]int // the latest set asked for each file
	bpDone      map[string]int // the latest set the adapter answered for each file
	lastBP      *BreakpointState
	bpErrors    []BreakpointError // since the last stop (breakpointevents.go)
	bpErrorsAll []BreakpointError // of the whole run, for the outcome
	timings     Timings
	runStart    time.Time
	outcome     *Outcome
	ended       bool
	failed      bool
	userEnded   bool // Terminate was called
	noDelay     bool // apply the driver's first-stop fix at the first stop
	noDelayDone bool
	fastWake    bool          // the first-stop fix includes debugpy's wake patch
	undoOnLeave bool          // the first-stop fix must be undone before detaching
	interrupt   time.Duration // the adapter interrupts an evaluation stuck this long (0: never)
	values      *sync.Map
	frames      frameTable // the current stop's frame ids (frames.go)

	bg      sync.WaitGroup
	endOnce sync.Once
	done    chan struct{}
}

func newSession(id, origin string, d adapter.Driver, ad *adapter.Adapter, mx *mux.Mux, cfg sessionConfig) *Session {
	now := time.Now()
	return &Session{
		id: id, origin: origin, kind: d.Kind(), driver: d, cfg: cfg, mux: mx, ad: ad,
		log: cfg.log.With("session", id[:8]), noDelay: cfg.noDelay, fastWake: cfg.fastWake, output: newOutputBuffer(cfg.outputLimit), outputs: newCategoryBuffers(cfg.outputLimit),
		changed: make(chan struct{}), createdAt: now, updatedAt: now, bps: map[string][]BreakpointState{}, bpLatest: map[string]int{}, bpDone: map[string]int{},
		values: &sync.Map{}, done: make(chan struct{}),
	}
}

// ID is the session's UUID.
func (s *Session) ID() string { return s.id }

// Done is closed when the session has ended and its adapter is gone.
func (s *Session) Done() <-chan struct{} { return s.done }

// gone reports whether Done is closed.
func (s *Session) gone() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// StopCount is the number of stops so far: a generation number that tells
// a new stop from one already seen.
func (s *Session) StopCount() int { return s.mux.State().StopCount }

// StopGen is StopCount for the inspector (it drops per-stop caches on a
// new stop).
func (s *Session) StopGen() int { return s.StopCount() }

// ValuesGen is the mux's ChangeCount for the inspector: it moves at each
// stop and each evaluate, setVariable or step of any client but the
// inspector's own probe calls (the probe's cached row orders are dropped
// when it moves).
func (s *Session) ValuesGen() int { return s.mux.State().ChangeCount }

func (s *Session) notifyLocked() {
	s.updatedAt = time.Now()
	close(s.changed)
	s.changed = make(chan struct{})
}

// Status is the session status of the product's model.
func (s *Session) Status() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statusLocked()
}

// finishedLocked: the run is over (the program ended, or its adapter).
func (s *Session) finishedLocked() bool {
	st := s.mux.State()
	return s.ended || st.AdapterDead || st.Status == mux.StatusTerminated || st.Status == mux.StatusExited ||
		(s.outcome != nil && s.outcome.Finished)
}

func (s *Session) statusLocked() string {
	st := s.mux.State()
	if s.finishedLocked() {
		switch {
		case s.userEnded:
			return StatusTerminated
		case s.failed || (s.outcome != nil && (s.outcome.ErrorType != "" || s.outcome.Signal != 0)):
			return StatusError
		}
		return StatusCompleted
	}
	switch st.Status {
	case mux.StatusStopped:
		return StatusPaused
	case mux.StatusRunning:
		return StatusRunning
	}
	return StatusIdle
}

// rel makes p workspace-relative when it is inside the workspace.
func (s *Session) rel(p string) string {
	ws := s.cfg.workspace
	if p == "" || ws == "" {
		return p
	}
	if r, ok := platform.Host.Rel(ws, p); ok {
		return r
	}
	return p
}

// Info snapshots the session.
func (s *Session) Info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := Info{
		Summary: Summary{ID: s.id, Origin: s.origin, Adapter: string(s.kind), Status: s.statusLocked(),
			Program: s.rel(s.program), Module: s.module},
		Args: s.args, EnvKeys: s.envKeys, CreatedAt: s.createdAt, UpdatedAt: s.updatedAt, Timings: s.timings,
	}
	if s.bridge != nil {
		in.Name, in.DebugType = s.bridge.name, s.bridge.debugType
	}
	if s.kernel != nil {
		in.Name, in.Program = s.kernel.name, s.kernel.where
	}
	if g := s.group.Load(); g != nil {
		in.Name, in.Program = g.name, g.where
	}
	if in.Program == "" && in.Module == "" {
		in.Program = s.rel(s.mux.State().Program) // an editor's launch
	}
	if s.stop != nil && in.Status == StatusPaused {
		in.Stop = s.stop.Location
	}
	if s.lastBP != nil {
		bp := *s.lastBP
		in.LastBreakpoint = &bp
	}
	for _, list := range s.bps {
		for _, bp := range list {
			bp.File = s.rel(bp.File)
			in.Breakpoints = append(in.Breakpoints, bp)
		}
	}
	in.ParentID, in.PID, in.Children = s.treeSummary()
	in.Outcome = s.reportedOutcomeLocked()
	if in.Outcome != nil {
		in.Ended = in.Outcome.Ended
	}
	return in
}

// Breakpoints lists all breakpoints with hit counts.
func (s *Session) Breakpoints() []BreakpointState { return s.Info().Breakpoints }

// Outcome is nil until the program ends or raises.
func (s *Session) Outcome() *Outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.reportedOutcomeLocked()
}

// reportedOutcomeLocked is the outcome as every report shows it: a copy,
// with Ended set once the run is over (one word for how it ended), and
// no exit code for a run the user ended (that code is the kill's).
func (s *Session) reportedOutcomeLocked() *Outcome {
	if s.outcome == nil {
		return nil
	}
	o := *s.outcome
	o.Survivors = slices.Clone(o.Survivors)
	o.BreakpointErrors = slices.Clone(o.BreakpointErrors)
	if !s.finishedLocked() {
		return &o
	}
	switch {
	case s.userEnded:
		o.Ended, o.ExitCode = EndedTerminated, nil
	case o.Lost:
		o.Ended = EndedLost
	case o.Signal != 0:
		o.Ended = EndedKilled
	case o.ErrorType == adapterExitedType || (s.failed && o.ErrorType == ""):
		o.Ended = EndedLost
	case o.ErrorType != "":
		o.Ended = EndedCrashed
	default:
		o.Ended = EndedExited
	}
	return &o
}

// Output reads captured output from an absolute offset.
func (s *Session) Output(offset int64, limit int) OutputPage {
	return s.withLost(s.output.read(offset, limit))
}

// withLost adds to p the output events the session could not read in
// time (an output flood): they never reached the buffers.
func (s *Session) withLost(p OutputPage) OutputPage {
	if ev := s.events.Load(); ev != nil {
		p.LostEvents, p.LostBytes = ev.Dropped(), ev.DroppedBytes()
	}
	return p
}

// OutputOf is one page of one category: "stdout", "stderr", "console" (the
// program's) or "debugger" (the adapter's own notices); "" is Output.
func (s *Session) OutputOf(category string, offset int64, limit int) (OutputPage, error) {
	if category == "" || category == "program" {
		return s.Output(offset, limit), nil
	}
	b := s.outputs.get(category)
	if b == nil {
		return OutputPage{}, errcode.Invalid("category", "want stdout, stderr, console or debugger, got %q", category)
	}
	return s.withLost(b.read(offset, limit)), nil
}

// OutputSize is the number of output bytes held.
func (s *Session) OutputSize() int { return s.output.size() + s.outputs.size() }
