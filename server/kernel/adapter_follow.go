// adapter_follow.go: the kernel's life as DAP events for the session. The
// adapter follows the client's subscription and, after every event, brings
// the session to what the kernel does now (level-triggered, so a cell that
// ran between two looks is still one stop):
//   - idle: stopped in the namespace (reason "idle", "after In[7]", and
//     the exception the cell raised, if any);
//   - a user's cell runs: continued;
//   - a cell paused in the kernel's debugger: the debugger's stopped event
//     as it sent it (its thread, reason, breakpoint ids);
//   - restarted: a "process" event (the inspector's state starts over) and
//     a stop in the new namespace;
//   - dead (and not back within DeadGrace: a local restart reconnects):
//     the reason as output, then terminated.

package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// follow turns the kernel's events into DAP events until the adapter ends.
func (a *Adapter) follow(sub *Subscription) {
	defer a.wg.Done()
	defer sub.Close()
	a.begin()
	var deadSince time.Time
	for {
		ctx, cancel := a.ctx, context.CancelFunc(func() {})
		if !deadSince.IsZero() {
			ctx, cancel = context.WithDeadline(a.ctx, deadSince.Add(a.opts.DeadGrace))
		}
		e, err := sub.Next(ctx)
		cancel()
		if err != nil {
			if a.ctx.Err() != nil {
				return
			}
			if !deadSince.IsZero() && time.Since(deadSince) >= a.opts.DeadGrace {
				a.die()
				return
			}
			continue
		}
		var stopBody json.RawMessage
		switch e.Kind {
		case EventLiveness:
			switch {
			case e.Restarted:
				deadSince = time.Time{}
				a.restarted()
				continue
			case e.Liveness == LiveDead && errors.Is(e.Err, ErrGone):
				// Its process is gone and none took its place, or the
				// server has no such kernel: final.
				a.mu.Lock()
				a.deadErr = e.Err
				a.mu.Unlock()
				a.die()
				return
			case e.Liveness == LiveDead:
				if deadSince.IsZero() {
					deadSince = time.Now()
					a.mu.Lock()
					a.deadErr = e.Err
					a.mu.Unlock()
				}
				continue
			case e.Liveness == LiveAlive:
				deadSince = time.Time{}
			}
		case EventMessage:
			if d, ok := e.DebugEvent(); ok && d.Event == "stopped" {
				stopBody = d.Body
			} else if e.Msg.Header.MsgType == "error" && !e.Ours {
				a.noteError(e.Msg)
			}
		}
		a.sync(stopBody)
	}
}

// begin sends the kernel's state when the session starts: the namespace's
// stop (its last In[n] learnt), a running cell, or a cell already paused
// in the debugger (debugInfo's stopped threads).
func (a *Adapter) begin() {
	ctx, cancel := context.WithTimeout(a.ctx, 5*time.Second)
	defer cancel()
	st := a.c.State()
	switch st.Execution {
	case StateBusy:
		if r, err := a.c.Debug(ctx, "debugInfo", nil); err == nil {
			var info struct {
				StoppedThreads []int `json:"stoppedThreads"`
			}
			if json.Unmarshal(r.Body, &info) == nil {
				a.c.learnStopped(info.StoppedThreads)
			}
		}
	case StateIdle:
		// IPython's next execution count, read silently: In[n-1] ran last.
		if v, err := a.c.EvaluateRepr(ctx, "get_ipython().execution_count", CallOptions{}); err == nil {
			var n int
			if _, err := fmt.Sscan(v, &n); err == nil && n > 1 {
				a.mu.Lock()
				a.count = n - 1
				a.mu.Unlock()
			}
		}
	}
	a.mu.Lock()
	if st.LastCell != nil {
		a.cellID = st.LastCell.MsgID // announced by the first stop below
	}
	a.mu.Unlock()
	a.sync(nil)
}

