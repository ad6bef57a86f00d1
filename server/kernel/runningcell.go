// runningcell.go: what a fresh attach learns of a cell that was already
// running. Nothing of it comes on IOPub any more (its execute_input went
// out before we subscribed), and the shell is busy with it: its code is
// the last entry of IPython's input history, In, read on the control
// channel through the kernel debugger's richInspectVariables (which
// ipykernel answers while a cell runs and without the debugger started;
// it only looks a name up in the user's namespace and formats a list of
// str: no user code runs); its execution count is In's length less one.
// In holds the code as IPython transformed it (a magic is its
// get_ipython() call), without its trailing newline here.
// Its start is bounded: over ZeroMQ by the attach ("at least"; no message
// the kernel answers while busy dates it: IOPub replays nothing, the
// history has no times, usage_request gives CPU and memory), through a
// Jupyter Server by its kernel model's last_activity (serverBusySince).
// Without the history it stays "a cell (its code is unknown)".

package kernel

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// historyCellTimeout bounds the look at the input history.
const historyCellTimeout = 2 * time.Second

// learnRunningCell fills in the unknown running cell from the kernel's
// input history; best effort.
func (c *Client) learnRunningCell(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, historyCellTimeout)
	defer cancel()
	resp, err := c.Debug(ctx, "richInspectVariables", map[string]any{"variableName": "In"})
	if err != nil {
		c.log.Debug("kernel: the running cell's code is unknown", "err", err)
		return
	}
	var body struct {
		Data map[string]any `json:"data"`
	}
	_ = json.Unmarshal(resp.Body, &body)
	text, _ := body.Data["text/plain"].(string)
	items, ok := pyStrList(text)
	if !ok || len(items) < 2 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.track.unknown {
		return // it ended meanwhile
	}
	c.track.unknownCode, c.track.unknownCount = strings.TrimRight(items[len(items)-1], "\n"), len(items)-1
	c.notifyLocked()
}

// pyStrList reads the repr of a list of str (as IPython prints In:
// possibly over several lines); ok is false for anything else, or a list
// the printer cut ("...").
func pyStrList(s string) ([]string, bool) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[") || !strings.HasSuffix(s, "]") {
		return nil, false
	}
	s = s[1 : len(s)-1]
	var out []string
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			return out, true
		}
		n := strLiteralLen(s)
		if n == 0 {
			return nil, false
		}
		v, err := decodePyStr(s[:n])
		if err != nil {
			return nil, false
		}
		out = append(out, v)
		s = strings.TrimLeft(s[n:], " \t\r\n")
		if s == "" {
			return out, true
		}
		if s[0] != ',' {
			return nil, false
		}
		s = s[1:]
	}
}

// strLiteralLen is the length of the single- or double-quoted str literal
// that starts s (as repr writes it), 0 if none.
func strLiteralLen(s string) int {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return 0
	}
	q := s[0]
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case q:
			return i + 1
		}
	}
	return 0
}

// maxServerSkew: a Jupyter Server whose Date header is further than this
// from our clock does not date a running cell.
const maxServerSkew = 2 * time.Second

// serverBusySince is the bound a Jupyter Server's kernel model puts on
// the start of the cell running when it was read, or zero. The server
// moves last_activity at every IOPub message of a busy kernel (the busy
// status that started the cell, then each output), so a cell that was
// running then started at or before it: the cell has run for at least
// now - last_activity. Read before the websocket opens (the server's
// nudge moves it) and used only when attaching finds the shell busy. It
// holds unless that cell ended and another began in the milliseconds
// between this read and the websocket's opening. It trusts the server's
// clock as ours: one whose Date header is more than maxServerSkew off, or
// a last_activity after the read, gives nothing.
func serverBusySince(k *ServerKernel) time.Time {
	if k == nil || k.ExecutionState != StateBusy || k.LastActivity.IsZero() || k.Read.IsZero() {
		return time.Time{}
	}
	if !k.ServerDate.IsZero() {
		if skew := k.Read.Sub(k.ServerDate); skew < -maxServerSkew || skew > maxServerSkew {
			return time.Time{}
		}
	}
	if k.LastActivity.After(k.Read) {
		return time.Time{}
	}
	return k.LastActivity
}
