// busy.go: what the kernel is doing, followed from IOPub: which requests
// are running (status busy/idle by parent message), which of them are
// users' cells (execute_input), whether the debugger has a thread stopped,
// and the "busy, cell unknown" state of a client that attached while a
// cell was already running.

package kernel

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Cell is a user's cell seen running in the kernel.
type Cell struct {
	MsgID          string    `json:"msg_id,omitempty"`          // the execute_request's msg_id
	Session        string    `json:"session,omitempty"`         // the session of the client that sent it
	Known          bool      `json:"known"`                     // execute_input was seen: Code and ExecutionCount are set
	Code           string    `json:"code,omitempty"`            // the cell's code
	ExecutionCount int       `json:"execution_count,omitempty"` // its In[n] number
	Submitted      time.Time `json:"submitted,omitzero"`        // the request's header date (the client's clock)
	Started        time.Time `json:"started,omitzero"`          // when its status busy was seen (zero if attached while it ran)
	Ended          time.Time `json:"ended,omitzero"`            // when its status idle was seen (zero while it runs)
	Error          bool      `json:"error,omitempty"`           // an IOPub error message was seen for it
	// FromHistory: it was already running when dapscope attached; Code
	// and ExecutionCount are the kernel's input history's latest entry.
	FromHistory bool `json:"from_history,omitempty"`
	// StartedBy: it started at or before this time, the Jupyter Server's
	// last_activity for the kernel, read before attaching while it ran
	// (zero: unknown, or seen starting; runningcell.go).
	StartedBy time.Time `json:"started_by,omitzero"`
}

// MarshalJSON is encoding/json's, whatever encoder asks (omitzero).
func (c Cell) MarshalJSON() ([]byte, error) {
	type plain Cell
	return json.Marshal(plain(c))
}

// describe names the cell in one line for messages.
func (c Cell) describe() string {
	if !c.Known {
		return "a cell (its code is unknown)"
	}
	code := strings.TrimSpace(c.Code)
	if i := strings.IndexByte(code, '\n'); i >= 0 {
		code = code[:i] + " …"
	}
	return fmt.Sprintf("cell [%d] (%s)", c.ExecutionCount, clipText(code, 60))
}

// Execution states.
const (
	StateIdle     = "idle"
	StateBusy     = "busy"
	StateStarting = "starting"
	StateUnknown  = "unknown"
)

// State is a snapshot of what the kernel is doing, as this client knows it.
type State struct {
	// Execution is "idle", "busy" (a user's cell, or a cell of unknown
	// code that was running when dapscope attached), "starting", or
	// "unknown" (not yet learnt).
	Execution string
	Cell      *Cell     // the running cell when busy
	Since     time.Time // when the cell was seen starting (or dapscope attached)
	// Paused: the kernel's debugger reports stopped threads (a cell is
	// paused at a breakpoint).
	Paused        bool
	StoppedThread []int
	// Liveness: "alive", "not answering", "dead", or "closed"; Err says why.
	Liveness string
	Err      error
	// LastCell is the most recent user cell that finished, if any.
	LastCell *Cell
}

// activity is one request the kernel is running (status busy seen, idle
// not yet), keyed by its msg_id.
type activity struct {
	parent Header
	ours   bool
	seen   time.Time
	cell   *Cell // set for an execute_request of someone else
}

// tracker follows IOPub; it is guarded by the client's mutex.
type tracker struct {
	session   string
	running   map[string]*activity
	order     []string // msg_ids in the order their busy was seen
	unknown   bool     // attached while the shell was busy: cell unknown
	unknownAt time.Time
	unknownBy Header // that cell's request, once one of its outputs names it
	// unknownCode, unknownCount: that cell as the kernel's input history
	// has it (runningcell.go).
	unknownCode  string
	unknownCount int
	starting     bool
	stopped      map[int]bool
	lastCell     *Cell
	learnt       bool   // an idle or busy state has been established
	kernelSess   string // the kernel process's session (its messages' header), once learnt
	lastChange   time.Time
	// unknownByServer: unknownAt is a Jupyter Server's last_activity, not
	// the attach (runningcell.go).
	unknownByServer bool
}

func newTracker(session string) *tracker {
	return &tracker{session: session, running: map[string]*activity{}, stopped: map[int]bool{}}
}

// shellLike says whether a request type runs on the shell (one at a time);
// kernel_info_request can be on either channel and is left out.
func shellLike(msgType string) bool {
	switch msgType {
	case "execute_request", "complete_request", "inspect_request", "history_request",
		"is_complete_request", "comm_info_request":
		return true
	}
	return false
}