// sync brings the session to what the kernel does now; stopBody is the
// debugger's stopped event that caused the call, if any.
func (a *Adapter) sync(stopBody json.RawMessage) {
	st := a.c.State()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mode == modeEnded {
		return
	}
	var want string
	switch {
	case st.Liveness == LiveDead || st.Liveness == LiveClosed:
		return
	case st.Paused:
		want = modePaused
	case st.Execution == StateBusy:
		want = modeRunning
	case st.Execution == StateIdle:
		want = modeIdle
	default:
		return // starting, or not learnt yet
	}
	first := a.mode == ""
	switch want {
	case modeRunning:
		if a.mode != modeRunning {
			a.mode = modeRunning
			a.eventLocked("continued", map[string]any{"threadId": NamespaceThread, "allThreadsContinued": true})
		}
	case modePaused:
		if a.mode == modePaused && stopBody == nil {
			return
		}
		a.mode = modePaused
		if stopBody != nil {
			a.eventLocked("stopped", stopBody)
			return
		}
		a.eventLocked("stopped", map[string]any{"reason": "breakpoint", "threadId": st.StoppedThread[0], "allThreadsStopped": true,
			"description": "a cell paused in the kernel's debugger"})
	case modeIdle:
		last := st.LastCell
		newCell := last != nil && last.MsgID != a.cellID
		if a.mode == modeIdle && !newCell {
			return
		}
		if a.mode == modeIdle {
			// A cell ran and ended between two looks: still a run and a stop.
			a.eventLocked("continued", map[string]any{"threadId": NamespaceThread, "allThreadsContinued": true})
		}
		desc := "the kernel is idle"
		if last != nil && (newCell || first) {
			a.cellID = last.MsgID
			if last.Known && last.ExecutionCount > 0 {
				a.count = last.ExecutionCount
			}
			desc = a.afterLocked(last)
		} else if a.count > 0 {
			desc = fmt.Sprintf("after In[%d]", a.count)
		}
		a.mode = modeIdle
		a.eventLocked("stopped", map[string]any{"reason": "idle", "description": desc, "threadId": NamespaceThread,
			"allThreadsStopped": true, "preserveFocusHint": true})
	}
}

// afterLocked describes the stop after a cell: its In[n], and what it raised.
func (a *Adapter) afterLocked(c *Cell) string {
	s := "after a cell"
	if c.Known && c.ExecutionCount > 0 {
		s = fmt.Sprintf("after In[%d]", c.ExecutionCount)
	}
	if c.Error {
		if a.errCell == c.MsgID && a.errText != "" {
			return s + ", which raised " + a.errText
		}
		return s + ", which raised an exception"
	}
	return s
}

// noteError keeps what a user's cell raised (its IOPub error message).
func (a *Adapter) noteError(m *Message) {
	var c struct {
		EName  string `json:"ename"`
		EValue string `json:"evalue"`
	}
	if json.Unmarshal(m.Content, &c) != nil || c.EName == "" {
		return
	}
	text := c.EName
	if c.EValue != "" {
		text += ": " + clipText(c.EValue, 200)
	}
	a.mu.Lock()
	a.errCell, a.errText = m.Parent.MsgID, text
	a.mu.Unlock()
}

// restarted: a new kernel process, a new namespace.
func (a *Adapter) restarted() {
	a.ns.reset()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mode == modeEnded {
		return
	}
	a.count, a.cellID, a.errCell, a.errText, a.deadErr = 0, "", "", "", nil
	a.eventLocked("process", map[string]any{"name": "kernel " + a.c.Name(), "startMethod": "attach", "isLocalProcess": true})
	if a.mode != modeRunning {
		a.eventLocked("continued", map[string]any{"threadId": NamespaceThread, "allThreadsContinued": true})
	}
	a.mode = modeIdle
	a.eventLocked("stopped", map[string]any{"reason": "restart", "description": "the kernel restarted: a new namespace",
		"threadId": NamespaceThread, "allThreadsStopped": true, "preserveFocusHint": true})
}

// die ends the session: the kernel is dead and did not come back.
func (a *Adapter) die() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.mode == modeEnded {
		return
	}
	why := "the kernel died"
	if a.deadErr != nil {
		why += ": " + a.deadErr.Error()
	}
	a.mode, a.ended = modeEnded, why
	a.eventLocked("output", map[string]any{"category": "important", "output": why + "\n"})
	a.eventLocked("terminated", map[string]any{})
}

// eventLocked queues a DAP event; a.mu is held.
func (a *Adapter) eventLocked(name string, body any) {
	raw, err := json.Marshal(body)
	if err != nil || string(raw) == "null" {
		raw = nil
	}
	frame, _ := json.Marshal(struct {
		Seq   int             `json:"seq"`
		Type  string          `json:"type"`
		Event string          `json:"event"`
		Body  json.RawMessage `json:"body,omitempty"`
	}{a.nextSeq(), "event", name, raw})
	a.queue = append(a.queue, frame)
	select {
	case a.wake <- struct{}{}:
	default:
	}
}