// observe updates the tracker with one IOPub message; it returns the user
// cell that started or ended with it, if any.
func (t *tracker) observe(m *Message, now time.Time) (started, ended *Cell) {
	p := m.Parent
	switch m.Header.MsgType {
	case "status":
		var st statusContent
		if err := json.Unmarshal(m.Content, &st); err != nil {
			return nil, nil
		}
		switch st.ExecutionState {
		case "busy":
			t.starting = false
			t.learnt, t.kernelSess = true, m.Header.Session
			if p.MsgID == "" {
				return nil, nil
			}
			if shellLike(p.MsgType) && p.SubshellID == "" { // a subshell runs beside the main shell
				// The shell runs one request at a time: whatever of the
				// shell was running before has ended (its idle was lost),
				// and an unknown running cell is over.
				t.clearUnknown()
				for _, id := range append([]string(nil), t.order...) {
					if a := t.running[id]; a != nil && shellLike(a.parent.MsgType) {
						if e := t.finish(id, now); e != nil {
							ended = e
						}
					}
				}
			}
			a := &activity{parent: p, ours: p.Session == t.session, seen: now}
			if p.MsgType == "execute_request" && !a.ours {
				a.cell = &Cell{MsgID: p.MsgID, Session: p.Session, Submitted: p.Time(), Started: now}
			}
			t.running[p.MsgID] = a
			t.order = append(t.order, p.MsgID)
			t.lastChange = now
		case "idle":
			t.starting = false
			t.learnt, t.kernelSess = true, m.Header.Session
			if p.MsgType == "execute_request" {
				// A paused thread is the one running the cell: the cell's
				// end is its resumption (debugpy's continued event comes
				// later, or not at all after a continue request).
				t.stopped = map[int]bool{}
			}
			if _, ok := t.running[p.MsgID]; ok {
				ended = t.finish(p.MsgID, now)
			} else if p.MsgType == "execute_request" && p.Session != t.session && p.SubshellID == "" {
				t.clearUnknown() // the cell that ran when we attached is over
			}
			t.lastChange = now
		case "starting", "restarting", "dead":
			if st.ExecutionState == "starting" && t.learnt && m.Header.Session == t.kernelSess {
				// The start broadcast of the kernel process already seen
				// idle or busy (it reached us late, behind the replies to
				// our first requests): not a new start. A restarted
				// kernel is a new process, with a session of its own.
				return nil, nil
			}
			t.reset()
			t.starting = st.ExecutionState != "dead"
		}
	case "execute_input":
		t.noteUnknown(p)
		a := t.running[p.MsgID]
		if a == nil || a.cell == nil {
			return nil, nil
		}
		var in executeInputContent
		if err := json.Unmarshal(m.Content, &in); err != nil {
			return nil, nil
		}
		a.cell.Known, a.cell.Code, a.cell.ExecutionCount = true, in.Code, in.ExecutionCount
		c := *a.cell
		return &c, nil
	case "error":
		t.noteUnknown(p)
		if a := t.running[p.MsgID]; a != nil && a.cell != nil {
			a.cell.Error = true
		}
	case "debug_event":
		t.observeDebug(m)
	default:
		t.noteUnknown(p)
	}
	return nil, ended
}

func (t *tracker) clearUnknown() {
	t.unknown, t.unknownBy, t.unknownCode, t.unknownCount, t.unknownByServer = false, Header{}, "", 0, false
}

// noteUnknown learns, from an output of the cell that was already running
// when we attached, its request (who sent it, and when).
func (t *tracker) noteUnknown(p Header) {
	if t.unknown && t.unknownBy.MsgID == "" && p.MsgType == "execute_request" && p.SubshellID == "" &&
		p.Session != t.session && t.running[p.MsgID] == nil {
		t.unknownBy = p
	}
}

// finish removes a running request; a known user cell is returned ended.
func (t *tracker) finish(id string, now time.Time) *Cell {
	a := t.running[id]
	delete(t.running, id)
	for i, o := range t.order {
		if o == id {
			t.order = append(t.order[:i], t.order[i+1:]...)
			break
		}
	}
	if a == nil || a.cell == nil || !a.cell.Known {
		return nil
	}
	a.cell.Ended = now
	c := *a.cell
	t.lastCell = &c
	return &c
}

// reset forgets what the tracker knew of a kernel process that died or
// was replaced: its running requests, paused threads and its last cell (a
// new process has run none of it).
func (t *tracker) reset() {
	t.running = map[string]*activity{}
	t.order = nil
	t.clearUnknown()
	t.stopped = map[int]bool{}
	t.learnt = false
	t.lastCell = nil
}

// blocking is the user cell that holds the shell, if any: a known cell of
// another client, or the unknown one seen at attach. Other clients' silent
// requests (no execute_input) do not count: they are short by design.
func (t *tracker) blocking(now time.Time) (Cell, time.Time, bool) {
	for _, id := range t.order {
		if a := t.running[id]; a != nil && a.cell != nil && a.cell.Known {
			return *a.cell, a.seen, true
		}
	}
	if t.unknown {
		by := t.unknownBy
		c := Cell{MsgID: by.MsgID, Session: by.Session, Submitted: by.Time()}
		if t.unknownByServer {
			c.StartedBy = t.unknownAt
		}
		if t.unknownCount > 0 {
			c.Known, c.FromHistory, c.Code, c.ExecutionCount = true, true, t.unknownCode, t.unknownCount
		}
		return c, t.unknownAt, true
	}
	return Cell{}, time.Time{}, false
}

// started says whether our request id has begun running (its busy seen).
func (t *tracker) started(id string) bool {
	_, ok := t.running[id]
	return ok
}

// state is the tracker's part of a State.
func (t *tracker) state(now time.Time) State {
	s := State{Execution: StateUnknown, LastCell: t.lastCell}
	switch {
	case t.starting:
		s.Execution = StateStarting
	case t.learnt || t.unknown:
		s.Execution = StateIdle
	}
	if c, since, ok := t.blocking(now); ok {
		s.Execution, s.Since = StateBusy, since
		c := c
		s.Cell = &c
	}
	for id := range t.stopped {
		s.StoppedThread = append(s.StoppedThread, id)
	}
	sort.Ints(s.StoppedThread)
	s.Paused = len(s.StoppedThread) > 0
	return s
}
